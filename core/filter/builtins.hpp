// core/filter/builtins.hpp: the parts of the natives table, one per source file (builtins.cpp: core, paths,
// collections and control; strings.cpp: strings, formats, JSON text; math_time.cpp: math and dates; regex.cpp:
// Oniguruma). builtins.cpp merges them into one sorted table on first use.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "core/filter/eval.hpp"

namespace jview::filter::detail {

struct native_span {
  const native_def* defs;
  std::size_t count;
};

native_span core_natives();
native_span string_natives();
native_span math_time_natives();
native_span regex_natives();

// Helpers shared by the natives.
inline st type_error(interp& I, const value& v, const char* what) {
  return I.fail(std::string(v.type_name()) + " (" + dump_trunc(v) + ") " + what);
}
// Collects all outputs of filter argument i on `in`.
st collect_arg(interp& I, const node* call, std::size_t i, const value& in, const env* e, std::vector<value>& out);
// String contents of a value known to be a string.
inline std::string str_of(const value& v) { return v.string_copy(); }

}  // namespace jview::filter::detail
