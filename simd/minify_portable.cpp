// simd/minify_portable.cpp: the portable minify kernel (every platform; the reference of the vector ones). Each
// 64-byte block is classified eight bytes at a time with exact SWAR byte tests (quotes, backslashes, bytes <= 0x20),
// the inside of strings is the prefix XOR of the unescaped quotes, and each 8-byte group is copied whole, skipped,
// or packed byte by byte from its keep mask.
#include "simd/minify.hpp"

#include <bit>
#include <cstring>

#define JVIEW_KERNEL_INLINE inline
#define JVIEW_BLOCK_BITS_CLMUL 0

namespace jview::simd {
namespace {

#include "simd/generic/block_bits.inl"

constexpr std::uint64_t k_ones = 0x0101010101010101ull;
constexpr std::uint64_t k_high = 0x8080808080808080ull;

// One bit per byte of w (bit i for byte i in memory order): the bytes equal to c, the bytes below n (n <= 0x80).
// Exact: OR-ing the high bit in before subtracting keeps borrows from crossing bytes.
inline std::uint64_t high_bits_eq(std::uint64_t w, unsigned char c) noexcept {
  const std::uint64_t x = w ^ (k_ones * c);
  return ~(((x & ~k_high) + ~k_high) | x) & k_high;
}
inline std::uint64_t high_bits_below(std::uint64_t w, unsigned char n) noexcept {
  return ~((w | k_high) - k_ones * n) & ~w & k_high;
}
// The high bit of each byte gathered into 8 bits, byte 0 lowest.
inline unsigned gather(std::uint64_t h) noexcept {
  if constexpr (std::endian::native == std::endian::big) h = __builtin_bswap64(h);
  return static_cast<unsigned>(((h >> 7) * 0x0102040810204080ull) >> 56);
}

}  // namespace

char* detail::minify_portable(const unsigned char* p, std::size_t blocks, char* out, minify_state& st) noexcept {
  std::uint64_t carry = st.in_string, esc_carry = st.escaped;
  for (; blocks != 0; --blocks, p += 64) {
    std::uint64_t q = 0, bs = 0, ws = 0;
    for (int g = 0; g < 8; ++g) {
      std::uint64_t w;
      std::memcpy(&w, p + 8 * g, 8);
      q |= static_cast<std::uint64_t>(gather(high_bits_eq(w, '"'))) << (8 * g);
      bs |= static_cast<std::uint64_t>(gather(high_bits_eq(w, '\\'))) << (8 * g);
      ws |= static_cast<std::uint64_t>(gather(high_bits_below(w, 0x21))) << (8 * g);
    }
    q &= ~escaped_bytes(bs, esc_carry);
    const std::uint64_t inside = prefix_xor(q) ^ carry;
    carry = 0 - (inside >> 63);
    const std::uint64_t keep = ~(ws & ~inside);
    if (keep == ~std::uint64_t{0}) {
      std::memcpy(out, p, 64);
      out += 64;
      continue;
    }
    for (int g = 0; g < 8; ++g) {
      unsigned k = static_cast<unsigned>(keep >> (8 * g)) & 0xff;
      const unsigned char* s = p + 8 * g;
      if (k == 0xff) {
        std::memcpy(out, s, 8);
        out += 8;
        continue;
      }
      for (; k != 0; k &= k - 1) *out++ = static_cast<char>(s[std::countr_zero(k)]);
    }
  }
  st.in_string = carry;
  st.escaped = esc_carry;
  return out;
}

}  // namespace jview::simd
