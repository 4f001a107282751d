// core/number.cpp: number literal conversion (fast_float for doubles, an exact digit loop for integers) and the
// --numbers=shortest text of a literal (a one-pass splitter, then the digits directly or Eisel-Lemire and dtoa;
// for long plain literals, the literal's own text cut where the shortest form ends).
#include "core/number.hpp"

#include <fast_float/fast_float.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "core/dtoa.hpp"
#include "simd/kernels.hpp"

#if !defined(JVIEW_PORTABLE_ONLY) && (defined(__SSE2__) || defined(_M_X64))
#define JVIEW_NUMBER_SSE2 1
#include <emmintrin.h>
#endif

namespace jview {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

// c ? a : b without a branch (GCC turns a ?: on a coin-flip condition into a branch).
inline std::uint64_t select_u64(unsigned c, std::uint64_t a, std::uint64_t b) noexcept {
  return b ^ ((a ^ b) & (0 - static_cast<std::uint64_t>(c)));
}

constexpr std::uint64_t k_pow10_u64[20] = {1,
                                           10,
                                           100,
                                           1000,
                                           10000,
                                           100000,
                                           1000000,
                                           10000000,
                                           100000000,
                                           1000000000,
                                           10000000000,
                                           100000000000,
                                           1000000000000,
                                           10000000000000,
                                           100000000000000,
                                           1000000000000000,
                                           10000000000000000,
                                           100000000000000000,
                                           1000000000000000000,
                                           10000000000000000000u};

constexpr std::uint64_t k_ones = 0x0101010101010101;

// The value of eight digit bytes (0..9 each, the first digit in the lowest byte): pairs, then
// 10^6 p0 + 10^4 p1 + 100 p2 + p3 with two multiplications.
inline std::uint64_t value8(std::uint64_t d) noexcept {
  d = d * 10 + (d >> 8);  // byte 2i: 10 d[2i] + d[2i+1]
  return (((d & 0x000000FF000000FF) * (100 + (std::uint64_t{1000000} << 32))) +
          (((d >> 16) & 0x000000FF000000FF) * (1 + (std::uint64_t{10000} << 32)))) >>
         32;
}

// Nonzero bytes where x's byte is not an ASCII digit. Only the lowest nonzero byte is meaningful (a carry out of a
// byte >= 0xFA reaches the byte above it), which is all the callers use.
inline std::uint64_t non_digits(std::uint64_t x) noexcept {
  return ((x & 0xF0F0F0F0F0F0F0F0) | (((x + 6 * k_ones) & 0xF0F0F0F0F0F0F0F0) >> 4)) ^ (0x33 * k_ones);
}

// Adds the digit run at p to w (w = w * 10^k + run) and returns its end. Eight bytes at a time: from p when eight
// bytes are left, else the eight bytes ending at `end` when the literal (from `begin`) is that long, with the bytes
// before p replaced by '0' (leading zeros). The digits found are moved to the top of the word, so the bytes after
// the run never count.
inline const char* read_digits(const char* p, const char* end, const char* begin, std::uint64_t& w) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    for (;;) {
      std::uint64_t x;
      int skip;  // bytes of the word before p
      if (end - p >= 8) {
        std::memcpy(&x, p, 8);
        skip = 0;
      } else if (end - begin >= 8 && p < end) {
        std::memcpy(&x, end - 8, 8);
        skip = static_cast<int>(8 - (end - p));
        const std::uint64_t before = (std::uint64_t{1} << (8 * skip)) - 1;  // skip <= 7
        x = (x & ~before) | (0x30 * k_ones & before);
      } else {
        break;
      }
      const std::uint64_t nd = non_digits(x);
      const int k = nd == 0 ? 8 : std::countr_zero(nd) >> 3;  // leading digit bytes, the '0's included
      const int run = k - skip;
      if (run > 0) w = w * k_pow10_u64[run] + value8((x - 0x30 * k_ones) << (8 * (8 - k)));
      p += run;
      if (k < 8 || skip != 0) return p;
    }
  }
  while (p < end && static_cast<unsigned>(*p - '0') < 10) w = w * 10 + static_cast<unsigned>(*p++ - '0');
  return p;
}

// Number of decimal digits of 1 <= w < 10^19.
inline int decimal_digits(std::uint64_t w) noexcept {
  const int t = ((64 - std::countl_zero(w)) * 1233) >> 12;  // floor(bits * log10 2): n - 1 or n
  return t + (w >= k_pow10_u64[t]);
}

constexpr std::uint64_t k_low7 = 0x7F * k_ones;
constexpr std::uint64_t k_high1 = 0x80 * k_ones;

inline std::uint64_t load8(const char* p) noexcept {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// ceil(2^32 / 10^l), l = 0..4: floor(x / 10^l) = (x * k_recip_pow10[l]) >> 32 for x < 10^4.
constexpr std::uint64_t k_recip_pow10[5] = {std::uint64_t{1} << 32, 429496730, 42949673, 4294968, 429497};

// write_number_shortest for long plain literals: [-]I.F of 18 to 21 bytes, 16 to 19 significant digits, the point
// within the first 8 bytes of the body left-padded to 20 (canada.json's -65.613616999999977). The shortest text of
// the double v nearest x = w * 10^q (w the digits) is found from the literal itself, without v's digits:
//  - in units of 10^q (the literal's last digit), v's rounding interval has width W = 2^e2 / 10^q (e2: v's
//    exponent, v = c * 2^e2) and center x + delta, delta = (c - t) W where t = x / 2^e2; both come with the
//    Eisel-Lemire product (t's fraction) and 10^-q from core/dtoa's table, in fixed point (2^-40 units);
//  - the search of core/dtoa.cpp (Schubfach) answers, with u = 10^j0 <= W < 10u: the multiple of 10u inside the
//    interval if there is one (at most one), else the multiple of u nearest its center. x is inside the interval, so
//    the multiple of 10u can only be floor(w / 10u) * 10u or the next one; the multiple of u must be floor(w / u) * u
//    or the next one. Either is the literal's first digits, plus r = 0 or 1 in the last place: the text is the
//    literal's, cut after that place, its trailing '0's (r = 0) or '9's (r = 1) dropped and the digit before them
//    incremented.
// Comparisons closer than 2^-36 (the fixed-point error is below 2^-39), a t within 2^-60 of a rounding tie, c = 2^52
// or 2^53 (an uneven interval at a power of two), a same-length answer other than the literal's digits or those
// plus one, or a carry into the integer digits: nullptr, and the caller takes the general path (the result is then
// computed from the double, exactly). The differential tests in tests/unit/core/dtoa_test.cpp check the two agree.
char* long_literal_shortest(const char* lit, std::size_t n, char* out) noexcept {
  if constexpr (std::endian::native != std::endian::little) {
    return nullptr;
  } else {
    const bool neg = lit[0] == '-';
    const char* b = lit + neg;
    const int m = static_cast<int>(n) - neg;  // body length, 17..21
    if (m > 20) return nullptr;
    // The body left-padded with '0' to 20 bytes, P[0..20): three words (the last one holds P[16..20) high).
    const int pad = 20 - m;  // 0..3
    const std::uint64_t fill = (std::uint64_t{1} << (8 * pad)) - 1;
    std::uint64_t p0 = (load8(b) << (8 * pad)) | (0x30 * k_ones & fill);
    const std::uint64_t p1 = load8(b + m - 12);
    std::uint32_t tail;
    std::memcpy(&tail, b + m - 4, 4);
    const std::uint64_t p2 = (std::uint64_t{tail} << 32) | 0x30303030;
    // The point's byte in p0 (exact zero-byte test), turned into a '0' for the digit test ('.' + 2 == '0').
    const std::uint64_t y = p0 ^ (0x2E * k_ones);
    const std::uint64_t dot = ~(((y & k_low7) + k_low7) | y) & k_high1;
    p0 += (dot >> 7) * 2;
    // Every byte a digit: + 0x46 sets bit 7 from 0x3A up, - 0x30 below 0x30; carries and borrows leave only
    // non-digit bytes, so the lowest non-digit byte is always flagged.
    const std::uint64_t nd = ((p0 + 0x46 * k_ones) | (p0 - 0x30 * k_ones) | (p1 + 0x46 * k_ones) |
                              (p1 - 0x30 * k_ones) | (p2 + 0x46 * k_ones) | (p2 - 0x30 * k_ones)) &
                             k_high1;
    if ((nd | (dot & (dot - 1))) != 0 || dot == 0) return nullptr;  // one point, digits elsewhere
    const int dp = std::countr_zero(dot) >> 3;  // the point's index in P
    const int int_digits = dp - pad;
    // At least one digit before the point, and no leading zero unless it is the only one (as the text is copied).
    if (int_digits < 1 || (int_digits > 1 && b[0] == '0')) return nullptr;
    // The digits without the point: the bytes up to the point move one place up, a '0' comes in first.
    const std::uint64_t upto = ((dot >> 7) << 8) - 1;  // bytes 0..dp
    const std::uint64_t q0 = ((((p0 << 8) | 0x30) & upto) | (p0 & ~upto));
    const std::uint64_t last4 = value8(p2 - 0x30 * k_ones);  // the last four digits
    const std::uint64_t w =
        value8(q0 - 0x30 * k_ones) * 1000000000000 + value8(p1 - 0x30 * k_ones) * 10000 + last4;
    if (w < k_pow10_u64[15]) return nullptr;
    const int q = dp - 19;  // -19..-12: x is in [10^-4, 10^7), a normal double
    // The checks below are collected and tested once: they are rarely true, and some are coin flips to compute.
    unsigned fail = 0;

    // Eisel-Lemire's product, both halves: (hi:lo) = t * 2^(74 + upper) with an error below 2 units of lo (the
    // table rounds 10^q up by less than one unit, the low product is truncated).
    const detail::pow10_128& tq = detail::k_pow10_table[q - detail::k_pow10_min];
    const int lz = std::countl_zero(w);
    const std::uint64_t wn = w << lz;
    const u128 prod = static_cast<u128>(wn) * tq.hi + static_cast<std::uint64_t>((static_cast<u128>(wn) * tq.lo) >> 64);
    const std::uint64_t hi = static_cast<std::uint64_t>(prod >> 64);
    const std::uint64_t lo = static_cast<std::uint64_t>(prod);
    const unsigned upper = static_cast<unsigned>(hi >> 63);
    const std::uint64_t frac = (hi << (54 - upper)) | (lo >> (10 + upper));  // t's fraction, 2^-64 units
    const std::uint64_t c = (hi >> (10 + upper)) + (frac >> 63);             // round(t); q < -4: no exact tie
    fail |= frac - ((std::uint64_t{1} << 63) - 16) < 32;                     // too close to a tie to round
    fail |= (c & ((std::uint64_t{1} << 52) - 1)) == 0;                        // c = 2^52 or 2^53
    // W = 2^e2 / 10^q = g * 2^(sw - 63), g = 10^-q's table entry, since e2 + floor(-q log2 10) = 10 - lz + upper.
    const std::uint64_t g = detail::k_pow10_table[-q - detail::k_pow10_min].hi;
    const int sw = 10 - lz + static_cast<int>(upper);  // -4..11 (W from 0.11 to 2220)
    const std::int64_t wf = static_cast<std::int64_t>(g >> (23 - sw));  // W * 2^40
    // delta = (c - t) W: c - t is -frac read as a signed 64-bit fraction (|c - t| <= 1/2).
    const std::int64_t rho = static_cast<std::int64_t>(0 - frac);
    const std::int64_t delta =
        static_cast<std::int64_t>((static_cast<i128>(rho) * static_cast<std::int64_t>(g >> 1)) >> 64) >> (22 - sw);
    // j0 = floor(log10 W), -1..3 (W is never a power of ten here).
    constexpr std::int64_t one = std::int64_t{1} << 40;
    const int j0 = (wf >= one) + (wf >= 10 * one) + (wf >= 100 * one) + (wf >= 1000 * one) - 1;
    // Offsets of the center above the literal's digits cut at 10^l1 and 10^l0: e = (w mod 10^l) + delta.
    const int l1 = j0 + 1;
    const int l0 = j0 < 0 ? 0 : j0;
    const std::uint64_t rem1 = last4 - ((last4 * k_recip_pow10[l1]) >> 32) * k_pow10_u64[l1];
    const std::uint64_t rem0 = last4 - ((last4 * k_recip_pow10[l0]) >> 32) * k_pow10_u64[l0];
    const std::int64_t e1 = static_cast<std::int64_t>(rem1 << 40) + delta;
    const std::int64_t e0 = static_cast<std::int64_t>(rem0 << 40) + delta;
    const std::int64_t half = wf >> 1;
    const std::int64_t u1 = static_cast<std::int64_t>(k_pow10_u64[l1] << 40);
    const std::int64_t u0 = static_cast<std::int64_t>(k_pow10_u64[l0] << 40);
    constexpr std::int64_t eps = 16;  // 2^-36
    const auto near = [](std::int64_t a, std::int64_t b) {
      return static_cast<unsigned>(static_cast<std::uint64_t>(a - b + eps) < 2 * eps);
    };
    // The multiple of 10u below the literal (the cut digits dropped) or the one above, inside the interval.
    const unsigned in_low = e1 < half;
    const unsigned in_high = e1 > u1 - half;
    const unsigned shorter = in_low | in_high;
    fail |= near(e1, half) | near(e1, u1 - half);
    // Else the multiple of u nearest the center: the cut digits dropped (r = 0) or one added (r = 1), when the
    // literal has that digit (j0 >= 0).
    const unsigned up = e0 > u0 / 2;
    fail |= near(e0, u0 / 2);
    fail |= (shorter ^ 1) & ((e0 < eps - u0 / 2) | (e0 > u0 + u0 / 2 - eps) | (j0 < 0));
    const unsigned r = static_cast<unsigned>(select_u64(shorter, in_high, up));
    const int cut = static_cast<int>(
        select_u64(shorter, static_cast<std::uint64_t>(l1), static_cast<std::uint64_t>(l0)));

    // The answer's last digit is the literal's byte pos (at least 12 digits follow the point). Its trailing zeros
    // are the '0's (r = 0) or '9's (r = 1) that end there; they stop at the point.
    const int pos = static_cast<int>(n) - 1 - cut;
    const int point = neg + int_digits;
    int t = pos;
#if defined(JVIEW_NUMBER_SSE2)
    if (simd::vector_scanners_active()) [[likely]] {
      const __m128i lo16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lit));
      const __m128i hi16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lit + n - 16));
      const int sh = static_cast<int>(n) - 16;
      const std::uint32_t zeros =
          static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo16, _mm_set1_epi8('0')))) |
          (static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi16, _mm_set1_epi8('0')))) << sh);
      const std::uint32_t nines =
          static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo16, _mm_set1_epi8('9')))) |
          (static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi16, _mm_set1_epi8('9')))) << sh);
      const std::uint32_t same = static_cast<std::uint32_t>(select_u64(r, nines, zeros));  // not a branch on r
      // Bits above pos shifted out; bit 0 of the shifted word is 0 (pos <= 20), so its complement is never 0.
      t = pos - std::countl_zero(~(same << (31 - pos)) | 1u);
    } else
#endif
    {
      const char c9 = static_cast<char>('0' + 9 * r);
      while (t > point && lit[t] == c9) --t;
    }
    fail |= r & (t == point);  // the carry would reach the integer digits
    if (fail) return nullptr;
    std::memcpy(out, lit, 16);
    std::memcpy(out + n - 16, lit + n - 16, 16);
    out[t] = static_cast<char>(lit[t] + static_cast<char>(r));
    return out + t + (t != point);  // an all-zero fraction is cut with its point
  }
}

double slow_to_double(std::string_view literal) noexcept {
  double d = 0;
  auto r = fast_float::from_chars(literal.data(), literal.data() + literal.size(), d);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return 0;
  return d;  // beyond the double range: +/-infinity, as jq 1.8's value of the literal (printing keeps the literal)
}

}  // namespace

namespace detail {

bool split_decimal(std::string_view literal, decimal_literal& out) noexcept {
  const char* begin = literal.data();
  const char* end = begin + literal.size();
  const char* p = begin;
  const bool neg = p < end && *p == '-';
  p += neg;
  std::uint64_t w = 0;
  const char* s = p;
  p = read_digits(p, end, begin, w);
  long digits = p - s;
  int frac = 0;
  if (p < end && *p == '.') {
    s = ++p;
    p = read_digits(p, end, begin, w);
    frac = static_cast<int>(p - s);
    digits += frac;
  }
  if (digits == 0 || digits > 19) return false;
  int e = 0;
  if (p < end && (*p | 0x20) == 'e') {
    ++p;
    const bool eneg = p < end && *p == '-';
    p += p < end && (*p == '-' || *p == '+');
    s = p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10 && p - s < 6) e = e * 10 + (*p++ - '0');
    if (p == s) return false;
    if (eneg) e = -e;
  }
  if (p != end) return false;
  out = {w, e - frac, neg};
  return true;
}

char* write_long_literal_shortest(std::string_view literal, char* out) noexcept {
  if (literal.size() < 18 || literal.size() > 21) return nullptr;
  return long_literal_shortest(literal.data(), literal.size(), out);
}

bool decimal_to_double(std::uint64_t w, int q, double& out) noexcept {
  // Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021) with the same 128-bit powers of ten
  // as fast_float: truncated, except 10^-27..10^-1 rounded up. dtoa's table holds floor + 1 for every power.
  if (q < k_pow10_min || q > 308) return false;
  const pow10_128& g = k_pow10_table[q - k_pow10_min];
  std::uint64_t t_hi = g.hi;
  std::uint64_t t_lo = g.lo;
  if (q < -27 || q >= 0) {
    t_hi -= t_lo == 0;
    t_lo -= 1;
  }
  const int lz = std::countl_zero(w);
  w <<= lz;
  const u128 first = static_cast<u128>(w) * t_hi;
  std::uint64_t hi = static_cast<std::uint64_t>(first >> 64);
  std::uint64_t lo = static_cast<std::uint64_t>(first);
  if ((hi & 0x1FF) == 0x1FF) {  // the low product may carry into the 55 bits kept
    const std::uint64_t second = static_cast<std::uint64_t>((static_cast<u128>(w) * t_lo) >> 64);
    lo += second;
    hi += lo < second;
  }
  // Undecided: the truncation may hide a carry (exact products for 10^-27..10^55 cannot).
  if (lo == ~std::uint64_t{0} && (q < -27 || q > 55)) return false;
  const int upper = static_cast<int>(hi >> 63);
  std::uint64_t mant = hi >> (upper + 9);
  int power2 = ((217706 * q) >> 16) + 63 + upper - lz + 1023;
  if (power2 <= 0) return false;  // subnormal
  // Exactly halfway between two doubles (possible for 10^-4..10^23 only): round to even.
  if (lo <= 1 && q >= -4 && q <= 23 && (mant & 3) == 1 && (mant << (upper + 9)) == hi) mant &= ~std::uint64_t{1};
  mant += mant & 1;
  mant >>= 1;
  if (mant >= (std::uint64_t{2} << 52)) {
    mant = std::uint64_t{1} << 52;
    ++power2;
  }
  if (power2 >= 0x7FF) return false;  // infinite
  out = std::bit_cast<double>((mant & ((std::uint64_t{1} << 52) - 1)) | (static_cast<std::uint64_t>(power2) << 52));
  return true;
}

}  // namespace detail

// fast_float alone: measured faster than split_decimal + decimal_to_double (canada's literals 12.6 vs 16.4 ns,
// mesh's 5.9 vs 12 ns), whose branches on the digit counts mispredict more.
double number_to_double(std::string_view literal) noexcept { return slow_to_double(literal); }

char* write_number_shortest(std::string_view literal, char* out) noexcept {
  // Literals of up to 17 bytes may have 15 significant digits or fewer: split them and skip the double when they
  // do. Longer plain ones (canada.json's 17-digit coordinates) usually print as a prefix of their own text
  // (long_literal_shortest); the others: fast_float and the shortest search.
  if (literal.size() <= 17) {
    detail::decimal_literal d;
    if (detail::split_decimal(literal, d)) {
      *out = '-';
      out += d.neg;
      if (d.w == 0) {
        *out = '0';
        return out + 1;
      }
      if (d.w < k_pow10_u64[15]) {
        const int n = decimal_digits(d.w);
        const int x = d.q + n - 1;  // exponent of the first digit
        if (x >= -307 && x <= 307) return detail::write_decimal_digits(d.w, n, d.q, out);
      }
      double v;
      if (detail::decimal_to_double(d.w, d.q, v)) [[likely]]
        return write_double_shortest(v, out);
      out -= d.neg;
    }
  } else if (literal.size() <= 21) {
    if (char* end = long_literal_shortest(literal.data(), literal.size(), out)) [[likely]]
      return end;
  }
  return write_double_shortest(slow_to_double(literal), out);
}

bool number_to_int64(std::string_view literal, std::int64_t& out) noexcept {
  const char* p = literal.data();
  const char* end = p + literal.size();
  bool neg = false;
  if (p < end && *p == '-') {
    neg = true;
    ++p;
  }
  if (p == end || end - p > 19) return false;
  std::uint64_t v = 0;
  for (; p < end; ++p) {
    unsigned d = static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0';
    if (d > 9) return false;
    v = v * 10 + d;
  }
  if (neg) {
    if (v > static_cast<std::uint64_t>(INT64_MAX) + 1) return false;
    out = static_cast<std::int64_t>(0 - v);
  } else {
    if (v > static_cast<std::uint64_t>(INT64_MAX)) return false;
    out = static_cast<std::int64_t>(v);
  }
  return true;
}

}  // namespace jview
