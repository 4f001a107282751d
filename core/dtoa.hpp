// Number formatting for output: shortest round-trip doubles in jq 1.8's text format, and integers.
// The double path is a Schubfach-style shortest-digit search (core/dtoa.cpp) over a generated 128-bit table of
// powers of ten (core/dtoa_tables.cpp, from core/gen_dtoa_tables.py); the 16 leading digits are converted at once
// in one SSE2/NEON register, eight at a time in portable code (JVIEW_PORTABLE_ONLY or no SSE2/NEON).
#pragma once

#include <cstddef>
#include <cstdint>

namespace jview {

// Bytes `out` must have room for before write_double_shortest. jq 1.8 prints at most 33 characters for a double
// (e.g. -12345678901234567000000000000000); the writer may also use the bytes past the result up to this bound as
// scratch (it stores 8- and 16-byte blocks), so reserve the whole bound, not the result's length.
constexpr std::size_t k_max_double_chars = 33;

// Bytes `out` must have room for before write_int64 / write_uint64 (20 characters at most, plus block-store scratch).
constexpr std::size_t k_max_int_chars = 21;

// Writes the shortest decimal that reads back (strtod, round to nearest) as exactly `v`, in jq 1.8's format for
// computed numbers, and returns the end pointer. Writes no terminating NUL. The format (jq's jvp_dtoa_fmt):
// with n significant digits d1..dn and the value d1.d2...dn * 10^x,
//   - exponent form when x < -4 or x >= n + 15: "d1.d2...dne+XX" ("d1e+XX" when n == 1); the exponent has a sign
//     and at least two digits: 1e+17, 1e-05, 1.5e+300, 5e-324;
//   - otherwise plain: "123.45", "0.0001" (x >= -4), "12345678901234567000000000000000" (up to 15 zeros added);
//   - 0 is "0", -0 is "-0";
//   - NaN is "null" and +/-infinity is +/-1.7976931348623157e+308 (the largest finite double), as jq prints them.
// `out` must have at least k_max_double_chars writable bytes.
char* write_double_shortest(double v, char* out) noexcept;

// The same bytes as std::to_string(v); `out` must have at least k_max_int_chars writable bytes.
char* write_int64(std::int64_t v, char* out) noexcept;
char* write_uint64(std::uint64_t v, char* out) noexcept;

namespace detail {

// The shortest round-trip decimal of a finite positive double: v = digits * 10^exponent, digits without trailing
// zeros (1 <= digits < 10^17). Exposed for tests.
struct decimal_fp {
  std::uint64_t digits;
  int exponent;
};
decimal_fp to_decimal_shortest(double v) noexcept;

// write_double_shortest with the portable (eight digits at a time) digit path, whatever the build has; the vector
// path must write the same bytes. Exposed for tests and the benchmark.
char* write_double_portable(double v, char* out) noexcept;

// Writes w * 10^q in jq's format, w with n digits (1 <= w < 10^15): what write_double_shortest writes for the double
// nearest w * 10^q when that double is normal (then w's digits are its shortest form; see write_number_shortest in
// core/number.hpp). No sign. `out` must have at least k_max_double_chars writable bytes.
char* write_decimal_digits(std::uint64_t w, int n, int q, char* out) noexcept;

// 128-bit powers of ten, {hi, lo}; entry e - k_pow10_min approximates 10^e from above (see gen_dtoa_tables.py).
struct pow10_128 {
  std::uint64_t hi;
  std::uint64_t lo;
};
inline constexpr int k_pow10_min = -292;
inline constexpr int k_pow10_max = 324;
extern const pow10_128 k_pow10_table[k_pow10_max - k_pow10_min + 1];

}  // namespace detail
}  // namespace jview
