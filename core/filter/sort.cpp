// core/filter/sort.cpp: see sort.hpp.
#include "core/filter/sort.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace jview::filter::detail {

namespace {

// The first eight bytes of s as a big-endian number, zero-padded: comparing two of them as integers orders like
// memcmp over those bytes, a shorter string's padding below any byte of a longer one that differs there.
std::uint64_t prefix8(std::string_view s) noexcept {
  unsigned char b[8] = {};
  std::memcpy(b, s.data(), std::min<std::size_t>(s.size(), 8));
  std::uint64_t x = 0;
  for (unsigned char c : b) x = (x << 8) | c;
  return x;
}

int compare_bytes(std::string_view a, std::string_view b) noexcept {
  const int r = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (r != 0) return r < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace

sort_keys::sort_keys(const value* keys, const std::uint32_t* offsets, std::size_t n)
    : keys_(keys), offsets_(offsets) {
  recs_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    rec& r = recs_[i];
    r.idx = static_cast<std::uint32_t>(i);
    r.bits = 0;
    r.k = k_generic;
    r.len = 0;
    if (offsets_ != nullptr && offsets_[i + 1] - offsets_[i] != 1) continue;  // [] or several outputs
    const value& v = key(r.idx);
    switch (v.type()) {
      case kind::null_:
      case kind::false_:
      case kind::true_: r.k = static_cast<std::uint8_t>(v.type()); break;
      case kind::number:
        r.k = static_cast<std::uint8_t>(kind::number);
        r.bits = std::bit_cast<std::uint64_t>(v.number());
        break;
      case kind::string: {
        if (strs_.empty()) strs_.resize(n);
        std::string tmp;
        std::string_view s = v.str(tmp);
        if (s.empty()) {
          s = std::string_view("", 0);
        } else if (s.data() == tmp.data()) {  // decoded into tmp: keep it
          decoded_.push_back(std::move(tmp));
          s = decoded_.back();
        }
        strs_[i] = s;
        r.k = static_cast<std::uint8_t>(kind::string);
        r.bits = prefix8(s);
        r.len = static_cast<std::uint8_t>(std::min<std::size_t>(s.size(), 9));
        break;
      }
      case kind::array:
      case kind::object: break;
    }
  }
}

int sort_keys::compare_generic(std::uint32_t i, std::uint32_t j) const {
  if (offsets_ == nullptr) return compare(keys_[i], keys_[j]);
  // Lists of outputs, compared as jq compares the arrays [f]: element by element, then by length.
  const std::uint32_t ni = offsets_[i + 1] - offsets_[i], nj = offsets_[j + 1] - offsets_[j];
  const std::uint32_t n = std::min(ni, nj);
  for (std::uint32_t t = 0; t < n; ++t) {
    const int c = compare(keys_[offsets_[i] + t], keys_[offsets_[j] + t], 1);
    if (c != 0) return c;
  }
  if (ni == nj) return 0;
  return ni < nj ? -1 : 1;
}

int sort_keys::compare_recs(const rec& a, const rec& b) const {
  if (a.k == k_generic || b.k == k_generic) return compare_generic(a.idx, b.idx);
  if (a.k != b.k) return a.k < b.k ? -1 : 1;
  switch (static_cast<kind>(a.k)) {
    case kind::number: {
      const double x = std::bit_cast<double>(a.bits), y = std::bit_cast<double>(b.bits);
      if (x < y) return -1;
      if (x > y) return 1;
      // Equal doubles (literals may still differ as decimals) and NaN: the full rule.
      return compare(key(a.idx), key(b.idx));
    }
    case kind::string:
      if (a.bits != b.bits) return a.bits < b.bits ? -1 : 1;
      // Same first eight bytes (zero-padded): a string of at most 8 is a prefix of the other.
      if (a.len <= 8 || b.len <= 8) return a.len == b.len ? 0 : (a.len < b.len ? -1 : 1);
      return compare_bytes(strs_[a.idx], strs_[b.idx]);
    default: return 0;  // null, false, true
  }
}

void sort_keys::sort() {
  std::stable_sort(recs_.begin(), recs_.end(), [this](const rec& a, const rec& b) {
    // Inline: strings that differ in their first eight bytes (most comparisons of a sort by name or id).
    if (a.k == b.k && a.k == static_cast<std::uint8_t>(kind::string)) {
      if (a.bits != b.bits) return a.bits < b.bits;
      if (a.len <= 8 || b.len <= 8) return a.len < b.len;
    }
    // The merges call comp(right, left): the right element goes first only when compare(left, right) > 0, as in
    // the merge sort of glibc's qsort under jq. The two tests differ only for NaN, which orders below itself:
    // `[1,2,3] | sort_by(nan)` keeps its order, as in jq 1.8.
    return compare_recs(b, a) > 0;
  });
}

}  // namespace jview::filter::detail
