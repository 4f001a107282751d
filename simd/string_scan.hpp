// simd/string_scan.hpp: find the end of a JSON string run. Header-only so the parser inlines it.
// A "stop" byte is '"', '\\', a control byte (< 0x20), DEL (0x7f, which jq writes escaped) or a non-ASCII byte
// (>= 0x80, to be UTF-8 validated).
// Loads never pass `end`: the last < 16 bytes are scanned a byte at a time.
#pragma once
#include <cstdint>
#include <cstring>

#include "simd/baseline.hpp"

namespace jview::simd {

// Table: 1 for bytes that stop a string run.
struct string_stop_table {
  bool stop[256];
  constexpr string_stop_table() : stop{} {
    for (int c = 0; c < 256; ++c) stop[c] = c < 0x20 || c == '"' || c == '\\' || c == 0x7f || c >= 0x80;
  }
};
inline constexpr string_stop_table k_string_stop{};

struct portable_scanner {
  [[gnu::always_inline]] static inline const char* scan(const char* p, const char* end) noexcept {
    while (p < end && !k_string_stop.stop[static_cast<unsigned char>(*p)]) ++p;
    return p;
  }
};

#if JVIEW_HAVE_SSE2
struct sse2_scanner {
  // 16 bytes per step from the first byte: most keys end within the first block.
  [[gnu::always_inline]] static inline const char* scan(const char* p, const char* end) noexcept {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i bslash = _mm_set1_epi8('\\');
    const __m128i ctrl_bound = _mm_set1_epi8(0x1f);
    const __m128i del = _mm_set1_epi8(0x7f);
    while (end - p >= 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      // Bytes < 0x20 or >= 0x80: unsigned min(v, 0x1f) == v catches < 0x20; the sign bit catches >= 0x80.
      __m128i is_ctrl = _mm_cmpeq_epi8(_mm_min_epu8(v, ctrl_bound), v);
      __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                  _mm_or_si128(is_ctrl, _mm_cmpeq_epi8(v, del)));
      unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits)) | static_cast<unsigned>(_mm_movemask_epi8(v));
      if (mask != 0) return p + __builtin_ctz(mask);
      p += 16;
    }
    return portable_scanner::scan(p, end);
  }
};
#endif

#if JVIEW_HAVE_NEON
struct neon_scanner {
  static inline const char* scan(const char* p, const char* end) noexcept {
    const uint8x16_t quote = vdupq_n_u8('"'), bslash = vdupq_n_u8('\\'), space = vdupq_n_u8(0x20),
                     del = vdupq_n_u8(0x7f);
    while (end - p >= 16) {
      uint8x16_t v = vld1q_u8(reinterpret_cast<const uint8_t*>(p));
      uint8x16_t hits = vorrq_u8(vorrq_u8(vceqq_u8(v, quote), vceqq_u8(v, bslash)),
                                 vorrq_u8(vcltq_u8(v, space), vcgeq_u8(v, del)));
      // Narrow to a 64-bit mask of nibbles.
      uint64_t m = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(hits), 4)), 0);
      if (m != 0) return p + (__builtin_ctzll(m) >> 2);
      p += 16;
    }
    return portable_scanner::scan(p, end);
  }
};
#endif

}  // namespace jview::simd
