// tests/benchmarks/engines/nlohmann.hpp: nlohmann::json (a fresh json per value, parse without exceptions).
// Objects are std::maps, so members are visited in key order and duplicate keys collapse; the number sum then runs
// in another order (the check allows 1e-9 relative). NDJSON: one parse per line. dump() / dump(2) write numbers
// from their values.
#pragma once
#include <nlohmann/json.hpp>

#include "engines/common.hpp"

namespace jview::bench {

class nlohmann_engine final : public engine {
 public:
  const char* name() const override { return "nlohmann"; }
  bool supports(workload) const override { return true; }

  bool run(workload w, const input& in, result& r) override {
    if (!in.multi) return one(w, std::string_view(in.data, in.size), in, r);
    for (std::string_view line : in.lines) {
      if (!one(w, line, in, r)) return false;
      if (is_dump(w)) r.text.push_back('\n');
    }
    return true;
  }

 private:
  using json = nlohmann::json;

  static bool one(workload w, std::string_view text, const input& in, result& r) {
    const json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) return false;
    switch (w) {
      case workload::parse: ++r.counts.values; return true;
      case workload::traverse: count(j, r.counts); return true;
      case workload::select: select(j, in.path, 0, r.selected); return true;
      case workload::dump_compact:
      case workload::dump_shortest: r.text += j.dump(); return true;
      case workload::dump_pretty: r.text += j.dump(2); return true;
      case workload::stage1: return false;  // (not offered: has_stage1)
    }
    return false;
  }

  static void count(const json& j, stats& s) {
    ++s.values;
    switch (j.type()) {
      case json::value_t::object:
        for (const auto& [k, v] : j.get_ref<const json::object_t&>()) {
          s.string_bytes += k.size();
          count(v, s);
        }
        break;
      case json::value_t::array:
        for (const json& c : j.get_ref<const json::array_t&>()) count(c, s);
        break;
      case json::value_t::number_integer:
      case json::value_t::number_unsigned:
      case json::value_t::number_float: s.add_number(j.get<double>()); break;
      case json::value_t::string: s.string_bytes += j.get_ref<const std::string&>().size(); break;
      default: break;
    }
  }

  static void select(const json& j, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    if (step == path.size()) {
      if (j.is_string()) out.push_back(j.get_ref<const std::string&>());
      return;
    }
    const path_step& s = path[step];
    if (s.kind == path_step::key) {
      if (!j.is_object()) return;
      auto it = j.find(s.name);
      if (it != j.end()) select(*it, path, step + 1, out);
    } else if (s.kind == path_step::index) {
      if (j.is_array() && s.n < j.size()) select(j[s.n], path, step + 1, out);
    } else if (j.is_array() || j.is_object()) {
      for (const json& c : j) select(c, path, step + 1, out);
    }
  }
};

}  // namespace jview::bench
