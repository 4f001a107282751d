// core/filter/prelude.cpp: the builtins written in jq (prelude.jq, embedded by the build as a string literal) and
// their index by name and arity, built when this file is compiled: nothing is read, split or parsed at start-up.
// compile.cpp parses a definition the first time a program calls it. The layout rules the index relies on are at
// the top of prelude.jq; a definition given twice, or text that breaks the rules, is a compile error here.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/eval.hpp"

namespace jview::filter::detail {

namespace {

constexpr std::string_view k_text =
#include "prelude_jq.inc"
    ;

struct prelude_def {
  std::string_view name;
  int arity;
  std::string_view source;  // from `def` to the end of the definition
};

constexpr bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Offsets of the lines that start with "def ".
constexpr bool starts_def(std::string_view t, std::size_t line) { return t.substr(line, 4) == "def "; }

constexpr std::size_t count_defs(std::string_view t) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < t.size(); i = t.find('\n', i) == std::string_view::npos ? t.size() : t.find('\n', i) + 1)
    n += starts_def(t, i);
  return n;
}

// The definition starting at `at`: its name, arity (';'-separated parameters at the first parenthesis level) and
// text up to the next line that starts with neither a space nor a tab.
constexpr prelude_def read_def(std::string_view t, std::size_t at) {
  std::size_t p = at + 4;
  const std::size_t name_start = p;
  while (p < t.size() && is_ident(t[p])) ++p;
  if (p == name_start) throw "prelude.jq: a definition without a name";  // not a constant: a compile error
  prelude_def d{t.substr(name_start, p - name_start), 0, {}};
  if (p < t.size() && t[p] == '(') {
    d.arity = 1;
    for (++p; p < t.size() && t[p] != ')'; ++p) d.arity += t[p] == ';';
  } else if (p >= t.size() || t[p] != ':') {
    throw "prelude.jq: `def NAME` must be followed by '(' or ':'";
  }
  std::size_t end = t.find('\n', at);
  while (end != std::string_view::npos && end + 1 < t.size() && (t[end + 1] == ' ' || t[end + 1] == '\t'))
    end = t.find('\n', end + 1);
  if (end == std::string_view::npos) end = t.size();
  d.source = t.substr(at, end - at);
  return d;
}

constexpr bool def_before(const prelude_def& a, const prelude_def& b) {
  return a.name != b.name ? a.name < b.name : a.arity < b.arity;
}

template <std::size_t N>
constexpr std::array<prelude_def, N> index_defs(std::string_view t) {
  std::array<prelude_def, N> defs{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < t.size(); i = t.find('\n', i) == std::string_view::npos ? t.size() : t.find('\n', i) + 1)
    if (starts_def(t, i)) defs[n++] = read_def(t, i);
  std::sort(defs.begin(), defs.end(), def_before);
  for (std::size_t i = 1; i < N; ++i)
    if (!def_before(defs[i - 1], defs[i])) throw "prelude.jq: a builtin is defined twice";
  return defs;
}

constexpr auto k_defs = index_defs<count_defs(k_text)>(k_text);

}  // namespace

std::string_view find_prelude(std::string_view name, int arity) {
  const prelude_def key{name, arity, {}};
  const auto it = std::lower_bound(k_defs.begin(), k_defs.end(), key, def_before);
  if (it == k_defs.end() || it->name != name || it->arity != arity) return {};
  return it->source;
}

std::vector<std::string> prelude_names() {
  std::vector<std::string> out;
  out.reserve(k_defs.size());
  for (const prelude_def& d : k_defs) out.push_back(std::string(d.name) + "/" + std::to_string(d.arity));
  return out;
}

}  // namespace jview::filter::detail
