// core/filter/shared_libraries.cpp: the tables of Oniguruma's and libm's functions, filled with the functions
// themselves (both libraries are linked normally).
#include "core/filter/shared_libraries.hpp"

#include <cmath>
#include <math.h>

#include "core/filter/regex_longest.hpp"

namespace jview::filter::detail {

namespace {

onig_library make_onig() {
  onig_library o{};
  o.compile = &onig_new;
  o.free = &onig_free;
  o.search = &onig_search;
  o.error_text = &onig_error_code_to_str;
  o.captures = &onig_number_of_captures;
  o.foreach_name = &onig_foreach_name;
  o.region_new = &onig_region_new;
  o.region_free = &onig_region_free;
  o.search_with_param = &onig_search_with_param;
  o.match_with_param = &onig_match_with_param;
  o.new_match_param = &onig_new_match_param;
  o.free_match_param = &onig_free_match_param;
  o.set_callout_user_data = &onig_set_callout_user_data_of_match_param;
  o.set_callout_of_name = &onig_set_callout_of_name;
  o.callout_string = &onig_get_string_by_callout_args;
  o.callout_start = &onig_get_start_by_callout_args;
  o.callout_current = &onig_get_current_by_callout_args;
  o.utf8 = ONIG_ENCODING_UTF8;
  o.perl_ng = ONIG_SYNTAX_PERL_NG;
  OnigEncoding encodings[1] = {o.utf8};
  onig_initialize(encodings, 1);
  register_longest_callout(o);
  return o;
}

// The assignment picks the double overload of each.
libm_library make_libm() {
  libm_library m{};
#define JVIEW_X(name) m.name = &::name;
  JVIEW_LIBM_UNARY(JVIEW_X)
  JVIEW_LIBM_BINARY(JVIEW_X)
  JVIEW_X(fma) JVIEW_X(frexp) JVIEW_X(ldexp) JVIEW_X(modf) JVIEW_X(lgamma_r) JVIEW_X(nexttoward) JVIEW_X(scalbln) JVIEW_X(jn) JVIEW_X(yn)
#undef JVIEW_X
  return m;
}

}  // namespace

const onig_library* onig(std::string& why) {
  static const onig_library o = make_onig();  // thread-safe static initialisation, once
  why.clear();
  return &o;
}

const libm_library* libm(std::string& why) {
  static const libm_library m = make_libm();
  why.clear();
  return &m;
}

}  // namespace jview::filter::detail
