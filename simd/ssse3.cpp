// simd/ssse3.cpp: the SSSE3 UTF-8 kernel (16-byte vectors; PSHUFB does the nibble lookups). Compiled with a
// target attribute, not -mssse3, so a default x86-64 build carries it and dispatch.cpp picks it when CPUID allows.
#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <cstring>

#define JVIEW_KERNEL_FN __attribute__((target("ssse3")))
#define JVIEW_KERNEL_INLINE __attribute__((target("ssse3"), always_inline)) inline

namespace jview::simd {
namespace {

using vec = __m128i;
inline constexpr std::size_t k_vec_bytes = 16;

JVIEW_KERNEL_INLINE vec v_load(const unsigned char* p) { return _mm_loadu_si128(reinterpret_cast<const vec*>(p)); }
JVIEW_KERNEL_INLINE vec v_splat(unsigned char c) { return _mm_set1_epi8(static_cast<char>(c)); }
JVIEW_KERNEL_INLINE vec v_table(const unsigned char (&t)[16]) { return v_load(t); }
JVIEW_KERNEL_INLINE vec v_or(vec a, vec b) { return _mm_or_si128(a, b); }
JVIEW_KERNEL_INLINE vec v_and(vec a, vec b) { return _mm_and_si128(a, b); }
JVIEW_KERNEL_INLINE vec v_xor(vec a, vec b) { return _mm_xor_si128(a, b); }
JVIEW_KERNEL_INLINE vec v_subs(vec a, vec b) { return _mm_subs_epu8(a, b); }
// No byte shift on x86: shift 16-bit lanes and mask off the bits that crossed from the neighbour byte.
JVIEW_KERNEL_INLINE vec v_high_nibble(vec v, vec nibble) { return _mm_and_si128(_mm_srli_epi16(v, 4), nibble); }
JVIEW_KERNEL_INLINE vec v_lookup(vec table, vec idx) { return _mm_shuffle_epi8(table, idx); }
// The vector of the bytes N places back: the last N of `prev` then the first 16-N of `cur`.
template <int N>
JVIEW_KERNEL_INLINE vec v_prev(vec cur, vec prev) { return _mm_alignr_epi8(cur, prev, 16 - N); }
JVIEW_KERNEL_INLINE bool v_any(vec v) { return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) != 0xffff; }
JVIEW_KERNEL_INLINE bool v_ascii(vec v) { return _mm_movemask_epi8(v) == 0; }

#include "simd/generic/utf8_lookup.inl"

}  // namespace

std::size_t detail::validate_utf8_ssse3(const char* p, std::size_t len) noexcept { return utf8_validate(p, len); }

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#endif
