// core/filter/compile_errors.hpp: which undefined names a program's compile error lists, and in which order, as
// jq 1.8 reports them. jq compiles a function body's own code first, and its subfunctions (its local definitions
// that are called, and the arguments of calls to functions written in jq, which are closures) only when that code
// had no error, each in the order it has in the body: `def f(a): a; f($q), $r` reports $r alone, `def f(a): a;
// f($q), f($s)` both, `def g: $q; g, $r` $r alone. The resolver (compile.cpp) walks the program and tells the
// report where such bodies begin and end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/filter/program.hpp"

namespace jview::filter::detail {

class error_report {
 public:
  // Where a definition lives: the body it is defined in (by depth) and its place among that body's subfunctions.
  struct place {
    std::size_t depth = 0;
    std::uint64_t order = 0;
  };

  error_report() { open(); }

  // An undefined name in the innermost open body.
  void add(compile_error e) { open_.back().own.push_back(std::move(e)); }

  // A closure (an argument of a call to a function written in jq, or a side of an assignment) begins; it ends.
  void open();
  void close();

  // A definition's body begins (returns where the definition lives), ends (returns the errors it reports: kept by
  // the caller until the definition is called), or is left by an exception (back to the depth it began at).
  place open_definition();
  std::vector<compile_error> close_definition();
  std::size_t depth() const { return open_.size(); }
  void unwind_to(std::size_t depth) { open_.resize(depth); }

  // A call of definition `def` (once per definition), whose body reported `errors`: a subfunction of the body it
  // lives in.
  void called(const void* def, const place& where, const compile_error& errors);

  // The errors the outermost body reports (the first, with the others as its `more`); false when there are none.
  // The report starts over.
  bool take(compile_error& out);

 private:
  struct body {
    std::vector<compile_error> own;
    std::vector<std::pair<std::uint64_t, std::vector<compile_error>>> subfunctions;  // (order, reported errors)
    std::uint64_t order = 0;
  };
  static std::vector<compile_error> reported(body& b);

  std::vector<body> open_;
  std::uint64_t next_order_ = 1;  // 0: definitions of modules, before everything of the body that calls them
  std::unordered_set<const void*> called_;
};

// Whether jq 1.8 computes the arguments of builtin `name/arity` in the caller's body (it is a C function:
// getpath, has, setpath, split/1, the two-argument math functions, ...), not as closures.
bool jq_inlines_arguments(std::string_view name, std::size_t arity);

}  // namespace jview::filter::detail
