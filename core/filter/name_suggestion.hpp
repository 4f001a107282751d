// core/filter/name_suggestion.hpp: the defined functions nearest to a call of an undefined one, for the line jview
// adds after jq's compile error (`foo/0 is not defined at <top-level>, line 1, column 1:` ... `did you mean
// floor/0?`), worded as the nearest option to an unknown one (cli/help.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jview::filter::detail {

struct defined_function {
  std::string name;  // as a call names it: "floor", "m::f" (a function of a module imported as m)
  std::uint32_t arity = 0;
};

// What to suggest for a call of `name` with `arity` arguments that is not defined, among `defined` (every function
// the call could see: builtins, the program's definitions and parameters, its modules'): "floor/0";
// "range/1, range/2 or range/3" (the name is defined with other arities); "tostring/0 or tojson/0" (two or three
// names as close). Empty when nothing is close. Close: the same name with other arities; else at most 1 edit
// (insertion, deletion, substitution or swap of adjacent characters) for names up to 5 characters, 2 up to 11,
// 3 from 12 ("flor" -> floor, "tostirng" -> tostring); else, for 4 characters or more, the beginning of exactly one
// name ("ascii_down" -> ascii_downcase). Names beginning with `_` (jq's internals) only for a name that does too.
std::string nearest_functions(std::string_view name, std::uint32_t arity, const std::vector<defined_function>& defined);

}  // namespace jview::filter::detail
