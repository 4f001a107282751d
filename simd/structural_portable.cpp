// simd/structural_portable.cpp: the portable stage-1 kernel, the reference the vector stage-1 kernels are tested
// against (byte for byte the same token index): each 64-byte block is classified a byte at a time through a
// 256-entry class table, and the block loop is simd/generic/stage1.inl with shift-XOR prefix sums. It is never
// chosen for parsing (below a vector unit the one-pass parser is faster); it exists for the differential tests.
// Its classes are exact: 0x0c and 0x1a are scalar bytes here (the x86 AVX2/AVX-512 kernels count them as
// structural, see structural_avx2.cpp; stage 2 rejects them either way).
#include <bit>

#include "simd/structural.hpp"

#define JVIEW_KERNEL_FN
#define JVIEW_KERNEL_INLINE [[gnu::always_inline]] inline
#define JVIEW_BLOCK_BITS_CLMUL 0

namespace jview::simd {
namespace {

#include "simd/generic/stage1.inl"

// Class bits of a byte.
enum : unsigned char {
  k_c_quote = 1,
  k_c_bslash = 2,
  k_c_op = 4,
  k_c_ws = 8,
  k_c_ctrl = 16,
  k_c_high = 32,
  k_c_del = 64,
  k_c_simple_escape = 128,  // " \ b f n r t: escapes the parser need not check
};

struct class_table {
  unsigned char c[256];
  constexpr class_table() : c{} {
    for (int v = 0; v < 256; ++v) {
      unsigned char k = 0;
      if (v == '"') k |= k_c_quote;
      if (v == '\\') k |= k_c_bslash;
      if (v == '{' || v == '}' || v == '[' || v == ']' || v == ':' || v == ',') k |= k_c_op;
      if (v == ' ' || v == '\t' || v == '\n' || v == '\r') k |= k_c_ws;
      if (v < 0x20) k |= k_c_ctrl;
      if (v >= 0x80) k |= k_c_high;
      if (v == 0x7f) k |= k_c_del;
      if (v == '"' || v == '\\' || v == 'b' || v == 'f' || v == 'n' || v == 'r' || v == 't') k |= k_c_simple_escape;
      c[v] = k;
    }
  }
};
inline constexpr class_table k_classes{};

struct portable_stage1 : stage1_runs_utf8, scalar_flatten {
  JVIEW_KERNEL_INLINE static block_bits classify(const unsigned char* p) {
    block_bits r{0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 64; ++i) {
      const unsigned k = k_classes.c[p[i]] & ~k_c_simple_escape;
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (k == 0) continue;
      if (k & k_c_quote) r.quote |= bit;
      if (k & k_c_bslash) r.bslash |= bit;
      if (k & k_c_op) r.op |= bit;
      if (k & k_c_ws) r.ws |= bit;
      if (k & k_c_ctrl) r.ctrl |= bit;
      if (k & k_c_high) r.high |= bit;
      if (k & k_c_del) r.del |= bit;
    }
    return r;
  }
  JVIEW_KERNEL_INLINE static bool plain(const unsigned char* p) {
    unsigned any = 0;
    for (int i = 0; i < 64; ++i) any |= k_classes.c[p[i]];
    return (any & (k_c_quote | k_c_bslash | k_c_ctrl | k_c_high | k_c_del)) == 0;
  }
  JVIEW_KERNEL_INLINE static std::uint64_t simple_escapes(const unsigned char* p) {
    std::uint64_t r = 0;
    for (int i = 0; i < 64; ++i)
      if (k_classes.c[p[i]] & k_c_simple_escape) r |= std::uint64_t{1} << i;
    return r;
  }
};

}  // namespace

JVIEW_HOT_ALIGN bool detail::stage1_portable(const unsigned char* p, const char* src, std::size_t blocks, std::uint32_t rel,
                             stage1_state& st, stage1_out& out) noexcept {
  return stage1_blocks<portable_stage1>(p, src, blocks, rel, st, out);
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
