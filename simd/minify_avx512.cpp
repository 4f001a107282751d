// simd/minify_avx512.cpp: the AVX-512 minify kernel. One 64-byte load per block, quotes, backslashes and
// whitespace (bytes <= 0x20, the only such bytes valid JSON has outside strings) straight into mask registers, the
// inside of strings by a carry-less multiply of the unescaped quote bits, and the kept bytes packed by one VPCOMPRESSB into a register stored
// whole. dispatch.cpp picks it when CPUID reports AVX512F+BW+VBMI2 and PCLMULQDQ (as for stage 1).
#include "simd/minify.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <bit>

#define JVIEW_KERNEL_TARGET "avx512f,avx512bw,avx512vbmi2,pclmul,popcnt"
#define JVIEW_KERNEL_FN __attribute__((target(JVIEW_KERNEL_TARGET)))
#define JVIEW_KERNEL_INLINE __attribute__((target(JVIEW_KERNEL_TARGET), always_inline)) inline
#define JVIEW_BLOCK_BITS_CLMUL 1

namespace jview::simd {
namespace {

#include "simd/generic/block_bits.inl"

}  // namespace

JVIEW_KERNEL_FN char* detail::minify_avx512(const unsigned char* p, std::size_t blocks, char* out,
                                            minify_state& st) noexcept {
  std::uint64_t carry = st.in_string, esc_carry = st.escaped;
  const __m512i quote = _mm512_set1_epi8('"');
  const __m512i bslash = _mm512_set1_epi8('\\');
  const __m512i space = _mm512_set1_epi8(' ');
  for (; blocks != 0; --blocks, p += 64) {
    const __m512i v = _mm512_loadu_si512(p);
    const std::uint64_t bs = _mm512_cmpeq_epi8_mask(v, bslash);
    const std::uint64_t q = _mm512_cmpeq_epi8_mask(v, quote) & ~escaped_bytes(bs, esc_carry);
    const std::uint64_t ws = _mm512_cmple_epu8_mask(v, space);
    const std::uint64_t inside = prefix_xor(q) ^ carry;
    carry = static_cast<std::uint64_t>(static_cast<std::int64_t>(inside) >> 63);
    const std::uint64_t keep = ~(ws & ~inside);
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, v));
    out += std::popcount(keep);
  }
  st.in_string = carry;
  st.escaped = esc_carry;
  return out;
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#undef JVIEW_KERNEL_TARGET
#endif
