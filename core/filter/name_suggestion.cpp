// core/filter/name_suggestion.cpp: the defined functions nearest to an undefined one (name_suggestion.hpp).
#include "core/filter/name_suggestion.hpp"

#include "core/edit_distance.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace jview::filter::detail {

namespace {

// "a", "a or b", "a, b or c".
std::string join_or(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace

std::string nearest_functions(std::string_view name, std::uint32_t arity, const std::vector<defined_function>& defined) {
  // Each defined name with its arities.
  std::map<std::string, std::set<std::uint32_t>, std::less<>> arities;
  for (const defined_function& f : defined)
    if (name.starts_with('_') || !f.name.starts_with('_')) arities[f.name].insert(f.arity);

  // The name with the call's arity if it has it, else with each of its arities.
  auto with_arities = [&](const std::string& n) {
    const std::set<std::uint32_t>& a = arities.at(n);
    std::vector<std::string> out;
    if (a.count(arity) != 0) {
      out.push_back(n + "/" + std::to_string(arity));
    } else {
      for (std::uint32_t x : a) out.push_back(n + "/" + std::to_string(x));
    }
    return out;
  };

  if (auto it = arities.find(name); it != arities.end()) return join_or(with_arities(it->first));
  if (name.size() < 3) return {};

  const std::size_t allowed = name.size() >= 12 ? 3 : name.size() >= 6 ? 2 : 1;
  std::size_t best = allowed + 1;
  std::vector<std::string> closest;
  for (const auto& [n, a] : arities) {
    if (n.size() > name.size() + allowed || name.size() > n.size() + allowed) continue;
    const std::size_t d = edit_distance(name, n);
    if (d > allowed) continue;
    if (d < best) {
      best = d;
      closest.clear();
    }
    if (d == best) closest.push_back(n);
  }
  if (closest.empty() && name.size() >= 4) {
    for (const auto& [n, a] : arities)
      if (n.size() > name.size() && n.starts_with(name)) closest.push_back(n);
    if (closest.size() > 1) closest.clear();
  }
  if (closest.empty() || closest.size() > 3) return {};
  std::vector<std::string> out;
  for (const std::string& n : closest)
    for (std::string& s : with_arities(n)) out.push_back(std::move(s));
  return join_or(out);
}

}  // namespace jview::filter::detail
