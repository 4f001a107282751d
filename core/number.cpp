// core/number.cpp: number literal conversion (fast_float for doubles, an exact digit loop for integers).
#include "core/number.hpp"

#include <fast_float/fast_float.h>

#include <cfloat>
#include <cmath>

namespace jview {

double number_to_double(std::string_view literal) noexcept {
  double d = 0;
  auto r = fast_float::from_chars(literal.data(), literal.data() + literal.size(), d);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return 0;
  if (std::isinf(d)) d = d > 0 ? DBL_MAX : -DBL_MAX;
  return d;
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
    unsigned d = static_cast<unsigned char>(*p) - '0';
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
