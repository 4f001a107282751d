// simd/generic/block_bits.inl: arithmetic on the 64-bit masks of one 64-byte block (bit i = byte i), shared by stage 1
// (stage1.inl) and the minify kernels: the inside of strings by prefix XOR, and the bytes backslashes escape.
// Included inside an anonymous namespace after JVIEW_KERNEL_INLINE is defined with the including file's target
// attribute (plain `inline` for portable code); JVIEW_BLOCK_BITS_CLMUL 1 when that target has PCLMULQDQ.

// Bit i of the result: the XOR of bits 0..i of x.
#if JVIEW_BLOCK_BITS_CLMUL
// A carry-less multiply by all ones.
JVIEW_KERNEL_INLINE std::uint64_t prefix_xor(std::uint64_t x) {
  const __m128i a = _mm_cvtsi64_si128(static_cast<long long>(x));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(a, _mm_set1_epi8(-1), 0)));
}
#else
// Six shift-xor steps.
JVIEW_KERNEL_INLINE std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}
#endif

inline constexpr std::uint64_t k_even_bits = 0x5555555555555555ull;  // bit positions 0, 2, 4, ...

// Bytes escaped by a backslash: those after an odd-length run of backslashes. `carry` is 1 when the previous
// block's last backslash escapes this block's first byte; it is updated for the next block.
// A run starting at position s escapes s+1, s+3, ...; its last escape (if the run length L is odd) lands on s+L, the
// byte after the run. Adding the run's start bit to the run clears the run and sets s+L; so for runs starting at
// even positions the byte after the run is escaped when it sits at an odd position, and the other way round.
// A run starting at an odd position that reaches bit 63 carries out of the addition: its last backslash (at the odd
// position 63) is an escape, so the next block's first byte is escaped.
JVIEW_KERNEL_INLINE std::uint64_t escaped_bytes(std::uint64_t bs, std::uint64_t& carry) noexcept {
  const std::uint64_t in = carry;
  bs &= ~in;  // an escaped backslash escapes nothing
  const std::uint64_t starts = bs & ~(bs << 1);
  const std::uint64_t even_ends = (bs + (starts & k_even_bits)) & ~bs;
  std::uint64_t odd_sum;
  carry = __builtin_add_overflow(bs, starts & ~k_even_bits, &odd_sum) ? 1 : 0;
  const std::uint64_t odd_ends = odd_sum & ~bs;
  return (even_ends & ~k_even_bits) | (odd_ends & k_even_bits) | in;
}
