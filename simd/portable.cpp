// simd/portable.cpp: the portable UTF-8 validator, the reference every vector kernel must agree with, and the
// cold path that lets a vector kernel hand a failing block to it. Strict UTF-8 (RFC 3629): no overlongs, no
// surrogates, nothing above U+10FFFF, no truncated sequences.
#include <cstdint>
#include <cstring>

#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

namespace jview::simd {

std::size_t validate_utf8_portable(const char* s, std::size_t len) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  std::size_t i = 0;
  while (i < len) {
    // ASCII fast path: eight bytes at a time (JSON is mostly ASCII).
    while (i + 8 <= len) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= len) break;
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = detail::utf8_sequence_length(p + i, len - i);
    if (n == 0) return i;
    i += n;
  }
  return len;
}

namespace detail {

[[gnu::cold]] std::size_t utf8_locate_error(const unsigned char* p, std::size_t len, std::size_t block) noexcept {
  // The last sequence start before `block` lies at most 3 bytes back (a prefix that passed has no longer runs of
  // continuation bytes). Any sequence start is a boundary of the portable parse, so restarting there is exact.
  std::size_t start = block;
  for (std::size_t back = 1; back <= 3 && back <= block; ++back) {
    if ((p[block - back] & 0xc0) != 0x80) {
      start = block - back;
      break;
    }
  }
  return start + validate_utf8_portable(reinterpret_cast<const char*>(p) + start, len - start);
}

}  // namespace detail
}  // namespace jview::simd
