// simd/generic/stage1.inl: what every stage-1 kernel shares (see simd/structural.hpp): the block loop, written once,
// and the scalar position writer. Included at the top of each kernel's TU (structural_*.cpp) inside an anonymous
// namespace, after JVIEW_KERNEL_INLINE (the file's target attribute) and JVIEW_BLOCK_BITS_CLMUL (block_bits.inl).
// A kernel is a struct K with static members, each run on one 64-byte block (bit i of a mask = byte i):
//   block_bits classify(const unsigned char* p)     the byte classes below
//   std::uint64_t simple_escapes(const unsigned char* p)  bytes among " \ b f n r t (asked for blocks with a backslash)
//   bool plain(const unsigned char* p)              no quote, backslash, control byte, DEL or non-ASCII byte
//   std::uint32_t* flatten(bits, rel, out)           appends rel + the index of each set bit, lowest first; may write
//                                                     64 entries past them (scalar_flatten below, or a vector one)
//   bool fused_utf8 (constexpr), and when true utf8_init() and utf8_block_ok(ctx, p, src, begin): UTF-8 checked
//                                                     block by block, with the constants utf8_init made (ctx)
//   optionally k_odd_bytes (constexpr) and std::uint64_t odd_bytes(p): nonzero when the block holds a backslash, DEL
//                                                     or non-ASCII byte, cheaper than or-ing classify's three masks
// Everything after classify is scalar 64-bit arithmetic on the masks.

#include "simd/generic/block_bits.inl"

// The byte classes of one block. `high` may be any nonzero value for "some non-ASCII byte" in kernels that check
// UTF-8 by runs (exact in those with fused_utf8); `ctrl` and `del` exact (control bytes below 0x20; 0x7f).
struct block_bits {
  std::uint64_t quote, bslash, op, ws, ctrl, high, del;
};

// Nonzero when the block holds a byte that takes it off the usual path: backslash, DEL, non-ASCII (K::odd_bytes when
// the kernel has it; the masks classify left unused are then computed only off the usual path).
template <class K>
JVIEW_KERNEL_INLINE std::uint64_t odd_bytes(const block_bits& c, const unsigned char* p) noexcept {
  if constexpr (requires { K::k_odd_bytes; }) {
    return K::odd_bytes(p);
  } else {
    (void)p;
    return c.bslash | c.del | c.high;
  }
}

// The escapes the parser need not check, " \ b f n r t, by two nibble lookups (for kernels with a byte shuffle): a
// byte is one of them when lo[byte & 15] & hi[byte >> 4] is not 0 (a bit per character: " \ b f n r t).
alignas(16) inline constexpr unsigned char k_simple_escape_lo[16] = {0, 0, 0x01 | 0x04 | 0x20, 0, 0x40, 0, 0x08, 0,
                                                                     0, 0, 0, 0, 0x02, 0, 0x10, 0};
alignas(16) inline constexpr unsigned char k_simple_escape_hi[16] = {0, 0, 0x01, 0, 0, 0x02, 0x04 | 0x08 | 0x10, 0x20 | 0x40,
                                                                     0, 0, 0, 0, 0, 0, 0, 0};

// Defaults of a kernel that checks UTF-8 by runs of non-ASCII blocks (validated with the UTF-8 kernel when an
// all-ASCII block ends them, or by the caller at the end of the input or of a value).
struct stage1_runs_utf8 {
  static constexpr bool fused_utf8 = false;
  struct utf8_ctx {};
  JVIEW_KERNEL_INLINE static utf8_ctx utf8_init() { return {}; }
};

// Eight positions at o: rel + the index of each of the lowest eight set bits of `bits` (rel + 64 past the last
// one), which are cleared. No test per store.
JVIEW_KERNEL_INLINE void flatten_eight(std::uint64_t& bits, std::uint32_t rel, std::uint32_t* o) noexcept {
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    o[k] = rel + static_cast<std::uint32_t>(std::countr_zero(bits));
    bits &= bits - 1;
    // Hide the value from the optimiser: knowing `bits` may be 0 here, GCC 12 adds a branch per store to a "rest are
    // 64" tail, and those branches mispredict on every block.
    __asm__("" : "+r"(bits));
  }
}

// Positions by count-trailing-zeros, in unconditional groups of 8 (one predictable loop test for most blocks; a
// test per token mispredicts its exit on most blocks). Writes up to 64 entries past the count.
struct scalar_flatten {
  JVIEW_KERNEL_INLINE static std::uint32_t* flatten(std::uint64_t bits, std::uint32_t rel, std::uint32_t* out) noexcept {
    if (bits == 0) return out;
    const int count = std::popcount(bits);
    std::uint32_t* o = out;
    do {
      flatten_eight(bits, rel, o);
      o += 8;
    } while (bits != 0);
    return out + count;
  }
};

// One block's tokens (structural characters outside strings, both quotes of every string, the first byte of every
// number or literal), given its quotes that are not escaped; in_str is set to the inside of its strings (from each
// opening quote, included, to its closing quote, excluded), and the state carried to the next block is updated.
JVIEW_KERNEL_INLINE std::uint64_t block_tokens(const block_bits& c, std::uint64_t quote, std::uint64_t& in_string,
                                              std::uint64_t& scalar_carry, std::uint64_t& in_str) noexcept {
  in_str = prefix_xor(quote) ^ in_string;
  in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_str) >> 63);
  const std::uint64_t strings = in_str | quote;
  const std::uint64_t scalar = ~(c.op | c.ws | strings);
  const std::uint64_t tokens = (c.op & ~strings) | quote | (scalar & ~((scalar << 1) | scalar_carry));
  scalar_carry = scalar >> 63;
  return tokens;
}

// A block wholly inside a string (no token, escape or non-ASCII byte) that began before it: the plain blocks after
// it (no quote, backslash, control byte, DEL or non-ASCII byte) add no token and change no state, so one test each
// skips them (most of a long ASCII string). Tried on every block inside a string, the failed tests cost more.
// Leaves p at the last block skipped.
template <class K>
JVIEW_KERNEL_INLINE void skip_plain_blocks(const unsigned char*& p, const unsigned char* pend, std::uint32_t& rel,
                                           std::size_t& string_blocks) noexcept {
  std::size_t n = 1;
  while (p + 64 != pend && K::plain(p + 64)) {
    ++n;
    p += 64;
    rel += 64;
  }
  string_blocks += n;
}

// Whether the UTF-8 text ending at `end` (after a non-ASCII block: at least three bytes) ends inside a sequence: one
// of its last three bytes is a lead byte of more bytes than follow it (the scalar form of utf8_lookup.inl's
// k_incomplete_bound test).
JVIEW_KERNEL_INLINE bool utf8_cut_off_before(const char* end) noexcept {
  const auto byte = [end](int back) { return static_cast<unsigned char>(end[-back]); };
  return byte(1) >= 0xc0 || byte(2) >= 0xe0 || byte(3) >= 0xf0;
}

// A block without backslash, DEL or non-ASCII byte while a string holding a backslash or DEL is open (`pending`, as in
// stage1_blocks): that string's closing quote is the block's first, if it has one; its special entry is written
// there.
JVIEW_KERNEL_INLINE void close_pending(std::uint64_t quote, std::uint64_t in_str, std::uint32_t rel,
                                       std::uint64_t& pending, std::uint32_t*& special_out) noexcept {
  const std::uint64_t closes = quote & ~in_str;
  if (closes != 0) {
    *special_out++ = (rel + static_cast<std::uint32_t>(std::countr_zero(closes))) |
                     ((pending & 2) != 0 ? k_special_checked : 0);
    pending = 0;
  }
}

template <class K>
JVIEW_KERNEL_INLINE bool stage1_blocks(const unsigned char* p, const char* src0, std::size_t blocks, std::uint32_t rel,
                                       stage1_state& st, stage1_out& out) noexcept {
  // The block's place in the source, where needed (one register less in the loop: GCC spilled its counters).
  const unsigned char* const p0 = p;
  const unsigned char* const pend = p + blocks * 64;
  const auto source = [&p, p0, src0]() { return src0 + (p - p0); };
  std::uint64_t in_string = st.in_string, scalar_carry = st.scalar;
  // The state only unusual blocks leave: an escape running into the next block, a string with a backslash or DEL
  // still open, UTF-8 still to check. `unusual` is not 0 while any of it is set.
  std::uint64_t esc_carry = st.escaped, pending = st.special, prev_high = st.prev_high;
  const char* utf8_from = st.utf8_from;
  std::uint64_t unusual = esc_carry | pending | prev_high | (utf8_from != nullptr ? 1 : 0);
  std::size_t string_blocks = st.string_blocks;
  std::uint32_t* pos = out.pos;
  std::uint32_t* special_out = out.special;
  bool ok = true;
  // The fused UTF-8 check's constants, made once: made by the check itself, they were rebuilt at every non-ASCII
  // block (eight broadcasts and table loads).
  [[maybe_unused]] const auto utf8 = K::utf8_init();
  const char* const begin = st.begin;
  for (; p != pend; p += 64, rel += 64) {
    const block_bits c = K::classify(p);
    // The usual block: no backslash, DEL or non-ASCII byte, and nothing of the kind left by the block before. Its
    // path holds only what such a block needs: with every case in one path, GCC kept part of the loop's state on
    // the stack, and stage 1 took about 1.4x simdjson's time on ASCII input.
    const std::uint64_t odd = odd_bytes<K>(c, p);
    if ((odd | unusual) == 0) [[likely]] {
      // Two usual blocks in one step when the next one is usual too (as simdjson's stage 1 takes 128 bytes a step):
      // the two chains of masks overlap, and the loop's own work is halved.
      if (pend - p >= 128) {
        const block_bits d = K::classify(p + 64);
        if (odd_bytes<K>(d, p + 64) == 0) [[likely]] {
          std::uint64_t in_c, in_d;
          const std::uint64_t tokens_c = block_tokens(c, c.quote, in_string, scalar_carry, in_c);
          const std::uint64_t tokens_d = block_tokens(d, d.quote, in_string, scalar_carry, in_d);
          pos = K::flatten(tokens_c, rel, pos);
          pos = K::flatten(tokens_d, rel + 64, pos);
          if (((c.ctrl & in_c) | (d.ctrl & in_d)) != 0) [[unlikely]] {  // as below
            out.fail = (c.ctrl & in_c) != 0 ? source() + std::countr_zero(c.ctrl & in_c)
                                            : source() + 64 + std::countr_zero(d.ctrl & in_d);
            ok = false;
            break;
          }
          p += 64;
          rel += 64;
          if ((tokens_d | ~in_string) == 0) [[unlikely]]
            skip_plain_blocks<K>(p, pend, rel, string_blocks);
          continue;
        }
      }
      std::uint64_t in_str;
      const std::uint64_t tokens = block_tokens(c, c.quote, in_string, scalar_carry, in_str);
      pos = K::flatten(tokens, rel, pos);
      if ((c.ctrl & in_str) != 0) [[unlikely]] {  // as below
        out.fail = source() + std::countr_zero(c.ctrl & in_str);
        ok = false;
        break;
      }
      if ((tokens | ~in_string) == 0) [[unlikely]]
        skip_plain_blocks<K>(p, pend, rel, string_blocks);
      continue;
    }
    if constexpr (K::fused_utf8) {
      // A block whose only unusual bytes are non-ASCII (or that follows one): the usual path and the block's UTF-8
      // check (text in most languages but English: 29% of twitter.json's blocks).
      // (No backslash or DEL: `odd` holds only non-ASCII bytes, which `high` lists exactly here. Tested so, a kernel
      // with odd_bytes makes the backslash and DEL masks only for the blocks below.)
      if (((odd & ~c.high) | esc_carry | pending) == 0) {
        std::uint64_t in_str;
        const std::uint64_t tokens = block_tokens(c, c.quote, in_string, scalar_carry, in_str);
        pos = K::flatten(tokens, rel, pos);
        if ((c.ctrl & in_str) != 0) [[unlikely]] {  // as below
          out.fail = source() + (c.high != 0 ? 0 : std::countr_zero(c.ctrl & in_str));
          ok = false;
          break;
        }
        // An ASCII block after a non-ASCII one needs only the test that no sequence was cut off by the block's
        // start (as simdjson does), not the whole check (random.json's stage 1: 1.36x -> 1.24x simdjson's).
        const char* const src = source();
        if (c.high == 0 ? utf8_cut_off_before(src) : !K::utf8_block_ok(utf8, p, src, begin)) [[unlikely]] {
          out.fail = src == begin ? src : src - 3;  // (as below)
          ok = false;
          break;
        }
        prev_high = c.high;
        unusual = prev_high;
        if ((tokens | ~in_string | c.high) == 0) [[unlikely]]
          skip_plain_blocks<K>(p, pend, rel, string_blocks);
        continue;
      }
    }
    // A block without backslash, DEL or non-ASCII byte, whose only unusual state is a string with a backslash or DEL
    // still open (pending): the usual path, and that string's special entry where it closes (close_pending). In the
    // path below, such blocks (most of a long string with a few escapes) took a tenth of gsoc-2018.json's stage 1.
    // It repeats the usual path's single block on purpose: a test of `pending` inside the usual path made
    // citm_catalog.json, which never has one, parse 5% slower (RESULTS.md, "Issue 24, tenth round").
    if ((odd | esc_carry | prev_high | (utf8_from != nullptr ? 1 : 0)) == 0) {
      std::uint64_t in_str;
      const std::uint64_t tokens = block_tokens(c, c.quote, in_string, scalar_carry, in_str);
      pos = K::flatten(tokens, rel, pos);
      close_pending(c.quote, in_str, rel, pending, special_out);
      if ((c.ctrl & in_str) != 0) [[unlikely]] {  // as below
        out.fail = source() + std::countr_zero(c.ctrl & in_str);
        ok = false;
        break;
      }
      unusual = pending;
      if ((tokens | ~in_string) == 0) [[unlikely]]
        skip_plain_blocks<K>(p, pend, rel, string_blocks);
      continue;
    }
    std::uint64_t quote = c.quote, escaped = 0;
    if ((c.bslash | esc_carry) != 0) [[unlikely]] {
      escaped = escaped_bytes(c.bslash, esc_carry);
      quote &= ~escaped;
    }
    std::uint64_t in_str;
    const std::uint64_t tokens = block_tokens(c, quote, in_string, scalar_carry, in_str);
    pos = K::flatten(tokens, rel, pos);
    // Strings holding a backslash or DEL: the position of their closing quote, flagged k_special_checked when the
    // string holds DEL or an escape other than \" \\ \b \f \n \r \t (the parser checks those).
    // pending: bit 0, the string open at the block's end holds a backslash or DEL; bit 1, a checked byte.
    const std::uint64_t special = (c.bslash | c.del) & in_str;
    if ((special | pending) != 0) [[unlikely]] {
      // Which strings closing in this block hold such a byte, without a loop over them: adding a string's special
      // bits to its run of in_str bits carries into the bit after the run, its closing quote, when there is one
      // (`pending` adds one at bit 0 for the string carried in); a carry out of bit 63 is the string still open.
      const std::uint64_t closes = quote & ~in_str;
      const std::uint64_t hard_escapes = escaped != 0 ? escaped & ~K::simple_escapes(p) : 0;
      const std::uint64_t ck = (c.del | hard_escapes) & in_str;
      std::uint64_t sum_sp, sum_ck;
      const bool open_sp = __builtin_add_overflow(in_str, special | (pending != 0 ? 1 : 0), &sum_sp);
      const bool open_ck = __builtin_add_overflow(in_str, ck | ((pending & 2) != 0 ? 1 : 0), &sum_ck);
      const std::uint64_t checked = sum_ck & closes;
      for (std::uint64_t flagged = (sum_sp & closes) | checked; flagged != 0; flagged &= flagged - 1) {
        const int at = std::countr_zero(flagged);
        *special_out++ = (rel + static_cast<std::uint32_t>(at)) | (((checked >> at) & 1) != 0 ? k_special_checked : 0);
      }
      pending = (open_sp ? 1 : 0) | (open_ck ? 2 : 0);
    }
    // A control byte inside a string is an error: no value may reach it.
    if ((c.ctrl & in_str) != 0) [[unlikely]] {
      // (Non-ASCII bytes before it are not validated now: the failure moves back to where they start.)
      out.fail = utf8_from != nullptr ? utf8_from : source() + (c.high != 0 ? 0 : std::countr_zero(c.ctrl & in_str));
      ok = false;
      break;
    }
    if constexpr (K::fused_utf8) {
      // UTF-8 checked block by block, each against the one before: needed for blocks with non-ASCII bytes and the
      // block after them (a sequence cut off at the end of a block). An error may come from a lead byte up to three
      // bytes back: no value may reach back there.
      if ((c.high | prev_high) != 0) [[unlikely]] {
        const char* const src = source();
        if (!K::utf8_block_ok(utf8, p, src, begin)) {
          out.fail = src == begin ? src : src - 3;
          ok = false;
          break;
        }
      }
      prev_high = c.high;
    } else {
      // UTF-8: runs of blocks holding non-ASCII bytes are validated when an all-ASCII block ends them (a run then
      // ends at a character boundary, or is invalid), or by the caller at the end of the input or of a value.
      if (c.high != 0) {
        if (utf8_from == nullptr) utf8_from = source();
      } else if (utf8_from != nullptr) [[unlikely]] {
        const std::size_t n = static_cast<std::size_t>(source() - utf8_from);
        const std::size_t bad = st.validate(utf8_from, n);
        if (bad != n) {
          out.fail = utf8_from + bad;
          ok = false;
          break;
        }
        utf8_from = nullptr;
      }
    }
    unusual = esc_carry | pending | prev_high | (utf8_from != nullptr ? 1 : 0);
    // (One test of the or-ed masks: as separate tests, their branches mispredicted on text of long non-ASCII strings.)
    if ((tokens | ~in_string | c.high | c.bslash | esc_carry) == 0 && utf8_from == nullptr) [[unlikely]]
      skip_plain_blocks<K>(p, pend, rel, string_blocks);
  }
  st.escaped = esc_carry;
  st.in_string = in_string;
  st.scalar = scalar_carry;
  st.special = pending;
  st.utf8_from = utf8_from;
  st.prev_high = prev_high;
  st.string_blocks = string_blocks;
  out.pos = pos;
  out.special = special_out;
  return ok;
}
