// core/filter/builtins.cpp: the natives table: its parts (one per source file, listed in builtins.hpp), the lookup
// by name and arity, the `builtins` list, and the helpers shared by the natives (collect_arg, read_count).
#include "core/filter/builtins.hpp"

#include <algorithm>

namespace jview::filter::detail {

st collect_arg(interp& I, const node* call, std::size_t i, const value& in, const env* e, std::vector<value>& out) {
  auto f = [&](const value& v) -> st {
    out.push_back(v);
    return st::ok;
  };
  return I.eval_arg(call, i, in, e, make_sink(f));
}

bool read_count(const value& nv, double& n, const value*& bad) {
  bad = nullptr;
  n = 0;
  if (compare(nv, value::number(0)) < 0) return false;
  if (nv.is_number())
    n = nv.number();
  else
    bad = &nv;  // a string, array or object: above every number
  return true;
}

st count_down_error(interp& I, const value& n) {
  value ignored;
  return arith(I, '-', n, value::number(1), ignored);
}

namespace {

// The parts, each sorted (sorted_natives); a native's index is its part's base plus its place in the part.
struct native_table {
  static constexpr std::size_t k_parts = 8;
  native_span part[k_parts];
  std::uint32_t base[k_parts];
};

const native_table& table() {
  static const native_table t = [] {
    native_table r{{type_natives(), path_natives(), collection_natives(), generator_natives(), system_natives(),
                     string_natives(), math_time_natives(), regex_natives()},
                    {}};
    std::uint32_t base = 0;
    for (std::size_t k = 0; k < native_table::k_parts; ++k) {
      r.base[k] = base;
      base += static_cast<std::uint32_t>(r.part[k].count);
    }
    return r;
  }();
  return t;
}

}  // namespace

int find_native(std::string_view name, int arity) {
  const native_table& t = table();
  const std::pair<std::string_view, int> key(name, arity);
  for (std::size_t k = 0; k < native_table::k_parts; ++k) {
    const native_def* first = t.part[k].defs;
    const native_def* last = first + t.part[k].count;
    const native_def* it = std::lower_bound(first, last, key, [](const native_def& d, const auto& want) {
      const int c = std::string_view(d.name).compare(want.first);
      return c != 0 ? c < 0 : d.arity < want.second;
    });
    if (it != last && it->name == name && it->arity == arity) return static_cast<int>(t.base[k] + (it - first));
  }
  return -1;
}

const native_def& native_at(std::uint32_t i) {
  const native_table& t = table();
  std::size_t k = native_table::k_parts - 1;
  while (i < t.base[k]) --k;
  return t.part[k].defs[i - t.base[k]];
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const native_span& s : table().part)
    for (std::size_t i = 0; i < s.count; ++i) {
      const native_def& d = s.defs[i];
      if (d.name[0] == '_') continue;
      out.push_back(std::string(d.name) + "/" + std::to_string(d.arity));
    }
  for (auto& n : prelude_names())
    if (n[0] != '_') out.push_back(n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace jview::filter::detail
