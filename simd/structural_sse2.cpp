// simd/structural_sse2.cpp: the SSE2 stage-1 kernel (x86-64 baseline): each 64-byte block is four 16-byte loads,
// classified by byte compares and gathered with PMOVMSKB. The block loop and the position writer (scalar_flatten)
// are simd/generic/stage1.inl.
#include "simd/structural.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <emmintrin.h>

#include <bit>

#define JVIEW_KERNEL_FN
#define JVIEW_KERNEL_INLINE [[gnu::always_inline]] inline
#define JVIEW_BLOCK_BITS_CLMUL 0

namespace jview::simd {
namespace {

#include "simd/generic/stage1.inl"

JVIEW_KERNEL_INLINE std::uint64_t mask16(__m128i v, int k) {
  return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(v))) << (16 * k);
}

struct sse2_stage1 : stage1_runs_utf8, scalar_flatten {
  JVIEW_KERNEL_INLINE static block_bits classify(const unsigned char* p) {
    block_bits r{0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      // '[' and ']' become '{' and '}' with bit 5 set (so do 0x1a -> ':' and 0x0c -> ','; those control bytes are
      // errors wherever they are, and stage 2 checks the byte at every token).
      const __m128i d = _mm_or_si128(v, _mm_set1_epi8(0x20));
      const __m128i op = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(d, _mm_set1_epi8('{')), _mm_cmpeq_epi8(d, _mm_set1_epi8('}'))),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
      const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
      const __m128i ctrl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
      r.quote |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), k);
      r.bslash |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), k);
      r.op |= mask16(op, k);
      r.ws |= mask16(ws, k);
      r.ctrl |= mask16(ctrl, k);
      r.high |= mask16(v, k);
      r.del |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)), k);
    }
    return r;
  }
  JVIEW_KERNEL_INLINE static bool plain(const unsigned char* p) {
    __m128i any = _mm_setzero_si128();
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      // Signed: bytes below 0x20 and from 0x80 up.
      any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                           _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)))));
    }
    return _mm_movemask_epi8(any) == 0;
  }
  JVIEW_KERNEL_INLINE static std::uint64_t simple_escapes(const unsigned char* p) {
    std::uint64_t r = 0;
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      __m128i m = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
      for (const char e : {'\\', 'b', 'f', 'n', 'r', 't'}) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(e)));
      r |= mask16(m, k);
    }
    return r;
  }
};

}  // namespace

JVIEW_HOT_ALIGN bool detail::stage1_sse2(const unsigned char* p, const char* src, std::size_t blocks, std::uint32_t rel,
                         stage1_state& st, stage1_out& out) noexcept {
  return stage1_blocks<sse2_stage1>(p, src, blocks, rel, st, out);
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#endif
