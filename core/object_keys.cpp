// core/object_keys.cpp: duplicate object keys over the view. JSON allows `{"a":1,"a":2}`; jq keeps one member per
// key, at the first key's position with the last value. The parser flags the (rare) objects that repeat a key, after
// an exact test here; readers of a flagged object list its members through unique_member_keys.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.hpp"

namespace jview {
namespace {

// The decoded keys of one object, indexed by an open-addressing hash table: one pass, O(members).
class key_index {
 public:
  key_index(const document& doc, std::uint32_t obj) : doc_(doc) {
    std::size_t cap = 16;
    while (cap < std::size_t{doc[obj].len} * 2) cap <<= 1;
    slots_.assign(cap, 0);
    distinct_.reserve(doc[obj].len);
  }

  // Adds key node k; returns the index in distinct() of its first occurrence (a new one when it is new).
  std::uint32_t add(std::uint32_t k) {
    std::string_view text = doc_.raw(k);
    if ((doc_[k].flags & (node_flag::escapes | node_flag::bad_utf8)) != 0) {
      decoded_.emplace_back();
      doc_.append_string(k, decoded_.back());
      text = decoded_.back();
    }
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t h = hash(text) & mask;; h = (h + 1) & mask) {
      if (slots_[h] == 0) {
        distinct_.push_back({text, k});
        slots_[h] = static_cast<std::uint32_t>(distinct_.size());
        return slots_[h] - 1;
      }
      if (distinct_[slots_[h] - 1].text == text) return slots_[h] - 1;
    }
  }

  struct entry {
    std::string_view text;
    std::uint32_t last;  // the key's last occurrence
  };
  std::vector<entry>& distinct() noexcept { return distinct_; }

 private:
  static std::size_t hash(std::string_view s) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
  const document& doc_;
  std::vector<std::uint32_t> slots_;  // index into distinct_ + 1; 0 = empty
  std::vector<entry> distinct_;
  std::deque<std::string> decoded_;   // escaped keys, decoded (stable addresses)
};

}  // namespace

bool document::object_has_duplicate_keys(std::uint32_t obj) const {
  key_index index(*this, obj);
  const std::uint32_t end = nodes_[obj].next;
  std::uint32_t members = 0;
  for (std::uint32_t k = obj + 1; k < end; k = nodes_[k + 1].next, ++members)
    if (index.add(k) != members) return true;
  return false;
}

void document::unique_member_keys(std::uint32_t obj, std::vector<std::uint32_t>& out) const {
  key_index index(*this, obj);
  const std::uint32_t end = nodes_[obj].next;
  for (std::uint32_t k = obj + 1; k < end; k = nodes_[k + 1].next) index.distinct()[index.add(k)].last = k;
  for (const auto& e : index.distinct()) out.push_back(e.last);
}

}  // namespace jview
