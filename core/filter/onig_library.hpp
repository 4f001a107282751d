// core/filter/onig_library.hpp: Oniguruma's entry points, bound with dlopen when the first regular expression is
// compiled. Linked normally, libonig is loaded and relocated by every process, regex or not: about a dozen page
// faults and a quarter of a millisecond of `jview -n 1` on the machines we measure (see README, start-up).
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
  OnigEncoding utf8;        // ONIG_ENCODING_UTF8
  OnigSyntaxType* perl_ng;  // ONIG_SYNTAX_PERL_NG
};

// The library, loaded and initialised for UTF-8 once per process (thread-safe). nullptr when it cannot be loaded,
// with `why` set to a message for the user.
const onig_library* onig(std::string& why);

}  // namespace jview::filter::detail
