// simd/byte_count.hpp: how many bytes of [p, end) equal c (the newlines a diagnostic's line number needs, counted
// over whole files). Header-only over the baseline vector unit: compares subtracted into byte counters, summed every
// 255 blocks. The portable path (also --no-simd) counts eight bytes at a time in a word.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "simd/baseline.hpp"

namespace jview::simd {

inline std::size_t count_byte_portable(const char* p, const char* end, char c) noexcept {
  constexpr std::uint64_t k_low7 = 0x7f7f7f7f7f7f7f7full;
  const std::uint64_t pattern = 0x0101010101010101ull * static_cast<unsigned char>(c);
  std::size_t n = 0;
  for (; end - p >= 8; p += 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const std::uint64_t x = w ^ pattern;                      // zero bytes where w had c
    const std::uint64_t zero = ~(((x & k_low7) + k_low7) | x | k_low7);  // 0x80 exactly at the zero bytes
    n += static_cast<std::size_t>(__builtin_popcountll(zero));
  }
  for (; p < end; ++p) n += *p == c;
  return n;
}

inline std::size_t count_byte(const char* p, const char* end, char c, bool vector = true) noexcept {
#if JVIEW_HAVE_SSE2
  if (vector) {
    std::size_t n = 0;
    const __m128i needle = _mm_set1_epi8(c);
    while (end - p >= 16) {
      // At most 255 blocks per byte counter, then the counters are summed (SAD against zero: two 64-bit sums).
      const std::size_t blocks = std::min<std::size_t>(static_cast<std::size_t>(end - p) / 16, 255);
      __m128i acc = _mm_setzero_si128();
      for (std::size_t i = 0; i < blocks; ++i, p += 16)
        acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), needle));
      const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
      n += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
           static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    }
    return n + count_byte_portable(p, end, c);
  }
#elif JVIEW_HAVE_NEON
  if (vector) {
    std::size_t n = 0;
    const uint8x16_t needle = vdupq_n_u8(static_cast<std::uint8_t>(c));
    while (end - p >= 16) {
      const std::size_t blocks = std::min<std::size_t>(static_cast<std::size_t>(end - p) / 16, 255);
      uint8x16_t acc = vdupq_n_u8(0);
      for (std::size_t i = 0; i < blocks; ++i, p += 16)
        acc = vsubq_u8(acc, vceqq_u8(vld1q_u8(reinterpret_cast<const std::uint8_t*>(p)), needle));
      n += vaddlvq_u8(acc);
    }
    return n + count_byte_portable(p, end, c);
  }
#endif
  (void)vector;
  return count_byte_portable(p, end, c);
}

}  // namespace jview::simd
