// core/filter/builtins.hpp: the parts of the natives table, one per source file:
//   builtins_types.cpp        types and selection (type, length, arrays ... normals, select, empty, error), recurse/0
//   builtins_paths.cpp        paths (path, paths, getpath, setpath, delpaths, del), to_entries, from_entries
//   builtins_collections.cpp  keys, has, contains, add, sort(_by), group_by, unique(_by), min/max(_by), flatten ...
//   builtins_generators.cpp   range, limit, skip, first, last, isempty, any, all, repeat, while, until, map
//   builtins_system.cpp       environment, I/O and control (env, input(s), debug, stderr, halt(_error), modulemeta)
//   strings.cpp               strings, formats, JSON text;  math_time.cpp: math and dates;  regex.cpp: Oniguruma
// Each part is sorted by (name, arity) when it is compiled (sorted_natives); lookups search the parts in turn
// (builtins.cpp), so nothing is built or sorted at start-up. The builtins written in jq are in prelude.jq; a native
// that jq 1.8 defines in jq keeps that definition in reference.jq, checked against it by reference_test.cpp.
//
// Natives are named by kind, the three kinds of native_def (eval.hpp): f_name is a value native (vfn: one output
// per combination of argument values), g_name a generator (gen: the call node, filter arguments, a sink), p_name the
// path-mode version of a generator (path: for path(f), assignments and del); math and dates name theirs m_ and d_.
#pragma once
#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/filter/eval.hpp"

namespace jview::filter::detail {

// A number as jq's C cast makes it an int (a long) on x86-64, jq 1.8's reference build: truncated toward zero, and
// NaN or a value outside the type's range the type's minimum (CVTTSD2SI's "integer indefinite"). Without the cast's
// undefined behaviour.
inline int c_int_of(double d) noexcept { return d > -2147483649.0 && d < 2147483648.0 ? static_cast<int>(d) : INT_MIN; }
inline long c_long_of(double d) noexcept {
  return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? static_cast<long>(d) : LONG_MIN;
}

struct native_span {
  const native_def* defs;
  std::size_t count;
};

// A part's definitions in (name, arity) order, each pair once: written `constexpr auto k_part =
// sorted_natives(std::to_array<native_def>({...}));`.
constexpr bool native_before(const native_def& a, const native_def& b) noexcept {
  const std::string_view x(a.name), y(b.name);
  return x != y ? x < y : a.arity < b.arity;
}
template <std::size_t N>
constexpr std::array<native_def, N> sorted_natives(std::array<native_def, N> defs) {
  std::sort(defs.begin(), defs.end(), native_before);
  for (std::size_t i = 1; i < N; ++i)
    if (!native_before(defs[i - 1], defs[i])) throw "a native is defined twice";  // not a constant: a compile error
  return defs;
}

native_span type_natives();
native_span path_natives();
native_span collection_natives();
native_span generator_natives();
native_span system_natives();
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
// A count or depth $n of limit, skip and flatten, read as jq 1.8.2's definitions read it: `if $n < 0 then error`
// by jq's order of values (null and booleans below every number, NaN below every other number), and a countdown
// `$n - 1` that fails for a string, array or object. False: $n < 0. Else `bad` is null and n the number, or `bad`
// is $n, whose countdown fails (count_down_error) at the first step.
bool read_count(const value& nv, double& n, const value*& bad);
st count_down_error(interp& I, const value& n);

}  // namespace jview::filter::detail
