// tests/benchmarks/engines/boost_json.hpp: Boost.JSON 1.81 as its documentation advises for speed: a parser per
// run and a monotonic_resource per value (NDJSON: per line) that the value is built in. Output through
// boost::json::serializer in 64 KiB pieces; numbers are written from their values.
// Boost 1.81 has no pretty printer: no dump-pretty.
#pragma once
#include <boost/json.hpp>

#include "engines/common.hpp"

namespace jview::bench {

class boost_json_engine final : public engine {
 public:
  const char* name() const override { return "boost-json"; }
  bool supports(workload w) const override { return w != workload::dump_pretty; }

  bool run(workload w, const input& in, result& r) override {
    if (w == workload::dump_pretty) return false;
    boost::json::parse_options opts;
    opts.max_depth = 10000;  // the default (32) is below jview's and jq's limit
    boost::json::parser p({}, opts);
    if (!in.multi) {
      boost::json::monotonic_resource mr;
      return one(w, std::string_view(in.data, in.size), in, r, p, mr);
    }
    for (std::string_view line : in.lines) {
      // A resource per line: 1.81's monotonic_resource::release() leaves it unable to allocate again.
      boost::json::monotonic_resource mr;
      if (!one(w, line, in, r, p, mr)) return false;
      if (is_dump(w)) r.text.push_back('\n');
    }
    return true;
  }

 private:
  using value = boost::json::value;

  bool one(workload w, std::string_view text, const input& in, result& r, boost::json::parser& p,
           boost::json::monotonic_resource& mr) {
    p.reset(&mr);
    boost::json::error_code ec;
    p.write(text.data(), text.size(), ec);
    if (ec) return false;
    const value v = p.release();
    switch (w) {
      case workload::parse: ++r.counts.values; return true;
      case workload::traverse: count(v, r.counts); return true;
      case workload::select: select(v, in.path, 0, r.selected); return true;
      case workload::dump_compact:
      case workload::dump_shortest: {
        serializer_.reset(&v);
        while (!serializer_.done()) {
          const std::string_view piece = serializer_.read(chunk_, sizeof chunk_);
          r.text.append(piece.data(), piece.size());
        }
        return true;
      }
      case workload::dump_pretty: return false;
      case workload::stage1: return false;  // (not offered: has_stage1)
    }
    return false;
  }

  static void count(const value& v, stats& s) {
    ++s.values;
    switch (v.kind()) {
      case boost::json::kind::object:
        for (const auto& kv : v.get_object()) {
          s.string_bytes += kv.key().size();
          count(kv.value(), s);
        }
        break;
      case boost::json::kind::array:
        for (const value& c : v.get_array()) count(c, s);
        break;
      case boost::json::kind::int64: s.add_number(static_cast<double>(v.get_int64())); break;
      case boost::json::kind::uint64: s.add_number(static_cast<double>(v.get_uint64())); break;
      case boost::json::kind::double_: s.add_number(v.get_double()); break;
      case boost::json::kind::string: s.string_bytes += v.get_string().size(); break;
      default: break;
    }
  }

  static void select(const value& v, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    if (step == path.size()) {
      if (v.is_string()) out.emplace_back(v.get_string());
      return;
    }
    const path_step& s = path[step];
    if (s.kind == path_step::key) {
      if (const value* c = v.is_object() ? v.get_object().if_contains(s.name) : nullptr)
        select(*c, path, step + 1, out);
    } else if (s.kind == path_step::index) {
      if (v.is_array() && s.n < v.get_array().size()) select(v.get_array()[s.n], path, step + 1, out);
    } else if (v.is_array()) {
      for (const value& c : v.get_array()) select(c, path, step + 1, out);
    } else if (v.is_object()) {
      for (const auto& kv : v.get_object()) select(kv.value(), path, step + 1, out);
    }
  }

  boost::json::serializer serializer_;
  char chunk_[1 << 16];
};

}  // namespace jview::bench
