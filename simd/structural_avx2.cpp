// simd/structural_avx2.cpp: the AVX2 stage-1 kernel, for x86-64 CPUs without AVX-512 VBMI2: two 32-byte loads per
// block, whitespace and structural characters by one VPSHUFB lookup each, the inside of strings by a carry-less
// multiply, positions eight bits at a time through a table (no byte compress before AVX-512 VBMI2), UTF-8 by runs
// of non-ASCII blocks. The control-byte mask is made for every block (the newlines of pretty-printed input are control
// bytes); DEL and non-ASCII bytes are found by one test each, and only a block holding DEL gets its mask. Stage 1
// alone (EPYC, best of 31, µs, before -> after the tests and the code-generation fixes below): twitter 108 -> 86,
// citm_catalog 270 -> 227, canada 361 -> 288, gsoc-2018 543 -> 446 (AVX-512: 45, 102, 135, 307). On the Xeon of
// 2026-12-06, the control mask made for every block instead of under a test that pretty-printed input passed on
// most blocks: stage 1 on citm_catalog 1.64x -> 1.53x simdjson's haswell stage 1, twitter 1.48x -> 1.40x.
// dispatch.cpp picks it when CPUID reports AVX2, PCLMULQDQ, POPCNT, BMI1 and BMI2 (and the OS saves YMM state).
// The block loop is simd/generic/stage1.inl.
#include "simd/structural.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <bit>

#define JVIEW_KERNEL_TARGET "avx2,pclmul,bmi,bmi2,popcnt"
#define JVIEW_KERNEL_FN __attribute__((target(JVIEW_KERNEL_TARGET)))
#define JVIEW_KERNEL_INLINE __attribute__((target(JVIEW_KERNEL_TARGET), always_inline)) inline
#define JVIEW_BLOCK_BITS_CLMUL 1

namespace jview::simd {
namespace {

#include "simd/generic/stage1.inl"

// Lookup by low nibble, as in structural_avx512.cpp: a byte v is in the set when table[v & 15] == v.
alignas(16) constexpr unsigned char k_ws_table[16] = {' ', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                      0xff, '\t', '\n', 0xff, 0xff, '\r', 0xff, 0xff};
// Looked up with v | 0x20 ('[' ']' become '{' '}'; 0x1a and 0x0c become ':' ',': errors wherever they are, and
// stage 2 checks the byte at every token).
alignas(16) constexpr unsigned char k_op_table[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                      0xff, 0xff, ':',  '{',  ',',  '}',  0xff, 0xff};

// The 64-bit mask of two compare results (bytes 0-31, 32-63).
JVIEW_KERNEL_INLINE std::uint64_t join(__m256i lo, __m256i hi) {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))) << 32;
}
JVIEW_KERNEL_INLINE __m256i ctrl_v(__m256i x) { return _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1f)), x); }
JVIEW_KERNEL_INLINE __m256i del_v(__m256i x) { return _mm256_cmpeq_epi8(x, _mm256_set1_epi8(0x7f)); }

// Written out for both halves, with no loop or array over them: GCC 12 kept a two-trip loop, stored the halves to
// the stack and rebuilt the constants in it (about a fifth of the kernel's time).
JVIEW_KERNEL_INLINE block_bits classify_avx2(const unsigned char* p) {
  const __m256i ws_table = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k_ws_table)));
  const __m256i op_table = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k_op_table)));
  const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\'), bit5 = _mm256_set1_epi8(0x20);
  const __m256i d0 = _mm256_or_si256(v0, bit5), d1 = _mm256_or_si256(v1, bit5);
  block_bits r;
  r.quote = join(_mm256_cmpeq_epi8(v0, quote), _mm256_cmpeq_epi8(v1, quote));
  r.bslash = join(_mm256_cmpeq_epi8(v0, bslash), _mm256_cmpeq_epi8(v1, bslash));
  r.op = join(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(op_table, d0), d0),
              _mm256_cmpeq_epi8(_mm256_shuffle_epi8(op_table, d1), d1));
  r.ws = join(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(ws_table, v0), v0),
              _mm256_cmpeq_epi8(_mm256_shuffle_epi8(ws_table, v1), v1));
  // Control bytes include the newlines and tabs of pretty-printed input, so their mask is made for every block.
  // DEL and non-ASCII bytes are rare: one test each per block instead of four masks. stage1.inl reads `high` only as
  // "any non-ASCII byte".
  r.ctrl = join(ctrl_v(v0), ctrl_v(v1));
  r.high = _mm256_testz_si256(_mm256_or_si256(v0, v1), _mm256_set1_epi8(static_cast<char>(0x80))) ? 0 : 1;
  const __m256i del = _mm256_or_si256(del_v(v0), del_v(v1));
  r.del = _mm256_testz_si256(del, del) ? 0 : join(del_v(v0), del_v(v1));
  return r;
}

// Bit positions of every byte value: entry m lists the set bits of m (lowest first), padded with zeros.
struct bit_position_table {
  alignas(8) unsigned char pos[256][8];
  constexpr bit_position_table() : pos{} {
    for (int m = 0; m < 256; ++m) {
      int n = 0;
      for (int b = 0; b < 8; ++b)
        if ((m >> b) & 1) pos[m][n++] = static_cast<unsigned char>(b);
    }
  }
};
inline constexpr bit_position_table k_bit_positions{};

// Appends rel + the position of every set bit of `bits`, lowest first, eight bits at a time through the table
// (about 55 instructions a block, however few its tokens). Writes up to 8 entries past the count.
JVIEW_KERNEL_INLINE std::uint32_t* flatten_table(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
  __m256i base = _mm256_set1_epi32(static_cast<int>(rel));
  const __m256i eight = _mm256_set1_epi32(8);
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const auto m = static_cast<unsigned>((bits >> (8 * k)) & 0xff);
    const __m128i idx = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(k_bit_positions.pos[m]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_add_epi32(_mm256_cvtepu8_epi32(idx), base));
    out += std::popcount(m);
    base = _mm256_add_epi32(base, eight);
    // Keeps base a running sum: GCC 12 otherwise rebuilds rel + 8k from immediates at every step (3 more
    // instructions each).
    __asm__("" : "+x"(base));
  }
  return out;
}
// The same, by the block's count: up to 8 tokens (most blocks of most inputs) take eight unconditional
// count-trailing-zeros stores (flatten_eight, stage1.inl), a denser block the table.
// (A tzcnt loop with a test per token mispredicted its exit: 475 us instead of about 200 on canada.json. The table
// for every block: AVX2 stage 1 on citm_catalog.json 1.23x simdjson's haswell stage 1, 1.15x with the 8-token case
// apart; RESULTS.md, "Issue 24, eighth round".)
JVIEW_KERNEL_INLINE std::uint32_t* flatten_avx2(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
  const int count = std::popcount(bits);
  if (count == 0) return out;  // (inside long non-ASCII strings: without this test poet.json's stage 1 was 1.09x)
  if (count <= 8) {
    flatten_eight(bits, rel, out);
    return out + count;
  }
  return flatten_table(bits, rel, out);
}

// Bytes among " \ b f n r t (escapes the parser need not check).
JVIEW_KERNEL_INLINE __m256i simple_escapes_v(__m256i v) {
  const __m256i lo = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k_simple_escape_lo)));
  const __m256i hi = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k_simple_escape_hi)));
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i bits = _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
                                        _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
  return _mm256_cmpeq_epi8(bits, _mm256_setzero_si256());  // (the bytes that are not)
}
JVIEW_KERNEL_INLINE std::uint64_t simple_escapes_avx2(const unsigned char* p) {
  const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  return ~join(simple_escapes_v(v0), simple_escapes_v(v1));
}

// Quotes, backslashes, control bytes, DEL and non-ASCII bytes (signed: 0x20 > v below 0x20 and from 0x80 up).
JVIEW_KERNEL_INLINE __m256i not_plain_v(__m256i v) {
  return _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
                         _mm256_or_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v), _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7f))));
}
// None of those in the block.
JVIEW_KERNEL_INLINE bool plain_avx2(const unsigned char* p) {
  const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i any = _mm256_or_si256(not_plain_v(v0), not_plain_v(v1));
  return _mm256_testz_si256(any, any) != 0;
}

// UTF-8 by runs of non-ASCII blocks (stage1.inl), not per block (a fused per-block check as in
// structural_avx512.cpp measured no faster here, twitter.json included).
struct avx2_stage1 : stage1_runs_utf8 {
  JVIEW_KERNEL_INLINE static block_bits classify(const unsigned char* p) { return classify_avx2(p); }
  JVIEW_KERNEL_INLINE static std::uint64_t simple_escapes(const unsigned char* p) { return simple_escapes_avx2(p); }
  JVIEW_KERNEL_INLINE static bool plain(const unsigned char* p) { return plain_avx2(p); }
  JVIEW_KERNEL_INLINE static std::uint32_t* flatten(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
    return flatten_avx2(bits, rel, out);
  }
};

}  // namespace

JVIEW_KERNEL_FN JVIEW_HOT_ALIGN bool detail::stage1_avx2(const unsigned char* p, const char* src, std::size_t blocks,
                                         std::uint32_t rel, stage1_state& st, stage1_out& out) noexcept {
  return stage1_blocks<avx2_stage1>(p, src, blocks, rel, st, out);
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#undef JVIEW_KERNEL_TARGET
#endif
