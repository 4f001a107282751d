// core/object_keys.cpp: duplicate object keys over the view. JSON allows `{"a":1,"a":2}`; jq keeps one member per
// key, at the first key's position with the last value. The parser flags the (rare) objects that repeat a key, after
// an exact test here (hashing that input cannot flood: core/key_index.hpp); readers of a flagged object list its
// members through unique_member_keys.
#include <array>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.hpp"
#include "core/key_index.hpp"

namespace jview {
namespace {

// The decoded keys of object obj, in member order, and their key nodes; escaped keys are decoded into `decoded`
// (stable addresses).
void member_key_texts(const document& doc, std::uint32_t obj, std::vector<std::string_view>& texts,
                      std::vector<std::uint32_t>& nodes, std::deque<std::string>& decoded) {
  const std::uint32_t end = doc[obj].next;
  texts.reserve(doc[obj].len);
  nodes.reserve(doc[obj].len);
  for (std::uint32_t k = obj + 1; k < end; k = doc[k + 1].next) {
    if ((doc[k].flags & (node_flag::escapes | node_flag::bad_utf8)) != 0) {
      decoded.emplace_back();
      doc.append_string(k, decoded.back());
      texts.emplace_back(decoded.back());
    } else {
      texts.push_back(doc.raw(k));
    }
    nodes.push_back(k);
  }
}

// An object of up to k_pairwise_members members, tested pair by pair (see object_has_duplicate_keys). Its keys are
// read as member_key_texts reads them, into fixed arrays instead of its vectors and deque.
constexpr std::uint32_t k_pairwise_members = 16;
bool has_duplicate_keys_pairwise(const document& doc, std::uint32_t obj) {
  std::array<std::string, k_pairwise_members> decoded;  // (short keys stay in each string's own buffer)
  std::array<std::string_view, k_pairwise_members> texts;
  std::uint32_t count = 0;
  const std::uint32_t end = doc[obj].next;
  for (std::uint32_t k = obj + 1; k < end && count < k_pairwise_members; k = doc[k + 1].next, ++count) {
    if ((doc[k].flags & (node_flag::escapes | node_flag::bad_utf8)) != 0) {
      doc.append_string(k, decoded[count]);
      texts[count] = decoded[count];
    } else {
      texts[count] = doc.raw(k);
    }
    for (std::uint32_t j = 0; j < count; ++j)
      if (texts[j] == texts[count]) return true;
  }
  return false;
}

}  // namespace

// Both run in O(members) expected time, O(members log members) at worst (detail::string_index): the keys come
// from the input, which may have been crafted to collide. An object of up to k_pairwise_members members (most of
// those the parser sends here: one escaped key is enough) is tested pair by pair instead, with its escaped keys
// decoded into short-string buffers: no allocation (a 64-byte object with an escaped key took 2x simdjson's whole
// parse in the index's vectors, deque and table).
bool document::object_has_duplicate_keys(std::uint32_t obj) const {
  if (nodes_[obj].len <= k_pairwise_members) return has_duplicate_keys_pairwise(*this, obj);
  std::vector<std::string_view> texts;
  std::vector<std::uint32_t> nodes;
  std::deque<std::string> decoded;
  member_key_texts(*this, obj, texts, nodes, decoded);
  detail::string_index index;
  return index.build(std::move(texts));
}

void document::unique_member_keys(std::uint32_t obj, std::vector<std::uint32_t>& out) const {
  std::vector<std::string_view> texts;
  std::vector<std::uint32_t> nodes;
  std::deque<std::string> decoded;
  member_key_texts(*this, obj, texts, nodes, decoded);
  detail::string_index index;
  std::vector<std::uint32_t> first;
  index.build(std::move(texts), &first);
  // Each first occurrence, in order, takes the node of its key's last occurrence.
  std::vector<std::uint32_t> last(nodes);
  for (std::size_t i = 0; i < nodes.size(); ++i) last[first[i]] = nodes[i];
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (first[i] == i) out.push_back(last[i]);
}

}  // namespace jview
