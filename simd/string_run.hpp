// simd/string_run.hpp: find where a run of string text that holds non-ASCII bytes ends: the first '"', '\\',
// control byte (< 0x20) or DEL. The parser calls it on its first non-ASCII byte, then validates the whole run with
// the UTF-8 kernel in one call instead of decoding sequence by sequence (CJK text is almost all non-ASCII).
// Header-only so the parser inlines it; loads never pass `end`.
#pragma once
#include <cstdint>

#include "simd/baseline.hpp"

namespace jview::simd {

struct run_stop_table {
  bool stop[256];
  constexpr run_stop_table() : stop{} {
    for (int c = 0; c < 256; ++c) stop[c] = c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
  }
};
inline constexpr run_stop_table k_run_stop{};

struct portable_run {
  [[gnu::always_inline]] static inline const char* find_end(const char* p, const char* end) noexcept {
    while (p < end && !k_run_stop.stop[static_cast<unsigned char>(*p)]) ++p;
    return p;
  }
};

#if JVIEW_HAVE_SSE2
struct sse2_run {
  static inline const char* find_end(const char* p, const char* end) noexcept {
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), del = _mm_set1_epi8(0x7f);
    const __m128i bias = _mm_set1_epi8(static_cast<char>(0x80)), ctrl = _mm_set1_epi8(static_cast<char>(0x80 + 0x20));
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      // Unsigned v < 0x20 as a signed compare of v ^ 0x80 against 0x20 ^ 0x80.
      const __m128i is_ctrl = _mm_cmplt_epi8(_mm_xor_si128(v, bias), ctrl);
      const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                        _mm_or_si128(is_ctrl, _mm_cmpeq_epi8(v, del)));
      const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
      if (mask != 0) return p + __builtin_ctz(mask);
      p += 16;
    }
    return portable_run::find_end(p, end);
  }
};
#endif

#if JVIEW_HAVE_NEON
struct neon_run {
  static inline const char* find_end(const char* p, const char* end) noexcept {
    const uint8x16_t quote = vdupq_n_u8('"'), bslash = vdupq_n_u8('\\'), space = vdupq_n_u8(0x20),
                     del = vdupq_n_u8(0x7f);
    while (end - p >= 16) {
      const uint8x16_t v = vld1q_u8(reinterpret_cast<const uint8_t*>(p));
      const uint8x16_t hits = vorrq_u8(vorrq_u8(vceqq_u8(v, quote), vceqq_u8(v, bslash)),
                                       vorrq_u8(vcltq_u8(v, space), vceqq_u8(v, del)));
      const uint64_t m = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(hits), 4)), 0);
      if (m != 0) return p + (__builtin_ctzll(m) >> 2);
      p += 16;
    }
    return portable_run::find_end(p, end);
  }
};
#endif

}  // namespace jview::simd
