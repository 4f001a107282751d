// core/filter/compile_errors.cpp: the undefined names a compile error lists, as jq 1.8 lists them
// (compile_errors.hpp).
#include "core/filter/compile_errors.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace jview::filter::detail {

void error_report::open() {
  open_.emplace_back();
  open_.back().order = next_order_++;
}

void error_report::close() {
  body b = std::move(open_.back());
  open_.pop_back();
  std::vector<compile_error> errors = reported(b);
  if (!errors.empty()) open_.back().subfunctions.emplace_back(b.order, std::move(errors));
}

error_report::place error_report::open_definition() {
  const place where{open_.size() - 1, next_order_};
  open();
  return where;
}

std::vector<compile_error> error_report::close_definition() {
  body b = std::move(open_.back());
  open_.pop_back();
  return reported(b);
}

void error_report::called(const void* def, const place& where, const compile_error& errors) {
  if (!called_.insert(def).second || where.depth >= open_.size()) return;
  std::vector<compile_error> list{errors};
  list.front().more.clear();
  list.insert(list.end(), errors.more.begin(), errors.more.end());
  open_[where.depth].subfunctions.emplace_back(where.order, std::move(list));
}

// A body's own errors, else its subfunctions' in their order in the body (each error once).
std::vector<compile_error> error_report::reported(body& b) {
  if (!b.own.empty()) return std::move(b.own);
  std::stable_sort(b.subfunctions.begin(), b.subfunctions.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<compile_error> out;
  for (auto& [order, errors] : b.subfunctions)
    for (compile_error& e : errors) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const compile_error& x) {
        return x.line == e.line && x.column == e.column && x.file == e.file && x.message == e.message;
      });
      if (!seen) out.push_back(std::move(e));
    }
  return out;
}

bool error_report::take(compile_error& out) {
  while (open_.size() > 1) close();
  std::vector<compile_error> errors = reported(open_.front());
  open_.clear();
  called_.clear();
  open();
  if (errors.empty()) return false;
  out = std::move(errors.front());
  out.more.assign(std::make_move_iterator(errors.begin() + 1), std::make_move_iterator(errors.end()));
  return true;
}

bool jq_inlines_arguments(std::string_view name, std::size_t arity) {
  // jq 1.8's builtins written in C that take arguments (`builtins` of jq 1.8.2, each tried as
  // `NAME($q0; ...), $r`: these report $q0, the others written in jq do not).
  static constexpr std::array<std::pair<std::string_view, std::size_t>, 32> k_c_functions{{
      {"atan2", 2}, {"bsearch", 1}, {"contains", 1}, {"copysign", 2}, {"delpaths", 1}, {"drem", 2},
      {"endswith", 1}, {"fdim", 2}, {"fma", 3}, {"fmax", 2}, {"fmin", 2}, {"fmod", 2},
      {"format", 1}, {"getpath", 1}, {"halt_error", 1}, {"has", 1}, {"hypot", 2}, {"jn", 2},
      {"ldexp", 2}, {"nextafter", 2}, {"nexttoward", 2}, {"pow", 2}, {"remainder", 2}, {"scalb", 2},
      {"scalbln", 2}, {"setpath", 2}, {"split", 1}, {"startswith", 1}, {"strflocaltime", 1}, {"strftime", 1},
      {"strptime", 1}, {"yn", 2},
  }};
  return std::find(k_c_functions.begin(), k_c_functions.end(), std::pair{name, arity}) != k_c_functions.end();
}

}  // namespace jview::filter::detail
