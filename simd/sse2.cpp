// simd/sse2.cpp: the SSE2 UTF-8 kernel, for x86-64 CPUs without SSSE3 (SSE2 is the x86-64 baseline). SSE2 has no
// byte shuffle for the lookup method, so only ASCII runs are vectorised (64 bytes per step, 16 near the end of a
// run); multi-byte sequences take the same scalar step as the portable validator.
#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <emmintrin.h>

namespace jview::simd {

std::size_t detail::validate_utf8_sse2(const char* s, std::size_t len) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  std::size_t i = 0;
  while (i < len) {
    while (len - i >= 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 48));
      if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) != 0) break;
      i += 64;
    }
    while (len - i >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(v));
      if (m != 0) {
        i += static_cast<unsigned>(__builtin_ctz(m));
        break;
      }
      i += 16;
    }
    // Scalar from here: the first non-ASCII byte, or the last < 16 bytes.
    while (i < len && p[i] < 0x80) ++i;
    if (i >= len) break;
    // Non-ASCII text tends to come in runs: stay scalar while it does.
    do {
      const std::size_t n = detail::utf8_sequence_length(p + i, len - i);
      if (n == 0) return i;
      i += n;
    } while (i < len && p[i] >= 0x80);
  }
  return len;
}

}  // namespace jview::simd
#endif
