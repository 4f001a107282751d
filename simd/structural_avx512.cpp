// simd/structural_avx512.cpp: the AVX-512 stage-1 kernel: one 64-byte load per block, byte classes straight into
// mask registers (VPCMPB), whitespace and structural characters by one VPSHUFB lookup each, and the inside of
// strings by a carry-less multiply; positions are packed with VPCOMPRESSB. dispatch.cpp picks it when CPUID
// reports AVX512F+BW+VBMI2, PCLMULQDQ, POPCNT, BMI1 and BMI2.
// The block loop is simd/generic/stage1.inl.
#include "simd/kernels.hpp"
#include "simd/structural.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <bit>
#include <cstring>

#define JVIEW_KERNEL_TARGET "avx512f,avx512bw,avx512vbmi2,pclmul,bmi,bmi2,popcnt"
#define JVIEW_KERNEL_FN __attribute__((target(JVIEW_KERNEL_TARGET)))
#define JVIEW_KERNEL_INLINE __attribute__((target(JVIEW_KERNEL_TARGET), always_inline)) inline
#define JVIEW_BLOCK_BITS_CLMUL 1

namespace jview::simd {
namespace {

// The v_* primitives of simd/generic/utf8_lookup.inl (shared with avx512.cpp): its per-vector UTF-8 check runs inside the
// stage-1 block loop, so a non-ASCII block is validated while it is in registers.
#include "simd/generic/avx512_vec.inl"
#include "simd/generic/utf8_lookup.inl"

#include "simd/generic/stage1.inl"

// Fused UTF-8 check of one block (see stage1.inl): `p` holds the block (maybe a padded copy); the 64 bytes before
// it are read from the source at src - 64 unless src is where indexing began (then "before" is ASCII).
JVIEW_KERNEL_INLINE bool utf8_block_ok_avx512(const utf8_consts& c, const unsigned char* p, const char* src,
                                              const char* begin) {
  const vec prev = src == begin ? c.zero : v_load(reinterpret_cast<const unsigned char*>(src) - 64);
  return !v_any(utf8_check_vec(v_load(p), prev, c));
}
// utf8_lookup.inl's whole-buffer validator is not used here.
[[maybe_unused]] constexpr auto k_unused_validator = &utf8_validate;

JVIEW_KERNEL_INLINE __m512i table16(const unsigned char (&t)[16]) {
  return _mm512_maskz_broadcast_i32x4(0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

// Lookup by low nibble: a byte v is in the set when table[v & 15] == v (VPSHUFB gives 0 for v >= 0x80, and 0 is
// never the entry of nibble 0). Entries 0xff match no byte below 0x80.
alignas(16) constexpr unsigned char k_ws_table[16] = {' ', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                      0xff, '\t', '\n', 0xff, 0xff, '\r', 0xff, 0xff};
// Looked up with v | 0x20, which turns '[' ']' into '{' '}' (and the control bytes 0x1a, 0x0c into ':' ','; those
// are errors wherever they are, and stage 2 checks the byte at every token).
alignas(16) constexpr unsigned char k_op_table[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                      0xff, 0xff, ':',  '{',  ',',  '}',  0xff, 0xff};

JVIEW_KERNEL_INLINE block_bits classify_avx512(const unsigned char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i d = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
  block_bits r;
  r.quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
  r.bslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  r.op = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table16(k_op_table), d), d);
  r.ws = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table16(k_ws_table), v), v);
  r.ctrl = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
  r.high = _mm512_movepi8_mask(v);
  r.del = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x7f));
  return r;
}

// GCC 12's headers implement _mm512_castsi512_si128 and _mm512_extracti32x4_epi32 with an undefined pass-through
// operand and then warn about it (-Wmaybe-uninitialized, a false positive): silenced for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

JVIEW_KERNEL_INLINE __m512i widen(__m512i r, __m128i b) {
  return _mm512_add_epi32(_mm512_maskz_cvtepu8_epi32(0xffff, b), r);
}

// Positions of the set bits of `bits` plus rel: VPCOMPRESSB packs the byte indices of the set bits, then they are
// widened to 32 bits 16 at a time. No branch per token (a scalar tzcnt loop mispredicts its exit on most blocks);
// most blocks hold at most 16 tokens, so the further stores sit behind one predictable test, and the last two
// behind a second one (a block of 17-32 tokens, as an array of literals has, stores only the second sixteen).
JVIEW_KERNEL_INLINE std::uint32_t* flatten_avx512(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
  alignas(64) static constexpr unsigned char k_index[64] = {
      0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
      44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  const __m512i packed = _mm512_maskz_compress_epi8(bits, _mm512_load_si512(k_index));
  const __m512i r = _mm512_set1_epi32(static_cast<int>(rel));
  _mm512_storeu_si512(out, widen(r, _mm512_castsi512_si128(packed)));
  const int count = std::popcount(bits);
  if (count > 16) [[unlikely]] {
    _mm512_storeu_si512(out + 16, widen(r, _mm512_extracti32x4_epi32(packed, 1)));
    if (count > 32) [[unlikely]] {
      _mm512_storeu_si512(out + 32, widen(r, _mm512_extracti32x4_epi32(packed, 2)));
      _mm512_storeu_si512(out + 48, widen(r, _mm512_extracti32x4_epi32(packed, 3)));
    }
  }
  return out + count;
}

// Bytes among " \ b f n r t (escapes the parser need not check).
JVIEW_KERNEL_INLINE std::uint64_t simple_escapes_avx512(const unsigned char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i nibble = _mm512_set1_epi8(0x0f);
  const __m512i lo = _mm512_shuffle_epi8(table16(k_simple_escape_lo), _mm512_and_si512(v, nibble));
  const __m512i hi = _mm512_shuffle_epi8(table16(k_simple_escape_hi), _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
  return _mm512_test_epi8_mask(lo, hi);
}

// No quote, backslash, control byte, DEL or non-ASCII byte in the block (signed: below 0x20 takes 0x80 and up).
JVIEW_KERNEL_INLINE bool plain_avx512(const unsigned char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  return (_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')) |
          _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(0x20)) | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x7f))) == 0;
}

struct avx512_stage1 {
  static constexpr bool fused_utf8 = true;
  using utf8_ctx = utf8_consts;
  JVIEW_KERNEL_INLINE static utf8_consts utf8_init() { return utf8_make_consts(); }
  JVIEW_KERNEL_INLINE static bool utf8_block_ok(const utf8_consts& c, const unsigned char* p, const char* src,
                                                const char* begin) {
    return utf8_block_ok_avx512(c, p, src, begin);
  }
  JVIEW_KERNEL_INLINE static block_bits classify(const unsigned char* p) { return classify_avx512(p); }
  JVIEW_KERNEL_INLINE static std::uint64_t simple_escapes(const unsigned char* p) { return simple_escapes_avx512(p); }
  JVIEW_KERNEL_INLINE static bool plain(const unsigned char* p) { return plain_avx512(p); }
  // The usual-block test's bytes (backslash, DEL, non-ASCII) by two compares: 0x7f and up, and '\\'. The three
  // masks or-ed took three compares and their moves out of the mask registers (stage 1 0.92-0.96x its time).
  static constexpr bool k_odd_bytes = true;
  JVIEW_KERNEL_INLINE static std::uint64_t odd_bytes(const unsigned char* p) {
    const __m512i v = _mm512_loadu_si512(p);
    return _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0x7f)) | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  }
  JVIEW_KERNEL_INLINE static std::uint32_t* flatten(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
    return flatten_avx512(bits, rel, out);
  }
};

}  // namespace

JVIEW_KERNEL_FN JVIEW_HOT_ALIGN bool detail::stage1_avx512(const unsigned char* p, const char* src, std::size_t blocks,
                                           std::uint32_t rel, stage1_state& st, stage1_out& out) noexcept {
  return stage1_blocks<avx512_stage1>(p, src, blocks, rel, st, out);
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#undef JVIEW_KERNEL_TARGET
#endif
