// simd/boundary_scan.hpp: the searches of the stream reader's value-boundary scan, which runs over every byte that
// arrives through a pipe before the parser sees it: inside a container, the next quote or bracket; inside a string,
// the next quote or backslash. Header-only so the reader inlines them; loads never pass `end`.
#pragma once
#include <cstdint>

#include "simd/baseline.hpp"

namespace jview::simd {

struct portable_boundary {
  static inline const char* quote_or_bracket(const char* p, const char* end) noexcept {
    while (p < end && *p != '"' && *p != '[' && *p != ']' && *p != '{' && *p != '}') ++p;
    return p;
  }
  static inline const char* quote_or_backslash(const char* p, const char* end) noexcept {
    while (p < end && *p != '"' && *p != '\\') ++p;
    return p;
  }
};

#if JVIEW_HAVE_SSE2
struct sse2_boundary {
  static inline const char* quote_or_bracket(const char* p, const char* end) noexcept {
    const __m128i quote = _mm_set1_epi8('"'), open_sq = _mm_set1_epi8('['), close_sq = _mm_set1_epi8(']'),
                  open_cu = _mm_set1_epi8('{'), close_cu = _mm_set1_epi8('}');
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i hits = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open_sq)),
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, close_sq), _mm_cmpeq_epi8(v, open_cu)),
                       _mm_cmpeq_epi8(v, close_cu)));
      const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
      if (mask != 0) return p + __builtin_ctz(mask);
      p += 16;
    }
    return portable_boundary::quote_or_bracket(p, end);
  }
  static inline const char* quote_or_backslash(const char* p, const char* end) noexcept {
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const unsigned mask = static_cast<unsigned>(
          _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash))));
      if (mask != 0) return p + __builtin_ctz(mask);
      p += 16;
    }
    return portable_boundary::quote_or_backslash(p, end);
  }
};
#endif

}  // namespace jview::simd
