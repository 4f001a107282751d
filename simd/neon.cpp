// simd/neon.cpp: the NEON UTF-8 kernel for AArch64 (16-byte vectors; TBL does the nibble lookups). NEON is part of
// the AArch64 baseline, so no target attribute and no run-time check are needed.
#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__aarch64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <arm_neon.h>

#include <cstring>

#define JVIEW_KERNEL_FN
#define JVIEW_KERNEL_INLINE __attribute__((always_inline)) inline

namespace jview::simd {
namespace {

using vec = uint8x16_t;
inline constexpr std::size_t k_vec_bytes = 16;

JVIEW_KERNEL_INLINE vec v_load(const unsigned char* p) { return vld1q_u8(p); }
JVIEW_KERNEL_INLINE vec v_splat(unsigned char c) { return vdupq_n_u8(c); }
JVIEW_KERNEL_INLINE vec v_table(const unsigned char (&t)[16]) { return vld1q_u8(t); }
JVIEW_KERNEL_INLINE vec v_or(vec a, vec b) { return vorrq_u8(a, b); }
JVIEW_KERNEL_INLINE vec v_and(vec a, vec b) { return vandq_u8(a, b); }
JVIEW_KERNEL_INLINE vec v_xor(vec a, vec b) { return veorq_u8(a, b); }
JVIEW_KERNEL_INLINE vec v_subs(vec a, vec b) { return vqsubq_u8(a, b); }
// A true byte shift: no mask needed.
JVIEW_KERNEL_INLINE vec v_high_nibble(vec v, vec) { return vshrq_n_u8(v, 4); }
JVIEW_KERNEL_INLINE vec v_lookup(vec table, vec idx) { return vqtbl1q_u8(table, idx); }
// The vector of the bytes N places back: the last N of `prev` then the first 16-N of `cur`.
template <int N>
JVIEW_KERNEL_INLINE vec v_prev(vec cur, vec prev) { return vextq_u8(prev, cur, 16 - N); }
JVIEW_KERNEL_INLINE bool v_any(vec v) { return vmaxvq_u8(v) != 0; }
JVIEW_KERNEL_INLINE bool v_ascii(vec v) { return vmaxvq_u8(v) < 0x80; }

#include "simd/generic/utf8_lookup.inl"

}  // namespace

std::size_t detail::validate_utf8_neon(const char* p, std::size_t len) noexcept { return utf8_validate(p, len); }

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#endif
