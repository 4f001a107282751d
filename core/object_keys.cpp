// core/object_keys.cpp: duplicate object keys over the view. JSON allows `{"a":1,"a":2}`; jq keeps one member per
// key, at the first key's position with the last value. The parser flags the (rare) objects that repeat a key, after
// an exact test here (hashing that input cannot flood: core/key_index.hpp); readers of a flagged object list its
// members through unique_member_keys.
#include <cstdint>
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

// The length of an escaped key's text, from its raw bytes without decoding them: every byte outside an escape
// stands for itself (DEL, which flags a string too, included), a two-byte escape such as `\n` for one byte, and a
// `\uXXXX` for 1 to 3 (a surrogate pair, two of them, for 4; a lone surrogate, accepted with
// --replace-invalid-utf8, becomes U+FFFD, 3).
void escaped_length_bounds(std::string_view raw, std::uint32_t& shortest, std::uint32_t& longest) {
  std::uint32_t simple = 0, unicode = 0;
  for (std::size_t i = raw.find('\\'); i != std::string_view::npos; i = raw.find('\\', i)) {
    if (i + 1 < raw.size() && raw[i + 1] == 'u') {
      ++unicode;
      i += 6;
    } else {
      ++simple;
      i += 2;
    }
  }
  const auto len = static_cast<std::uint32_t>(raw.size());
  shortest = len - simple - 5 * unicode;
  longest = len - simple - 3 * unicode;
}

// An object of up to k_pairwise_members members, tested pair by pair (see object_has_duplicate_keys), allocating
// nothing for short keys. Keys are read as member_key_texts reads them, but an escaped key is decoded only when
// another key's text could have its length (escaped_length_bounds): `{"\"Name":1,"t":2}` decodes and compares
// nothing. A key with invalid UTF-8 replaced (1 byte for 3) is always decoded.
constexpr std::uint32_t k_pairwise_members = 16;
bool has_duplicate_keys_pairwise(const document& doc, std::uint32_t obj) {
  // Plain arrays, filled as keys are read: std::array<std::string_view> would be zeroed first (a `rep stos` that
  // cost more than the test).
  const char* at[k_pairwise_members];  // key i's text: its raw bytes, or where it is in `texts` once decoded
  std::uint32_t len[k_pairwise_members], node_of[k_pairwise_members], shortest[k_pairwise_members],
      longest[k_pairwise_members];
  std::uint32_t plain = 0, decoded = 0;  // bit i: key i's text is its raw bytes; key i is decoded into `texts`
  std::string texts;                     // the decoded keys, one after another
  std::size_t decoded_at[k_pairwise_members];
  const auto decode = [&](std::uint32_t i) {
    if (((decoded | plain) >> i & 1) != 0) return;
    decoded_at[i] = texts.size();
    doc.append_string(node_of[i], texts);
    len[i] = static_cast<std::uint32_t>(texts.size() - decoded_at[i]);
    decoded |= 1u << i;
  };
  const auto text = [&](std::uint32_t i) {
    return std::string_view((decoded >> i & 1) != 0 ? texts.data() + decoded_at[i] : at[i], len[i]);
  };
  std::uint32_t count = 0;
  const std::uint32_t end = doc[obj].next;
  for (std::uint32_t k = obj + 1; k < end && count < k_pairwise_members; k = doc[k + 1].next, ++count) {
    const std::string_view raw = doc.raw(k);
    const std::uint8_t flags = doc[k].flags;
    at[count] = raw.data();
    len[count] = static_cast<std::uint32_t>(raw.size());
    node_of[count] = k;
    if ((flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
      plain |= 1u << count;
      shortest[count] = longest[count] = len[count];
    } else if ((flags & node_flag::bad_utf8) == 0) {
      escaped_length_bounds(raw, shortest[count], longest[count]);
    } else {
      shortest[count] = 0;
      longest[count] = UINT32_MAX;
    }
    for (std::uint32_t j = 0; j < count; ++j) {
      if (longest[j] < shortest[count] || longest[count] < shortest[j]) continue;  // (plain keys: lengths differ)
      decode(j);
      decode(count);
      if (text(j) == text(count)) return true;
    }
  }
  return false;
}

}  // namespace

// Both run in O(members) expected time, O(members log members) at worst (detail::string_index): the keys come
// from the input, which may have been crafted to collide. An object of up to k_pairwise_members members (most of
// those the parser sends here: one escaped key is enough) is tested pair by pair instead, decoding an escaped key
// only when another key could be its text (a 64-byte object with an escaped key took 2x simdjson's whole parse in
// the index's vectors, deque and table).
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
