// core/filter/shared_libraries.hpp: the two libraries only some programs need, Oniguruma (regular expressions) and
// libm (math builtins), linked normally; each table holds the library's functions, called through it, and
// Oniguruma is initialised for UTF-8 on first use.
#pragma once

#include <oniguruma.h>

#include <string>

namespace jview::filter::detail {

struct onig_library {
  decltype(&onig_new) compile;
  decltype(&onig_free) free;
  decltype(&onig_search) search;
  decltype(&onig_error_code_to_str) error_text;
  decltype(&onig_number_of_captures) captures;
  decltype(&onig_foreach_name) foreach_name;
  decltype(&onig_region_new) region_new;
  decltype(&onig_region_free) region_free;
  // for the flag `l` (regex_longest.cpp): searches with a callout at the end of the pattern
  decltype(&onig_search_with_param) search_with_param;
  decltype(&onig_match_with_param) match_with_param;
  decltype(&onig_new_match_param) new_match_param;
  decltype(&onig_free_match_param) free_match_param;
  decltype(&onig_set_callout_user_data_of_match_param) set_callout_user_data;
  decltype(&onig_set_callout_of_name) set_callout_of_name;
  decltype(&onig_get_string_by_callout_args) callout_string;
  decltype(&onig_get_start_by_callout_args) callout_start;
  decltype(&onig_get_current_by_callout_args) callout_current;
  OnigEncoding utf8;        // ONIG_ENCODING_UTF8
  OnigSyntaxType* perl_ng;  // ONIG_SYNTAX_PERL_NG
};

// The functions of libm the math builtins call. (frexp, ldexp, modf and copysign are in libc as well, but a direct call
// binds them to libm, which the linker then keeps.)
#define JVIEW_LIBM_UNARY(X)                                                                                         \
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(cbrt) X(ceil) X(cos) X(cosh) X(erf) X(erfc) X(exp) X(exp2)  \
  X(expm1) X(fabs) X(floor) X(lgamma) X(log) X(log10) X(log1p) X(log2) X(logb) X(nearbyint) X(rint) X(round) X(sin)  \
  X(sinh) X(sqrt) X(tan) X(tanh) X(tgamma) X(trunc) X(j0) X(j1) X(y0) X(y1)
#define JVIEW_LIBM_BINARY(X) \
  X(atan2) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(hypot) X(nextafter) X(pow) X(remainder)

struct libm_library {
#define JVIEW_X(name) double (*name)(double);
  JVIEW_LIBM_UNARY(JVIEW_X)
#undef JVIEW_X
#define JVIEW_X(name) double (*name)(double, double);
  JVIEW_LIBM_BINARY(JVIEW_X)
#undef JVIEW_X
  double (*fma)(double, double, double);
  double (*frexp)(double, int*);
  double (*ldexp)(double, int);
  double (*modf)(double, double*);
  double (*lgamma_r)(double, int*);
  double (*nexttoward)(double, long double);
  double (*scalbln)(double, long);
  double (*jn)(int, double);
  double (*yn)(int, double);
};

// Each library's table (Oniguruma initialised for UTF-8 once per process, thread-safe). Never nullptr now that both
// are linked; `why` (a message for the user when it is nullptr) is left empty.
const onig_library* onig(std::string& why);
const libm_library* libm(std::string& why);

}  // namespace jview::filter::detail
