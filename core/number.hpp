// core/number.hpp: lazy conversion of number literals (validated by the parser) to int64 or double.
// Doubles go through fast_float; literals beyond double range saturate to +/-DBL_MAX, as jq 1.8 does.
#pragma once
#include <cstdint>
#include <string_view>

namespace jview {

// The literal as a double (round to nearest; overflow gives +/-1.7976931348623157e308).
double number_to_double(std::string_view literal) noexcept;

// The literal as an exact int64 when it is an integer literal that fits; false otherwise.
bool number_to_int64(std::string_view literal, std::int64_t& out) noexcept;

}  // namespace jview
