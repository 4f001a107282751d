// core/number.hpp: lazy conversion of number literals (validated by the parser) to int64 or double, and the
// --numbers=shortest text of a literal. Doubles go through fast_float; literals beyond double range are +/-infinity
// in arithmetic, as jq 1.8's (printed as +/-DBL_MAX when computed, as jq). write_number_shortest splits short literals in one pass (eight digits per 64-bit
// word) and converts those that need a double with the Eisel-Lemire method over core/dtoa's 128-bit powers of ten;
// long plain ones (17-digit coordinates) are usually printed as a prefix of their own text, found from the
// Eisel-Lemire product without formatting the double.
#pragma once
#include <cstdint>
#include <string_view>

namespace jview {

// The literal as a double (round to nearest; overflow gives +/-infinity). Text fast_float cannot
// read gives 0.
double number_to_double(std::string_view literal) noexcept;

// The literal as an exact int64 when it is an integer literal that fits; false otherwise.
bool number_to_int64(std::string_view literal, std::int64_t& out) noexcept;

// Writes the literal as --numbers=shortest prints it: the same bytes as
// write_double_shortest(number_to_double(literal)). A literal of at most 15 significant digits whose value is a
// normal double is the only decimal of 15 digits or fewer that reads back as that double, so it is its shortest
// form: its digits are formatted directly, without the double. Long plain ones usually print as a prefix of their
// own text (detail::write_long_literal_shortest). `out` needs k_max_double_chars bytes (core/dtoa.hpp).
char* write_number_shortest(std::string_view literal, char* out) noexcept;

namespace detail {

// A number literal split as (neg ? -1 : 1) * w * 10^q. False when the text is not [-]digits[.digits][e[+-]digits]
// (at least one digit before the exponent), has more than 19 digits before the exponent (leading zeros included)
// or more than 6 exponent digits.
struct decimal_literal {
  std::uint64_t w;
  int q;
  bool neg;
};
bool split_decimal(std::string_view literal, decimal_literal& out) noexcept;

// The double nearest w * 10^q (ties to even) for w != 0, by Eisel-Lemire; false when the result is subnormal,
// infinite, or the 128-bit product cannot decide the rounding (then a slower exact method must be used).
bool decimal_to_double(std::uint64_t w, int q, double& out) noexcept;

// write_number_shortest's path for long plain literals ([-]I.F of 18 to 21 bytes with 16 to 19 significant
// digits, canada.json's -65.613616999999977): the same bytes, taken from the literal's own text, when its shortest
// form is the literal's first digits or those plus one in the last place; nullptr otherwise (and for any other
// shape), when the double must be formatted. Exposed for tests.
char* write_long_literal_shortest(std::string_view literal, char* out) noexcept;

}  // namespace detail
}  // namespace jview
