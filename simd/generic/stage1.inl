// simd/generic/stage1.inl: the block loop of stage 1 (see simd/structural.hpp), written once and included by each
// vector TU (structural_sse2.cpp, structural_avx512.cpp) inside an anonymous namespace, after it has defined
// JVIEW_KERNEL_INLINE / JVIEW_KERNEL_FN, `block_bits classify(const unsigned char*)` (raw byte classes of one
// 64-byte block, bit i = byte i), JVIEW_BLOCK_BITS_CLMUL (see block_bits.inl) and
// `flatten(bits, rel, out)` (appends rel + the index of each set bit, lowest first; may write 64 entries past them).
// Everything after classify is scalar 64-bit arithmetic on the bitmaps.

#include "simd/generic/block_bits.inl"

JVIEW_KERNEL_INLINE bool stage1_blocks(const unsigned char* p, const char* src, std::size_t blocks, std::uint32_t rel,
                                       stage1_state& st, stage1_out& out) noexcept {
  std::uint64_t esc_carry = st.escaped, in_string = st.in_string, scalar_carry = st.scalar, pending = st.special;
  const char* utf8_from = st.utf8_from;
  std::uint64_t prev_high = st.prev_high;
  std::uint32_t* pos = out.pos;
  std::uint32_t* special_out = out.special;
  bool ok = true;
  for (std::size_t b = 0; b < blocks; ++b, p += 64, src += 64, rel += 64) {
    const block_bits c = classify(p);
    std::uint64_t quote = c.quote;
    if ((c.bslash | esc_carry) != 0) [[unlikely]]
      quote &= ~escaped_bytes(c.bslash, esc_carry);
    // in_str: from each opening quote (included) to its closing quote (excluded).
    const std::uint64_t in_str = prefix_xor(quote) ^ in_string;
    in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_str) >> 63);
    const std::uint64_t strings = in_str | quote;
    const std::uint64_t op = c.op & ~strings;
    const std::uint64_t scalar = ~(c.op | c.ws | strings);
    const std::uint64_t scalar_start = scalar & ~((scalar << 1) | scalar_carry);
    scalar_carry = scalar >> 63;
    pos = flatten(op | quote | scalar_start, rel, pos);
    // Strings holding a backslash or DEL: the position of their closing quote.
    const std::uint64_t special = (c.bslash | c.del) & in_str;
    if ((special | pending) != 0) [[unlikely]] {
      std::uint64_t closes = quote & ~in_str;
      std::uint64_t sp = special;
      while (closes != 0) {
        const std::uint64_t below = (closes & (0 - closes)) - 1;
        if (pending != 0 || (sp & below) != 0) *special_out++ = rel + static_cast<std::uint32_t>(std::countr_zero(closes));
        sp &= ~below;
        pending = 0;
        closes &= closes - 1;
      }
      pending = (pending | sp) != 0 ? 1 : 0;
    }
    // A control byte inside a string is an error: no value may reach it.
    if ((c.ctrl & in_str) != 0) [[unlikely]] {
      // (Non-ASCII bytes before it are not validated now: the failure moves back to where they start.)
      out.fail = utf8_from != nullptr ? utf8_from : c.high != 0 ? src : src + std::countr_zero(c.ctrl & in_str);
      ok = false;
      break;
    }
    if constexpr (k_fused_utf8) {
      // UTF-8 checked block by block, each against the one before: needed for blocks with non-ASCII bytes and the
      // block after them (a sequence cut off at the end of a block). An error may come from a lead byte up to three
      // bytes back: no value may reach back there.
      if ((c.high | prev_high) != 0) [[unlikely]] {
        if (!utf8_block_ok(p, src, st.begin)) {
          out.fail = src == st.begin ? src : src - 3;
          ok = false;
          break;
        }
      }
      prev_high = c.high;
      continue;
    }
    // UTF-8: runs of blocks holding non-ASCII bytes are validated when an all-ASCII block ends them (a run then
    // ends at a character boundary, or is invalid), or by the caller at the end of the input or of a value.
    if (c.high != 0) {
      if (utf8_from == nullptr) utf8_from = src;
    } else if (utf8_from != nullptr) [[unlikely]] {
      const std::size_t n = static_cast<std::size_t>(src - utf8_from);
      const std::size_t bad = st.validate(utf8_from, n);
      if (bad != n) {
        out.fail = utf8_from + bad;
        ok = false;
        break;
      }
      utf8_from = nullptr;
    }
  }
  st.escaped = esc_carry;
  st.in_string = in_string;
  st.scalar = scalar_carry;
  st.special = pending;
  st.utf8_from = utf8_from;
  st.prev_high = prev_high;
  out.pos = pos;
  out.special = special_out;
  return ok;
}
