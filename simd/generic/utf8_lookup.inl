// simd/generic/utf8_lookup.inl: UTF-8 validation by the Keiser-Lemire lookup method, written once and included by
// each vector TU (ssse3.cpp, avx2.cpp, avx512.cpp, neon.cpp) inside an anonymous namespace, after it has defined
// `vec`, k_vec_bytes, the v_* primitives and JVIEW_KERNEL_INLINE / JVIEW_KERNEL_FN (its target attribute).
// Work goes in 64-byte blocks with an all-ASCII shortcut; a failing block is handed to the portable validator
// (detail::utf8_locate_error) so the reported offset is exactly the portable one.
//
// The method (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte", 2021): every error that a
// pair of adjacent bytes can show is a bit; three 16-entry tables, indexed by the high nibble of the previous byte,
// the low nibble of the previous byte and the high nibble of the current byte, each give the set of errors that nibble
// allows, and their AND is the set of errors present. Errors that need a longer view (a 3rd/4th byte that should be
// a continuation) are caught by comparing the bytes two and three back with E0 / F0.

// Error bits. "prev" is the previous byte, "cur" the current one.
inline constexpr unsigned char k_too_short = 1 << 0;    // lead (C0..FF) then a non-continuation
inline constexpr unsigned char k_too_long = 1 << 1;     // ASCII then a continuation
inline constexpr unsigned char k_overlong_3 = 1 << 2;   // E0 then 80..9F
inline constexpr unsigned char k_too_large = 1 << 3;    // F4..FF then 90..BF
inline constexpr unsigned char k_surrogate = 1 << 4;    // ED then A0..BF
inline constexpr unsigned char k_overlong_2 = 1 << 5;   // C0/C1 then a continuation
inline constexpr unsigned char k_high_80 = 1 << 6;      // F0 then 80..8F (overlong) or F5..FF then 80..8F (too large)
inline constexpr unsigned char k_two_conts = 1 << 7;    // continuation then continuation: an error unless a 3rd/4th
                                                        // byte is due, hence the top bit (matched against must23)
// Errors decided by the high nibbles alone: every low-nibble entry lets them through.
inline constexpr unsigned char k_carry = k_too_short | k_too_long | k_two_conts;

// Indexed by prev >> 4.
alignas(16) inline constexpr unsigned char k_prev_high[16] = {
    k_too_long, k_too_long, k_too_long, k_too_long, k_too_long, k_too_long, k_too_long, k_too_long,  // 0..7 ASCII
    k_two_conts, k_two_conts, k_two_conts, k_two_conts,                                              // 8..B
    k_too_short | k_overlong_2,                                                                      // C
    k_too_short,                                                                                     // D
    k_too_short | k_overlong_3 | k_surrogate,                                                        // E
    k_too_short | k_too_large | k_high_80,                                                           // F
};
// Indexed by prev & 0x0F.
alignas(16) inline constexpr unsigned char k_prev_low[16] = {
    k_carry | k_overlong_2 | k_overlong_3 | k_high_80,  // C0, E0, F0
    k_carry | k_overlong_2,                             // C1
    k_carry,
    k_carry,
    k_carry | k_too_large,                              // F4
    k_carry | k_too_large | k_high_80,                  // F5..FF from here on
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80 | k_surrogate,    // ED (and FD)
    k_carry | k_too_large | k_high_80,
    k_carry | k_too_large | k_high_80,
};
// Indexed by cur >> 4.
alignas(16) inline constexpr unsigned char k_cur_high[16] = {
    k_too_short, k_too_short, k_too_short, k_too_short, k_too_short, k_too_short, k_too_short, k_too_short,
    k_too_long | k_overlong_2 | k_two_conts | k_overlong_3 | k_high_80,    // 80..8F
    k_too_long | k_overlong_2 | k_two_conts | k_overlong_3 | k_too_large,  // 90..9F
    k_too_long | k_overlong_2 | k_two_conts | k_surrogate | k_too_large,   // A0..AF
    k_too_long | k_overlong_2 | k_two_conts | k_surrogate | k_too_large,   // B0..BF
    k_too_short, k_too_short, k_too_short, k_too_short,
};

// Saturating-subtract bounds for "the block ends inside a sequence": the last byte >= C0, or the one before >= E0,
// or the one before that >= F0. Loaded from the tail of this array so one table serves every vector width.
alignas(64) inline constexpr unsigned char k_incomplete_bound[64] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xdf, 0xbf,
};

inline constexpr std::size_t k_block_bytes = 64;
inline constexpr std::size_t k_vecs_per_block = k_block_bytes / k_vec_bytes;
// Below this a memcpy into a padded block costs more than the scalar loop it would save.
inline constexpr std::size_t k_short_input = 16;

// Every constant of the loop, built once per call: GCC does not hoist vector constants out of a conditional path
// and re-materialised the broadcast tables in every block (15 extra instructions per 64 bytes with AVX2).
struct utf8_consts {
  vec prev_high, prev_low, cur_high;  // the three lookup tables
  vec nibble;                         // 0x0F
  vec third_bound, fourth_bound;      // saturating-subtract bounds: >= 0x80 left iff the byte is >= E0 / >= F0
  vec top_bit;                        // 0x80
  vec incomplete_bound;               // the tail of k_incomplete_bound for this vector width
  vec zero;
};

JVIEW_KERNEL_INLINE utf8_consts utf8_make_consts() {
  return utf8_consts{v_table(k_prev_high),
                     v_table(k_prev_low),
                     v_table(k_cur_high),
                     v_splat(0x0f),
                     v_splat(0xe0 - 0x80),
                     v_splat(0xf0 - 0x80),
                     v_splat(0x80),
                     v_load(k_incomplete_bound + (k_block_bytes - k_vec_bytes)),
                     v_splat(0)};
}

// Errors of `input` given the vector before it: nonzero bytes where the stream cannot be valid UTF-8.
JVIEW_KERNEL_INLINE vec utf8_check_vec(vec input, vec prev_input, const utf8_consts& c) {
  const vec prev1 = v_prev<1>(input, prev_input);
  const vec special = v_and(v_and(v_lookup(c.prev_high, v_high_nibble(prev1, c.nibble)),
                                  v_lookup(c.prev_low, v_and(prev1, c.nibble))),
                            v_lookup(c.cur_high, v_high_nibble(input, c.nibble)));
  // Where the byte two back is >= E0 or three back is >= F0, this byte must be a continuation following a
  // continuation: exactly where `special` should carry k_two_conts, so XOR leaves 0 there and flags both mismatches.
  const vec prev2 = v_prev<2>(input, prev_input);
  const vec prev3 = v_prev<3>(input, prev_input);
  const vec must23 = v_or(v_subs(prev2, c.third_bound), v_subs(prev3, c.fourth_bound));
  return v_xor(v_and(must23, c.top_bit), special);
}

// Checks the non-ASCII 64-byte block in[] given the last vector before it; returns the errors found.
JVIEW_KERNEL_INLINE vec utf8_check_block(const vec (&in)[k_vecs_per_block], vec prev_input, const utf8_consts& c) {
  vec err = utf8_check_vec(in[0], prev_input, c);
#pragma GCC unroll 4
  for (std::size_t k = 1; k < k_vecs_per_block; ++k) err = v_or(err, utf8_check_vec(in[k], in[k - 1], c));
  return err;
}

JVIEW_KERNEL_INLINE vec utf8_load_block(const unsigned char* q, vec (&in)[k_vecs_per_block]) {
#pragma GCC unroll 4
  for (std::size_t k = 0; k < k_vecs_per_block; ++k) in[k] = v_load(q + k * k_vec_bytes);
  vec any_bits = in[0];
#pragma GCC unroll 4
  for (std::size_t k = 1; k < k_vecs_per_block; ++k) any_bits = v_or(any_bits, in[k]);
  return any_bits;
}

// True when the 128 bytes at q are all ASCII: one test per 128 bytes inside ASCII runs.
JVIEW_KERNEL_INLINE bool utf8_ascii_128(const unsigned char* q) {
  vec any_bits = v_load(q);
#pragma GCC unroll 8
  for (std::size_t k = 1; k < 128 / k_vec_bytes; ++k) any_bits = v_or(any_bits, v_load(q + k * k_vec_bytes));
  return v_ascii(any_bits);
}

JVIEW_KERNEL_FN std::size_t utf8_validate(const char* s, std::size_t len) noexcept {
  if (len < k_short_input) return validate_utf8_portable(s, len);
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  const utf8_consts c = utf8_make_consts();
  vec prev_input = c.zero;       // the last vector before the current block ("prev" of its first bytes)
  vec prev_incomplete = c.zero;  // nonzero when the previous block ended inside a sequence
  vec in[k_vecs_per_block];
  std::size_t i = 0;
  while (len - i >= k_block_bytes) {
    if (v_ascii(utf8_load_block(p + i, in))) {
      // All ASCII: valid unless the previous block left a sequence open. Then stay in a tight loop while the run
      // lasts; ASCII bytes act like zeros as "prev" bytes, so the state after the run is all zero.
      if (v_any(prev_incomplete)) [[unlikely]] return detail::utf8_locate_error(p, len, i);
      i += k_block_bytes;
      while (len - i >= 128 && utf8_ascii_128(p + i)) i += 128;
      prev_input = c.zero;
      prev_incomplete = c.zero;
      continue;
    }
    if (v_any(utf8_check_block(in, prev_input, c))) [[unlikely]] return detail::utf8_locate_error(p, len, i);
    prev_input = in[k_vecs_per_block - 1];
    prev_incomplete = v_subs(prev_input, c.incomplete_bound);
    i += k_block_bytes;
  }
  if (i < len) {
    // The tail goes through a zero-padded copy so no load passes p+len. The zeros after a cut-off sequence fail the
    // too-short check, so no separate end check is needed here.
    alignas(64) unsigned char tail[k_block_bytes] = {};
    std::memcpy(tail, p + i, len - i);
    if (v_ascii(utf8_load_block(tail, in))) return v_any(prev_incomplete) ? detail::utf8_locate_error(p, len, i) : len;
    if (v_any(utf8_check_block(in, prev_input, c))) return detail::utf8_locate_error(p, len, i);
    return len;
  }
  if (v_any(prev_incomplete)) return detail::utf8_locate_error(p, len, len);
  return len;
}
