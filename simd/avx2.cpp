// simd/avx2.cpp: the AVX2 UTF-8 kernel (32-byte vectors). Compiled with a target attribute, not -mavx2; dispatch.cpp
// picks it only when CPUID reports AVX2 and XGETBV shows the OS saves YMM state.
#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <cstring>

#define JVIEW_KERNEL_FN __attribute__((target("avx2")))
#define JVIEW_KERNEL_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace jview::simd {
namespace {

using vec = __m256i;
inline constexpr std::size_t k_vec_bytes = 32;

JVIEW_KERNEL_INLINE vec v_load(const unsigned char* p) { return _mm256_loadu_si256(reinterpret_cast<const vec*>(p)); }
JVIEW_KERNEL_INLINE vec v_splat(unsigned char c) { return _mm256_set1_epi8(static_cast<char>(c)); }
// VPSHUFB looks up within each 128-bit lane, so the 16-entry table goes in both lanes.
JVIEW_KERNEL_INLINE vec v_table(const unsigned char (&t)[16]) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}
JVIEW_KERNEL_INLINE vec v_or(vec a, vec b) { return _mm256_or_si256(a, b); }
JVIEW_KERNEL_INLINE vec v_and(vec a, vec b) { return _mm256_and_si256(a, b); }
JVIEW_KERNEL_INLINE vec v_xor(vec a, vec b) { return _mm256_xor_si256(a, b); }
JVIEW_KERNEL_INLINE vec v_subs(vec a, vec b) { return _mm256_subs_epu8(a, b); }
// No byte shift on x86: shift 16-bit lanes and mask off the bits that crossed from the neighbour byte.
JVIEW_KERNEL_INLINE vec v_high_nibble(vec v, vec nibble) { return _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble); }
JVIEW_KERNEL_INLINE vec v_lookup(vec table, vec idx) { return _mm256_shuffle_epi8(table, idx); }
// VPALIGNR also works per 128-bit lane: first build [prev.high, cur.low], then align each lane against it.
template <int N>
JVIEW_KERNEL_INLINE vec v_prev(vec cur, vec prev) {
  return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 16 - N);
}
JVIEW_KERNEL_INLINE bool v_any(vec v) { return !_mm256_testz_si256(v, v); }
JVIEW_KERNEL_INLINE bool v_ascii(vec v) { return _mm256_movemask_epi8(v) == 0; }

#include "simd/generic/utf8_lookup.inl"

}  // namespace

std::size_t detail::validate_utf8_avx2(const char* p, std::size_t len) noexcept { return utf8_validate(p, len); }

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#endif
