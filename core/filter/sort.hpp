// core/filter/sort.hpp: sorting by keys computed once (sort, sort_by, group_by, unique, unique_by, min_by, max_by).
// Each element gets a 16-byte record: the key's kind, and for a scalar key its number or the first eight bytes of
// its string, so most comparisons of a sort never leave the record array (the keys themselves sit behind pointers,
// scattered over the heap or a document). Ties of the prefix, literal numbers that meet in one double, and keys
// that are containers or lists of several outputs fall back to jq's full order (compare in value.hpp); the result
// is always exactly the order of that comparison, stable.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/value.hpp"

namespace jview::filter::detail {

class sort_keys {
 public:
  // Key i is keys[i] itself (sort, unique): `offsets` null. Or key i is the list keys[offsets[i], offsets[i+1])
  // of the outputs of f (sort_by(f) and friends; jq sorts by the array [f]): `offsets` holds n + 1 entries.
  // The keys must outlive this object.
  sort_keys(const value* keys, const std::uint32_t* offsets, std::size_t n);

  std::size_t size() const noexcept { return recs_.size(); }
  // Stable ascending order (jq's order of the keys, equal keys in input order).
  void sort();
  // The element at position pos (of the order after sort(), else the input order).
  std::uint32_t index_at(std::size_t pos) const noexcept { return recs_[pos].idx; }
  // jq's order of the keys at positions a and b: <0, 0, >0.
  int compare_at(std::size_t a, std::size_t b) const { return compare_recs(recs_[a], recs_[b]); }

 private:
  static constexpr std::uint8_t k_generic = 0xff;  // compared through the values
  struct rec {
    std::uint64_t bits;  // number: the double's bits; string: first 8 bytes, big-endian, zero-padded
    std::uint32_t idx;   // element index
    std::uint8_t k;      // the scalar key's kind (jview::kind), or k_generic
    std::uint8_t len;    // string: its length if at most 8, else 9
  };
  int compare_recs(const rec& a, const rec& b) const;
  int compare_generic(std::uint32_t i, std::uint32_t j) const;
  const value& key(std::uint32_t i) const noexcept { return offsets_ ? keys_[offsets_[i]] : keys_[i]; }

  const value* keys_;
  const std::uint32_t* offsets_;
  std::vector<rec> recs_;
  std::vector<std::string_view> strs_;  // by element: a string key's contents
  std::deque<std::string> decoded_;     // contents of escaped view strings (a deque: strings never move)
};

}  // namespace jview::filter::detail
