// simd/minify_ssse3.cpp: the SSSE3 minify kernel. A 64-byte block is four 16-byte loads classified by compares
// (quotes, backslashes; whitespace as bytes <= 0x20, the only such bytes valid JSON has outside strings); the
// inside of strings is the prefix XOR of the unescaped quotes. Each 8-byte half is packed by one PSHUFB with a 256-entry table of
// shuffles indexed by its keep mask, and stored at the running output position. Compiled with a target
// attribute: dispatch.cpp picks it when CPUID reports SSSE3 (or under --force-ssse3).
#include "simd/minify.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <cstring>

#define JVIEW_KERNEL_FN __attribute__((target("ssse3")))
#define JVIEW_KERNEL_INLINE __attribute__((target("ssse3"), always_inline)) inline
#define JVIEW_BLOCK_BITS_CLMUL 0

namespace jview::simd {
namespace {

// For each 8-bit keep mask: the indices of its set bits, lowest first (the rest 0x80: PSHUFB writes zero), and
// their count (SSSE3 does not imply POPCNT).
struct pack_table {
  alignas(64) unsigned char idx[256][8];
  unsigned char count[256];
  constexpr pack_table() noexcept : idx(), count() {
    for (int m = 0; m < 256; ++m) {
      int n = 0;
      for (int b = 0; b < 8; ++b)
        if (m & (1 << b)) idx[m][n++] = static_cast<unsigned char>(b);
      count[m] = static_cast<unsigned char>(n);
      for (; n < 8; ++n) idx[m][n] = 0x80;
    }
  }
};
constexpr pack_table k_pack{};

#include "simd/generic/block_bits.inl"

// Packs the bytes of v selected by the 16-bit mask keep to out; returns the new end.
JVIEW_KERNEL_INLINE char* pack16(__m128i v, unsigned keep, char* out) {
  const unsigned lo = keep & 0xff, hi = keep >> 8;
  std::uint64_t ilo, ihi;
  std::memcpy(&ilo, k_pack.idx[lo], 8);
  std::memcpy(&ihi, k_pack.idx[hi], 8);
  // The high half's indices point into bytes 8..15 (0x80 stays 0x80 with bit 3 set: still "zero").
  const __m128i idx = _mm_set_epi64x(static_cast<long long>(ihi | 0x0808080808080808ull), static_cast<long long>(ilo));
  const __m128i packed = _mm_shuffle_epi8(v, idx);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), packed);
  out += k_pack.count[lo];
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_unpackhi_epi64(packed, packed));
  return out + k_pack.count[hi];
}

}  // namespace

JVIEW_KERNEL_FN char* detail::minify_ssse3(const unsigned char* p, std::size_t blocks, char* out,
                                           minify_state& st) noexcept {
  std::uint64_t carry = st.in_string, esc_carry = st.escaped;
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i bslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(' ');
  for (; blocks != 0; --blocks, p += 64) {
    __m128i v[4];
    std::uint64_t q = 0, bs = 0, ws = 0;
    for (int k = 0; k < 4; ++k) {
      v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      q |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v[k], quote)))) << (16 * k);
      bs |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v[k], bslash)))) << (16 * k);
      const __m128i low = _mm_cmpeq_epi8(_mm_max_epu8(v[k], space), space);  // bytes <= 0x20
      ws |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(low))) << (16 * k);
    }
    q &= ~escaped_bytes(bs, esc_carry);
    const std::uint64_t inside = prefix_xor(q) ^ carry;
    carry = static_cast<std::uint64_t>(static_cast<std::int64_t>(inside) >> 63);
    const std::uint64_t keep = ~(ws & ~inside);
    if (keep == ~std::uint64_t{0}) {  // nothing to drop (minified input, long strings)
      for (int k = 0; k < 4; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * k), v[k]);
      out += 64;
      continue;
    }
    for (int k = 0; k < 4; ++k) out = pack16(v[k], static_cast<unsigned>(keep >> (16 * k)) & 0xffff, out);
  }
  st.in_string = carry;
  st.escaped = esc_carry;
  return out;
}

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#undef JVIEW_BLOCK_BITS_CLMUL
#endif
