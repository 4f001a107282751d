// tests/benchmarks/engines/simdjson_ondemand.hpp: simdjson's On-Demand API (traverse and select only: it has no
// document to dump, and its "parse" is only stage 1). One ondemand::parser reused across runs; NDJSON goes
// through iterate_many. Stage 1 runs the dispatched kernel; the value walk is compiled into this program for
// simdjson's builtin implementation (its name is printed beside the table).
#pragma once
#include <simdjson.h>

#include "engines/common.hpp"

namespace jview::bench {

class simdjson_ondemand_engine final : public engine {
 public:
  const char* name() const override { return "simdjson-ondemand"; }
  bool supports(workload w) const override { return w == workload::traverse || w == workload::select; }

  bool run(workload w, const input& in, result& r) override {
    if (w != workload::traverse && w != workload::select) return false;
    const bool traverse = w == workload::traverse;
    if (!in.multi) {
      simdjson::ondemand::document doc;
      if (parser_.iterate(simdjson::padded_string_view(in.data, in.size, in.size + simdjson::SIMDJSON_PADDING))
              .get(doc))
        return false;
      // traverse reads everything, so it can also insist that nothing follows the value; select reads only its
      // path (On-Demand does not validate what it skips).
      return visit(doc, in, r, traverse) && (!traverse || trailing_ok(doc));
    }
    simdjson::ondemand::document_stream stream;
    if (parser_.iterate_many(in.data, in.size, simdjson::ondemand::DEFAULT_BATCH_SIZE).get(stream)) return false;
    for (auto item : stream) {
      simdjson::ondemand::document_reference doc;
      if (std::move(item).get(doc)) return false;
      if (!visit(doc, in, r, traverse)) return false;
    }
    return stream.truncated_bytes() == 0;
  }

 private:
  // After the walk, nothing may follow the value (On-Demand only notices what it is asked to read).
  static bool trailing_ok(simdjson::ondemand::document& doc) { return doc.current_location().error() != 0; }

  template <class V>
  static bool visit(V& doc, const input& in, result& r, bool traverse) {
    simdjson::ondemand::value v;
    if (doc.get_value().get(v)) return false;
    return traverse ? count(v, r.counts) : select(v, in.path, 0, r.selected);
  }

  static bool count(simdjson::ondemand::value v, stats& s) {
    using t = simdjson::ondemand::json_type;
    t type;
    if (v.type().get(type)) return false;
    ++s.values;
    switch (type) {
      case t::array: {
        simdjson::ondemand::array a;
        if (v.get_array().get(a)) return false;
        for (auto item : a) {
          simdjson::ondemand::value c;
          if (std::move(item).get(c) || !count(c, s)) return false;
        }
        return true;
      }
      case t::object: {
        simdjson::ondemand::object o;
        if (v.get_object().get(o)) return false;
        for (auto item : o) {
          simdjson::ondemand::field f;
          std::string_view key;
          if (std::move(item).get(f) || f.unescaped_key().get(key)) return false;
          s.string_bytes += key.size();
          if (!count(f.value(), s)) return false;
        }
        return true;
      }
      case t::number: {
        double d;
        if (v.get_double().get(d)) return false;
        s.add_number(d);
        return true;
      }
      case t::string: {
        std::string_view str;
        if (v.get_string().get(str)) return false;
        s.string_bytes += str.size();
        return true;
      }
      case t::boolean: {
        bool b;
        return !v.get_bool().get(b);
      }
      case t::null: {
        bool is_null = false;
        return !v.is_null().get(is_null) && is_null;
      }
    }
    return false;
  }

  // Missing keys and kind mismatches select nothing (as the other engines); only malformed input fails.
  static bool select(simdjson::ondemand::value v, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    using t = simdjson::ondemand::json_type;
    t type;
    if (v.type().get(type)) return false;
    if (step == path.size()) {
      if (type != t::string) return true;
      std::string_view str;
      if (v.get_string().get(str)) return false;
      out.emplace_back(str);
      return true;
    }
    const path_step& s = path[step];
    if (s.kind == path_step::key) {
      if (type != t::object) return true;
      simdjson::ondemand::object o;
      if (v.get_object().get(o)) return false;
      simdjson::ondemand::value c;
      const auto err = o.find_field_unordered(s.name).get(c);
      if (err == simdjson::NO_SUCH_FIELD) return true;
      return !err && select(c, path, step + 1, out);
    }
    if (type == t::array) {
      simdjson::ondemand::array a;
      if (v.get_array().get(a)) return false;
      std::size_t i = 0;
      for (auto item : a) {
        simdjson::ondemand::value c;
        if (std::move(item).get(c)) return false;
        if (s.kind == path_step::each) {
          if (!select(c, path, step + 1, out)) return false;
        } else if (i++ == s.n) {
          return select(c, path, step + 1, out);  // the rest of the array is skipped by its parent
        }
      }
      return true;
    }
    if (type == t::object && s.kind == path_step::each) {
      simdjson::ondemand::object o;
      if (v.get_object().get(o)) return false;
      for (auto item : o) {
        simdjson::ondemand::field f;
        if (std::move(item).get(f) || !select(f.value(), path, step + 1, out)) return false;
      }
    }
    return true;
  }

  simdjson::ondemand::parser parser_;
};

}  // namespace jview::bench
