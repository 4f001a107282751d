// simd/whitespace.hpp: skip JSON whitespace (' ', '\n', '\r', '\t'). Header-only so the parser inlines it.
// Tuned for what the parser meets: nothing at all (compact input), one byte (": ", ", "), or a newline and a run of
// indentation. The first two bytes are checked scalar before any vector work; loads never pass `end`.
// Pick the scanner with vector_whitespace() from simd/kernels.hpp (false under --no-simd).
#pragma once
#include <cstdint>

#include "simd/baseline.hpp"

namespace jview::simd {

// One shift and test instead of four compares: bit c of the mask is set for each whitespace byte c < 64.
[[gnu::always_inline]] inline bool is_json_ws(char ch) noexcept {
  const auto c = static_cast<unsigned char>(ch);
  constexpr std::uint64_t k_ws_mask = (1ull << ' ') | (1ull << '\n') | (1ull << '\r') | (1ull << '\t');
  return c <= ' ' && ((k_ws_mask >> c) & 1) != 0;
}

struct portable_ws {
  // First byte in [p, end) that is not JSON whitespace, or end.
  [[gnu::always_inline]] static inline const char* skip(const char* p, const char* end) noexcept {
    while (p < end && is_json_ws(*p)) ++p;
    return p;
  }
};

#if JVIEW_HAVE_SSE2
struct sse2_ws {
  [[gnu::always_inline]] static inline const char* skip(const char* p, const char* end) noexcept {
    if (p == end || !is_json_ws(*p)) [[likely]] return p;  // compact input: no whitespace at all
    if (++p == end || !is_json_ws(*p)) return p;            // a single separating space or newline
    return run(p, end);
  }

 private:
  // A run of indentation: 16 bytes per step. Kept out of line so the two scalar checks above stay small.
  [[gnu::always_inline]] static inline const char* run(const char* p, const char* end) noexcept {
    const __m128i space = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                  tab = _mm_set1_epi8('\t');
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, nl)),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
      const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xffffu;
      if (other != 0) return p + __builtin_ctz(other);
      p += 16;
    }
    return portable_ws::skip(p, end);
  }
};
#endif

#if JVIEW_HAVE_NEON
struct neon_ws {
  [[gnu::always_inline]] static inline const char* skip(const char* p, const char* end) noexcept {
    if (p == end || !is_json_ws(*p)) [[likely]] return p;  // compact input: no whitespace at all
    if (++p == end || !is_json_ws(*p)) return p;            // a single separating space or newline
    return run(p, end);
  }

 private:
  [[gnu::noinline]] static const char* run(const char* p, const char* end) noexcept {
    const uint8x16_t space = vdupq_n_u8(' '), nl = vdupq_n_u8('\n'), cr = vdupq_n_u8('\r'), tab = vdupq_n_u8('\t');
    while (end - p >= 16) {
      const uint8x16_t v = vld1q_u8(reinterpret_cast<const uint8_t*>(p));
      const uint8x16_t ws = vorrq_u8(vorrq_u8(vceqq_u8(v, space), vceqq_u8(v, nl)),
                                     vorrq_u8(vceqq_u8(v, cr), vceqq_u8(v, tab)));
      // Narrow the 0x00/0xFF bytes to one nibble each: bit 4*i of `other` is set when byte i is not whitespace.
      const uint64_t other =
          ~vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(ws), 4)), 0);
      if (other != 0) return p + (__builtin_ctzll(other) >> 2);
      p += 16;
    }
    return portable_ws::skip(p, end);
  }
};
#endif

}  // namespace jview::simd
