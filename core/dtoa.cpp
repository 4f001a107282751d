// Shortest round-trip double formatting (jq 1.8's text format) and integer formatting; see core/dtoa.hpp.
// Digits: a Schubfach-style search (after R. Giulietti's "The Schubfach way to render doubles": three round-to-odd
// products with a 128-bit power of ten bound the rounding interval, then one or two candidates are tested).
// Text: the 16 leading digits are converted in one vector register (SSE2 / NEON) and the decimal point is inserted
// in the register; the 17th digit is kept apart. Portable code converts eight digits at a time in a 64-bit word.
#include "core/dtoa.hpp"
#include "simd/kernels.hpp"

#include <bit>
#include <cstring>

#if !defined(JVIEW_PORTABLE_ONLY) && (defined(__SSE2__) || defined(_M_X64))
#define JVIEW_DTOA_SSE2 1
#include <emmintrin.h>
#elif !defined(JVIEW_PORTABLE_ONLY) && defined(__ARM_NEON) && defined(__aarch64__)
#define JVIEW_DTOA_NEON 1
#include <arm_neon.h>
#endif

namespace jview {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr std::uint64_t k_pow10_8 = 100000000;
constexpr std::uint64_t k_pow10_16 = 10000000000000000;
constexpr std::uint64_t k_ascii_zeros = 0x3030303030303030;

// floor(q * log10 2), exact for |q| <= 2620 (gen_dtoa_tables.py checks these three over every double's exponent).
constexpr int floor_log10_pow2(int q) noexcept { return (q * 315653) >> 20; }
// floor(log10(3/4 * 2^q)), exact for |q| <= 2936.
constexpr int floor_log10_three_quarters_pow2(int q) noexcept { return (q * 631305 - 261663) >> 21; }
// floor(k * log2 10), exact for |k| <= 1233.
constexpr int floor_log2_pow10(int k) noexcept { return (k * 1741647) >> 19; }

// Round to odd of g * cp / 2^128 from y = floor(g * cp / 2^64): the integer part, its low bit set when the
// fraction is non-zero. g over-estimates the power of ten by less than one unit, so fractions below 2^-63 count as
// zero (Schubfach's argument).
inline std::uint64_t round_to_odd_of(u128 y) noexcept {
  return static_cast<std::uint64_t>(y >> 64) | (static_cast<std::uint64_t>(y) > 1);
}

// The shortest decimal for c * 2^q (c the significand with its hidden bit): v = f * 10^e where f may carry
// trailing zeros; 10^15 <= f < 10^17 for normal doubles, smaller for subnormals.
// Also split for the writer, when 10^16 <= f < 10^17 (17 digits): f = 10 * u + last, from s / 10 which the search
// computes anyway (one 64-bit division fewer). Unused when f has 16 digits or fewer.
struct raw_decimal {
  std::uint64_t f;
  int e;
  std::uint64_t u;
  unsigned last;
};

// c ? a : b without a branch (the compiler may not turn a ?: on unpredictable data into a branch this way).
inline std::uint64_t select(unsigned c, std::uint64_t a, std::uint64_t b) noexcept {
  return b ^ ((a ^ b) & (0 - static_cast<std::uint64_t>(c)));
}

// floor(g * 2^sh / 2^64) for 1 <= sh <= 5, in 64-bit shifts (a 128-bit shift by a variable needs extra selects).
inline u128 shifted_high(const detail::pow10_128& g, int sh) noexcept {
  return (static_cast<u128>(g.hi >> (64 - sh)) << 64) | ((g.hi << sh) | (g.lo >> (64 - sh)));
}

[[gnu::always_inline]] inline raw_decimal schubfach(std::uint64_t c, int q, bool irregular) noexcept {
  // Interval bounds in units of 2^(q-2); they belong to the interval when c is even (round-half-even reading).
  const std::uint64_t out = c & 1;
  const std::uint64_t cb = c << 2;
  int k;
  if (!irregular) [[likely]] {
    k = floor_log10_pow2(q);
  } else {
    // c = 2^52 and the next double down is half as far away: the interval is [c - 1/4, c + 1/2] * 2^q.
    k = floor_log10_three_quarters_pow2(q);
  }
  const int h = q + floor_log2_pow10(-k) + 1;  // 1..4: cb << h stays below 2^59
  const detail::pow10_128& g = detail::k_pow10_table[-k - detail::k_pow10_min];
  // One 192-bit product P = g * (cb << h); the bounds' products are P -/+ g * ((cb - cbl) << h), g * (2 << h): a
  // shifted g, added or subtracted, instead of four more 64x64 multiplications.
  const u128 x = static_cast<u128>(g.lo) * (cb << h);
  const u128 y = static_cast<u128>(g.hi) * (cb << h) + static_cast<std::uint64_t>(x >> 64);  // P >> 64
  const std::uint64_t p0 = static_cast<std::uint64_t>(x);
  const int sr = h + 1;
  const int sl = irregular ? h : h + 1;
  const std::uint64_t dr0 = g.lo << sr;
  const u128 yr = y + shifted_high(g, sr) + (p0 + dr0 < p0);
  const std::uint64_t dl0 = g.lo << sl;
  const u128 yl = y - shifted_high(g, sl) - (p0 < dl0);
  const std::uint64_t vb = round_to_odd_of(y);
  const std::uint64_t vbl = round_to_odd_of(yl);
  const std::uint64_t vbr = round_to_odd_of(yr);
  const std::uint64_t s = vb >> 2;  // floor(v * 10^-k): 16 or 17 digits for normal doubles
  // The choices below are data-dependent coin flips on real data (is the shortest one digit shorter? which of
  // two neighbours?), so they are computed with bit operations: written as ?: GCC made branches of them, and the
  // mispredictions cost about 12% of the time for a double (canada.json 23.4 -> 20.5 ns).
  // One digit fewer: is exactly one of the two neighbouring multiples of ten inside the interval? (The interval is
  // 1 to 10 units of s wide, so no shorter candidate can be missed. Subnormals may have s < 100: 4.9e-323 has the
  // one-digit neighbour 5e-323; s < 10 only for the smallest subnormal, where the test is skipped.)
  const std::uint64_t s10 = s / 10;
  const std::uint64_t sp10 = 10 * s10;
  const unsigned upin = vbl + out <= sp10 << 2;
  const unsigned wpin = ((sp10 + 10) << 2) + out <= vbr;
  const std::uint64_t shorter = sp10 + 10 * (upin ^ 1);
  // Same length: s or s + 1, whichever is inside, else the closer one (ties to even).
  const unsigned uin = vbl + out <= s << 2;
  const unsigned win = ((s + 1) << 2) + out <= vbr;
  const std::uint64_t mid = (s << 2) + 2;
  const unsigned closer_up = (vb > mid) | ((vb == mid) & static_cast<unsigned>(s));
  const unsigned one_in = uin ^ win;
  const unsigned up = (one_in & win) | ((one_in ^ 1) & closer_up);
  const std::uint64_t same = s + up;
  const unsigned use_shorter = (upin ^ wpin) & (s >= 10);
  // The 17-digit split: the shorter candidate ends in 0; s + up may carry into s / 10 (s ending in 9).
  const unsigned same_last = static_cast<unsigned>(s - sp10) + up;
  const unsigned carry = same_last == 10;
  const std::uint64_t u = s10 + ((use_shorter & (upin ^ 1)) | ((use_shorter ^ 1) & carry));
  const unsigned last = same_last & (0u - ((use_shorter | carry) ^ 1));
  return {select(use_shorter, shorter, same), k, u, last};
}

// Eight ASCII digits of x < 10^8 in a 64-bit word, the first digit in the lowest byte (little-endian memory
// order). Splits 8 -> 4+4 -> 2+2 -> 1+1 with multiply-shift divisions that stay inside their lanes.
inline std::uint64_t digits8_word(std::uint32_t x) noexcept {
  const std::uint64_t hi = x / 10000;
  const std::uint64_t y = hi | ((x - hi * 10000) << 32);                  // two 32-bit lanes, each < 10^4
  const std::uint64_t q2 = ((y * 5243) >> 19) & 0x0000007F0000007F;        // lane / 100
  const std::uint64_t z = (y << 16) - q2 * (100 * 65536 - 1);             // (lane % 100) << 16 | lane / 100
  const std::uint64_t q3 = ((z * 103) >> 10) & 0x000F000F000F000F;        // 16-bit lanes < 100: lane / 10
  const std::uint64_t d = ((z << 8) - q3 * (10 * 256 - 1)) | k_ascii_zeros;  // (lane % 10) << 8 | lane / 10
  if constexpr (std::endian::native == std::endian::big) return __builtin_bswap64(d);
  return d;
}

// Number of '0' digits at the end (in print order) of a word made by digits8_word.
inline int trailing_zero_digits(std::uint64_t word) noexcept {
  std::uint64_t x = word ^ k_ascii_zeros;
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return std::countl_zero(x) >> 3;
}

// Number of '0' digits at the start (in print order) of a word made by digits8_word.
inline int leading_zero_digits(std::uint64_t word) noexcept {
  std::uint64_t x = word ^ k_ascii_zeros;
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return std::countr_zero(x) >> 3;
}

// Drops the first `n` digits (n <= 7) of a digits8_word word, for stores that start at its (n+1)th digit.
inline std::uint64_t drop_leading_digits(std::uint64_t word, int n) noexcept {
  if constexpr (std::endian::native == std::endian::big) return word << (8 * n);
  return word >> (8 * n);
}

inline void store8(char* p, std::uint64_t w) noexcept { std::memcpy(p, &w, 8); }

// The 16 digits of 10^15 <= u < 10^16, eight at a time in two words (the portable path).
struct digits16_portable {
  std::uint64_t w0, w1;
  explicit digits16_portable(std::uint64_t u) noexcept {
    const std::uint64_t hi = u / k_pow10_8;
    w0 = digits8_word(static_cast<std::uint32_t>(hi));
    w1 = digits8_word(static_cast<std::uint32_t>(u - hi * k_pow10_8));
  }
  int trailing_zeros() const noexcept {
    return w1 == k_ascii_zeros ? 8 + trailing_zero_digits(w0) : trailing_zero_digits(w1);
  }
  void store(char* p) const noexcept {
    store8(p, w0);
    store8(p + 8, w1);
  }
  // p[0..16]: the digits with '.' after the first `pos` (1..15).
  void store_with_point(char* p, int pos) const noexcept {
    store(p + 1);
    std::memmove(p, p + 1, static_cast<std::size_t>(pos));
    p[pos] = '.';
  }
};

#if defined(JVIEW_DTOA_SSE2) || defined(JVIEW_DTOA_NEON)
// Sliding-window masks for the decimal point: 16 bytes loaded at k_point_masks + 16 - pos select the first `pos`
// bytes (0xFF); at k_point_dots + 16 - pos they hold '.' at byte pos only.
alignas(64) constexpr unsigned char k_point_masks[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
alignas(64) constexpr unsigned char k_point_dots[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '.'};
#endif

#if defined(JVIEW_DTOA_SSE2)
// The 16 digits of 10^15 <= u < 10^16 in one SSE2 register: two 8-digit halves in 64-bit lanes, split into 4-digit
// 32-bit lanes, 2-digit 16-bit lanes and digit bytes, all lanes at once.
struct digits16_vector {
  __m128i r;
  explicit digits16_vector(std::uint64_t u) noexcept {
    const std::uint64_t hi = u / k_pow10_8;
    const __m128i x = _mm_set_epi64x(static_cast<long long>(u - hi * k_pow10_8), static_cast<long long>(hi));
    // floor(x / 10^4) = (x * 109951163) >> 40 for x < 10^8.
    const __m128i q1 = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi64x(109951163)), 40);
    const __m128i r1 = _mm_sub_epi32(x, _mm_mul_epu32(q1, _mm_set1_epi64x(10000)));
    const __m128i y = _mm_or_si128(q1, _mm_slli_epi64(r1, 32));
    // floor(y / 100) = (y * 5243) >> 19 for y < 10^4; the high 16 bits of each 32-bit lane are zero.
    const __m128i q2 = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi32(5243)), 3);
    const __m128i r2 = _mm_sub_epi16(y, _mm_mullo_epi16(q2, _mm_set1_epi32(100)));
    const __m128i z = _mm_or_si128(q2, _mm_slli_epi32(r2, 16));
    // floor(z / 10) = (z * 6554) >> 16 for z < 100; (z % 10) << 8 | z / 10 = (z << 8) - q * 2559.
    const __m128i q3 = _mm_mulhi_epu16(z, _mm_set1_epi16(6554));
    const __m128i d = _mm_sub_epi16(_mm_slli_epi16(z, 8), _mm_mullo_epi16(q3, _mm_set1_epi16(10 * 256 - 1)));
    r = _mm_or_si128(d, _mm_set1_epi8('0'));
  }
  int trailing_zeros() const noexcept {
    const unsigned zeros = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(r, _mm_set1_epi8('0'))));
    return std::countl_one(static_cast<std::uint16_t>(zeros));
  }
  void store(char* p) const noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), r); }
  // p[0..16]: the digits with '.' after the first `pos` (1..15), the point inserted in the register (storing the
  // digits and moving them in memory made the load wait on the store: about 25% of the time for a double).
  void store_with_point(char* p, int pos) const noexcept {
    const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k_point_masks + 16 - pos));
    const __m128i dot = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k_point_dots + 16 - pos));
    const __m128i keep_or_dot = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k_point_masks + 15 - pos));
    const __m128i moved = _mm_andnot_si128(keep_or_dot, _mm_slli_si128(r, 1));
    const __m128i x = _mm_or_si128(_mm_or_si128(_mm_and_si128(r, keep), moved), dot);
    store(p + 1);  // the 16th digit lands at p[16]; the register store below covers p[0..15]
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
  }
};
#elif defined(JVIEW_DTOA_NEON)
// The 16 digits of 10^15 <= u < 10^16 in one NEON register (same lane splitting as the SSE2 version; NEON has
// 32-bit and 16-bit multiply-low, so each step is a multiply, a shift and a multiply-subtract).
struct digits16_vector {
  uint8x16_t r;
  explicit digits16_vector(std::uint64_t u) noexcept {
    const std::uint64_t hi = u / k_pow10_8;
    const uint32x2_t x = vcreate_u32(hi | ((u - hi * k_pow10_8) << 32));  // lane 0 = hi
    const uint32x2_t q1 = vmovn_u64(vshrq_n_u64(vmull_n_u32(x, 109951163), 40));
    const uint32x2_t r1 = vmls_n_u32(x, q1, 10000);
    const uint32x4_t y = vreinterpretq_u32_u64(
        vorrq_u64(vmovl_u32(q1), vshlq_n_u64(vmovl_u32(r1), 32)));  // 32-bit lanes: q1[0], r1[0], q1[1], r1[1]
    const uint32x4_t q2 = vshrq_n_u32(vmulq_n_u32(y, 5243), 19);
    const uint16x8_t z = vreinterpretq_u16_u32(vmlsq_n_u32(vshlq_n_u32(y, 16), q2, 100 * 65536 - 1));
    const uint16x8_t q3 = vshrq_n_u16(vmulq_n_u16(z, 103), 10);
    const uint16x8_t d = vmlsq_n_u16(vshlq_n_u16(z, 8), q3, 10 * 256 - 1);
    r = vorrq_u8(vreinterpretq_u8_u16(d), vdupq_n_u8('0'));
  }
  int trailing_zeros() const noexcept {
    // One nibble per byte (shift-right-narrow), then count the all-ones nibbles at the top.
    const uint8x16_t eq = vceqq_u8(r, vdupq_n_u8('0'));
    const std::uint64_t nibbles = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(eq), 4)), 0);
    return std::countl_one(nibbles) >> 2;
  }
  void store(char* p) const noexcept { vst1q_u8(reinterpret_cast<std::uint8_t*>(p), r); }
  void store_with_point(char* p, int pos) const noexcept {
    const uint8x16_t keep = vld1q_u8(k_point_masks + 16 - pos);
    const uint8x16_t dot = vld1q_u8(k_point_dots + 16 - pos);
    const uint8x16_t keep_or_dot = vld1q_u8(k_point_masks + 15 - pos);
    const uint8x16_t moved = vbicq_u8(vextq_u8(vdupq_n_u8(0), r, 15), keep_or_dot);
    const uint8x16_t x = vorrq_u8(vorrq_u8(vandq_u8(r, keep), moved), dot);
    store(p + 1);
    vst1q_u8(reinterpret_cast<std::uint8_t*>(p), x);
  }
};
#else
using digits16_vector = digits16_portable;
#endif

// "00" .. "99".
struct two_digit_table {
  char d[200];
  constexpr two_digit_table() noexcept : d() {
    for (int i = 0; i < 100; ++i) {
      d[2 * i] = static_cast<char>('0' + i / 10);
      d[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
  }
};
constexpr two_digit_table k_two_digits{};

// "e+XX" / "e-XXX": sign always, at least two digits (jq's "%+.2d"); |x| <= 324. Selects rather than branches:
// two- and three-digit exponents alternate unpredictably in random data. Touches 6 bytes.
inline char* write_exponent(int x, char* p) noexcept {
  p[0] = 'e';
  p[1] = x < 0 ? '-' : '+';
  const unsigned a = static_cast<unsigned>(x < 0 ? -x : x);
  const unsigned hundreds = (a * 41) >> 12;  // a / 100 for a < 1000
  const unsigned rest = a - 100 * hundreds;
  const bool three = a >= 100;
  const unsigned two = static_cast<unsigned char>(k_two_digits.d[2 * rest]) |
                       (static_cast<unsigned>(static_cast<unsigned char>(k_two_digits.d[2 * rest + 1])) << 8);
  const std::uint32_t text = three ? (('0' + hundreds) | (two << 8)) : two;  // bytes in print order
  const std::uint32_t stored = std::endian::native == std::endian::big ? __builtin_bswap32(text) : text;
  std::memcpy(p + 2, &stored, 4);
  return p + 4 + three;
}

// Writes (10 u + last) * 10^e in jq's layout: 10^15 <= u < 10^16 are the 16 leading digits (converted together),
// `last` the 17th ('0'..'9'); trailing zeros allowed. Touches at most 32 bytes.
template <class Digits>
inline char* format_decimal(std::uint64_t u, char last, int e, char* out) noexcept {
  const Digits digits(u);
  const int tz = digits.trailing_zeros();  // always computed: a branch on `last` would be a coin flip
  const int n = 17 - ((1 + tz) & -static_cast<int>(last == '0'));  // significant digits (bit ops: see schubfach)
  const int x = e + 16;                                             // exponent of the first digit
  if (x < -4 || x >= n + 15) [[unlikely]] {
    // jq: exponent form when the decimal point would sit more than 4 places left or 15 places right of the digits.
    char* p = out + 1;
    if (n > 1) {
      digits.store_with_point(out, 1);
      out[17] = last;
      p = out + n + 1;
    } else {
      digits.store(out);
    }
    return write_exponent(x, p);
  }
  if (x < 0) {
    // 0.000ddd: up to three zeros after the point.
    std::memcpy(out, "0.000000", 8);
    char* p = out + 1 - x;
    digits.store(p);
    p[16] = last;
    return p + n;
  }
  const int point = x + 1;  // digits before the point
  if (point >= n) {
    // An integer, with zeros after the digits up to 15 places: fill them first, the digits overwrite the front.
    if (point > 17) std::memcpy(out + point - 16, "0000000000000000", 16);
    digits.store(out);
    out[16] = last;
    return out + point;
  }
  if (point < 16) {
    digits.store_with_point(out, point);
    out[17] = last;
  } else {
    digits.store(out);
    out[16] = '.';
    out[17] = last;
  }
  return out + n + 1;
}

// jq prints infinities as the largest finite double.
constexpr char k_dbl_max_text[] = "1.7976931348623157e+308";

// write_double_shortest with the given 16-digit converter (vector or portable).
template <class Digits>
inline char* write_double_impl(double v, char* out) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7FF) [[unlikely]] {
    if (m != 0) {
      std::memcpy(out, "null", 4);
      return out + 4;
    }
    *out = '-';
    out += bits >> 63;
    std::memcpy(out, k_dbl_max_text, sizeof k_dbl_max_text - 1);
    return out + (sizeof k_dbl_max_text - 1);
  }
  *out = '-';
  out += bits >> 63;
  std::uint64_t c;
  int q;
  if (biased != 0) [[likely]] {
    c = m | (std::uint64_t{1} << 52);
    q = biased - 1075;
    // Integers below 2^53: their own digits are the shortest, and jq prints them plainly.
    if (q <= 0 && q > -53 && (c & ((std::uint64_t{1} << -q) - 1)) == 0) return write_uint64(c >> -q, out);
  } else {
    if (m == 0) {
      *out = '0';
      return out + 1;
    }
    c = m;
    q = -1074;
  }
  const raw_decimal d = schubfach(c, q, m == 0 && biased > 1);
  if (d.f < k_pow10_16 / 10) [[unlikely]] {
    // Subnormals only: fewer than 16 digits; pad to 16 with zeros.
    std::uint64_t f = d.f;
    int e = d.e - 1;
    while (f < k_pow10_16 / 10) {
      f *= 10;
      --e;
    }
    return format_decimal<Digits>(f, '0', e, out);
  }
  // 16 or 17 digits about equally often: selects, not a branch. The 17th digit is kept apart.
  const unsigned sixteen = d.f < k_pow10_16;
  const std::uint64_t u = select(sixteen, d.f, d.u);
  const char last = static_cast<char>('0' + (d.last & (0u - (sixteen ^ 1))));
  return format_decimal<Digits>(u, last, d.e - static_cast<int>(sixteen), out);
}

// Up to four digits of x < 10^4 stored as one 4-byte block; returns the digit count. (Touches 4 bytes.)
inline int write_small(std::uint32_t x, char* p) noexcept {
  const std::uint64_t w = digits8_word(x);
  const int skip = leading_zero_digits(w);
  const int n = skip >= 8 ? 1 : 8 - skip;  // x == 0 prints "0"
  const std::uint64_t shifted = drop_leading_digits(w, 8 - n);
  std::uint32_t low4;
  if constexpr (std::endian::native == std::endian::big) {
    low4 = static_cast<std::uint32_t>(shifted >> 32);
  } else {
    low4 = static_cast<std::uint32_t>(shifted);
  }
  std::memcpy(p, &low4, 4);
  return n;
}

}  // namespace

char* write_uint64(std::uint64_t v, char* out) noexcept {
  if (v < k_pow10_8) {
    // Eight digits at once; the leading zero digits are shifted out of the word before the store.
    const std::uint64_t w = digits8_word(static_cast<std::uint32_t>(v));
    int skip = leading_zero_digits(w);
    skip = skip > 7 ? 7 : skip;  // v == 0 keeps one '0'
    store8(out, drop_leading_digits(w, skip));
    return out + 8 - skip;
  }
  std::uint64_t top = 0;
  if (v >= k_pow10_16) {
    top = v / k_pow10_16;  // 1..1844
    v -= top * k_pow10_16;
    out += write_small(static_cast<std::uint32_t>(top), out);
  }
  const std::uint64_t hi = v / k_pow10_8;
  const std::uint64_t w1 = digits8_word(static_cast<std::uint32_t>(v - hi * k_pow10_8));
  std::uint64_t w0 = digits8_word(static_cast<std::uint32_t>(hi));
  int skip = 0;
  if (top == 0) {
    skip = leading_zero_digits(w0);  // hi >= 1 here, so skip <= 7
    w0 = drop_leading_digits(w0, skip);
  }
  store8(out, w0);
  store8(out + 8 - skip, w1);
  return out + 16 - skip;
}

char* write_int64(std::int64_t v, char* out) noexcept {
  std::uint64_t a = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *out++ = '-';
    a = 0 - a;
  }
  return write_uint64(a, out);
}

namespace detail {

[[gnu::noinline]] char* write_double_portable(double v, char* out) noexcept {
  return write_double_impl<digits16_portable>(v, out);
}

char* write_decimal_digits(std::uint64_t w, int n, int q, char* out) noexcept {
  // Scaled to 16 digits: w * 10^q = (10 u + 0) * 10^(q + n - 17).
  constexpr std::uint64_t scale[16] = {1,           10,           100,           1000,           10000,
                                       100000,      1000000,      10000000,      100000000,      1000000000,
                                       10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000,
                                       1000000000000000};
  return simd::vector_scanners_active()
             ? format_decimal<digits16_vector>(w * scale[16 - n], '0', q + n - 17, out)
             : format_decimal<digits16_portable>(w * scale[16 - n], '0', q + n - 17, out);
}

}  // namespace detail

// The kernel choice's portable digits out of line, so the vector path is laid out as it would be alone.
char* write_double_shortest(double v, char* out) noexcept {
  if (!simd::vector_scanners_active()) [[unlikely]]
    return detail::write_double_portable(v, out);
  return write_double_impl<digits16_vector>(v, out);
}

namespace detail {

decimal_fp to_decimal_shortest(double v) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t c = biased != 0 ? (m | (std::uint64_t{1} << 52)) : m;
  const int q = biased != 0 ? biased - 1075 : -1074;
  if (c == 0 || biased == 0x7FF) return {0, 0};  // zero, infinities and NaN have no digits here
  raw_decimal d = schubfach(c, q, m == 0 && biased > 1);
  while (d.f % 10 == 0) {
    d.f /= 10;
    ++d.e;
  }
  return {d.f, d.e};
}

}  // namespace detail
}  // namespace jview
