// simd/structural_neon.cpp: the NEON stage-1 kernel for AArch64: four 16-byte loads per block, byte classes by
// compares (whitespace by one TBL lookup), each class gathered into a 64-bit mask by weighting the lanes with their
// bit and three pairwise adds (NEON has no PMOVMSKB). Its classes are exact, like the portable kernel's (0x0c and
// 0x1a are scalar bytes), so its token index equals the portable one byte for byte (tests/unit/simd/
// structural_diff_test.cpp, run under qemu by tests/arm/run.sh). The inside of strings by shift-XOR prefix sums:
// the carry-less multiply (PMULL) is an optional AArch64 extension, and this file uses the baseline only.
// Its speed is unmeasured: there is no ARM machine here (see docs/PERFORMANCE.md). The block loop and the
// position writer (scalar_flatten) are simd/generic/stage1.inl.
#include "simd/structural.hpp"

#if defined(__aarch64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <arm_neon.h>

#include <bit>

#define JVIEW_KERNEL_FN
#define JVIEW_KERNEL_INLINE __attribute__((always_inline)) inline
#define JVIEW_BLOCK_BITS_CLMUL 0

namespace jview::simd {
namespace {

#include "simd/generic/stage1.inl"

// Whitespace by low nibble: a byte v is whitespace when table[v & 15] == v.
alignas(16) constexpr unsigned char k_ws_table[16] = {' ', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                      0xff, '\t', '\n', 0xff, 0xff, '\r', 0xff, 0xff};
// Lane i's bit within its byte of the mask (lanes 0-7 and 8-15 give the two bytes of 16 bits).
alignas(16) constexpr unsigned char k_lane_bits[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};

// The 64-bit mask of four compare results (all-ones or zero lanes): bit 16*k + i = lane i of m[k].
JVIEW_KERNEL_INLINE std::uint64_t to_mask(uint8x16_t m0, uint8x16_t m1, uint8x16_t m2, uint8x16_t m3) {
  const uint8x16_t w = vld1q_u8(k_lane_bits);
  // Pairwise adds of weighted lanes: each step halves the lanes, and the weights of a group of 8 never overlap.
  const uint8x16_t s01 = vpaddq_u8(vandq_u8(m0, w), vandq_u8(m1, w));
  const uint8x16_t s23 = vpaddq_u8(vandq_u8(m2, w), vandq_u8(m3, w));
  const uint8x16_t s = vpaddq_u8(s01, s23);
  return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(s, s)), 0);
}

struct neon_stage1 : stage1_runs_utf8, scalar_flatten {
  JVIEW_KERNEL_INLINE static block_bits classify(const unsigned char* p) {
    const uint8x16_t ws_table = vld1q_u8(k_ws_table);
    uint8x16_t v[4], quote[4], bslash[4], op[4], ws[4], ctrl[4], high[4], del[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = vld1q_u8(p + 16 * k);
      // '[' and ']' become '{' and '}' with bit 5 set (':' and ',' are compared unchanged, so no other byte joins).
      const uint8x16_t d = vorrq_u8(v[k], vdupq_n_u8(0x20));
      quote[k] = vceqq_u8(v[k], vdupq_n_u8('"'));
      bslash[k] = vceqq_u8(v[k], vdupq_n_u8('\\'));
      op[k] = vorrq_u8(vorrq_u8(vceqq_u8(d, vdupq_n_u8('{')), vceqq_u8(d, vdupq_n_u8('}'))),
                       vorrq_u8(vceqq_u8(v[k], vdupq_n_u8(':')), vceqq_u8(v[k], vdupq_n_u8(','))));
      ws[k] = vceqq_u8(vqtbl1q_u8(ws_table, vandq_u8(v[k], vdupq_n_u8(0x0f))), v[k]);
      ctrl[k] = vcltq_u8(v[k], vdupq_n_u8(0x20));
      high[k] = vtstq_u8(v[k], vdupq_n_u8(0x80));
      del[k] = vceqq_u8(v[k], vdupq_n_u8(0x7f));
    }
    block_bits r;
    r.quote = to_mask(quote[0], quote[1], quote[2], quote[3]);
    r.bslash = to_mask(bslash[0], bslash[1], bslash[2], bslash[3]);
    r.op = to_mask(op[0], op[1], op[2], op[3]);
    r.ws = to_mask(ws[0], ws[1], ws[2], ws[3]);
    // Control, non-ASCII and DEL bytes are rare: one test of the whole block skips their three masks.
    const uint8x16_t rare = vorrq_u8(vorrq_u8(vorrq_u8(ctrl[0], ctrl[1]), vorrq_u8(ctrl[2], ctrl[3])),
                                     vorrq_u8(vorrq_u8(vorrq_u8(high[0], high[1]), vorrq_u8(high[2], high[3])),
                                              vorrq_u8(vorrq_u8(del[0], del[1]), vorrq_u8(del[2], del[3]))));
    if (vmaxvq_u8(rare) == 0) [[likely]] {
      r.ctrl = r.high = r.del = 0;
    } else {
      r.ctrl = to_mask(ctrl[0], ctrl[1], ctrl[2], ctrl[3]);
      r.high = to_mask(high[0], high[1], high[2], high[3]);
      r.del = to_mask(del[0], del[1], del[2], del[3]);
    }
    return r;
  }
  JVIEW_KERNEL_INLINE static bool plain(const unsigned char* p) {
    uint8x16_t any = vdupq_n_u8(0);
    for (int k = 0; k < 4; ++k) {
      const uint8x16_t v = vld1q_u8(p + 16 * k);
      // Unsigned, after subtracting 0x20: below 0x20 wraps to the top; so do DEL (0x5f) and non-ASCII (from 0x60).
      any = vorrq_u8(any, vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('"')), vceqq_u8(v, vdupq_n_u8('\\'))),
                                   vcgeq_u8(vsubq_u8(v, vdupq_n_u8(0x20)), vdupq_n_u8(0x5f))));
    }
    return vmaxvq_u8(any) == 0;
  }
  JVIEW_KERNEL_INLINE static std::uint64_t simple_escapes(const unsigned char* p) {
    uint8x16_t m[4];
    for (int k = 0; k < 4; ++k) {
      const uint8x16_t v = vld1q_u8(p + 16 * k);
      m[k] = vceqq_u8(v, vdupq_n_u8('"'));
      for (const unsigned char e : {'\\', 'b', 'f', 'n', 'r', 't'}) m[k] = vorrq_u8(m[k], vceqq_u8(v, vdupq_n_u8(e)));
    }
    return to_mask(m[0], m[1], m[2], m[3]);
  }
};

}  // namespace

JVIEW_HOT_ALIGN bool detail::stage1_neon(const unsigned char* p, const char* src, std::size_t blocks, std::uint32_t rel,
                         stage1_state& st, stage1_out& out) noexcept {
  return stage1_blocks<neon_stage1>(p, src, blocks, rel, st, out);
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#endif
