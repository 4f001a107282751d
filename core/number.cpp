// core/number.cpp: number literal conversion (fast_float for doubles, an exact digit loop for integers) and the
// --numbers=shortest text of a literal (a one-pass splitter, then the digits directly or Eisel-Lemire and dtoa).
#include "core/number.hpp"

#include <fast_float/fast_float.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "core/dtoa.hpp"

namespace jview {
namespace {

__extension__ typedef unsigned __int128 u128;

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

double slow_to_double(std::string_view literal) noexcept {
  double d = 0;
  auto r = fast_float::from_chars(literal.data(), literal.data() + literal.size(), d);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return 0;
  if (std::isinf(d)) d = d > 0 ? DBL_MAX : -DBL_MAX;
  return d;
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
  // do. Longer ones (canada.json's 17-digit coordinates) rarely do: fast_float and the shortest search.
  detail::decimal_literal d;
  if (literal.size() <= 17 && detail::split_decimal(literal, d)) {
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
