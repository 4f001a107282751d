// tests/benchmarks/engines/simdjson_dom.hpp: simdjson's DOM API. `simdjson-dom` makes a fresh dom::parser per run
// (it allocates its tape and string buffer each time), `simdjson-dom-reuse` keeps one parser across runs.
// NDJSON goes through parse_many. simdjson 3.0.1 has no pretty printer: no dump-pretty. Its minifier writes numbers
// from their parsed values, so dump-compact and dump-shortest do the same work. stage1: its stage 1 alone.
#pragma once
#include <simdjson.h>

#include <memory>

#include "engines/common.hpp"

namespace jview::bench {

class simdjson_dom_engine final : public engine {
 public:
  explicit simdjson_dom_engine(bool reuse, const char* kernel = nullptr) : reuse_(reuse), kernel_(kernel) {
    if (kernel_ == nullptr) return;
    const simdjson::implementation* impl = simdjson::get_available_implementations()[kernel_];
    if (impl == nullptr || !impl->supported_by_runtime_system()) {
      kernel_ok_ = false;
      return;
    }
    const simdjson::implementation* before = simdjson::get_active_implementation();
    simdjson::get_active_implementation() = impl;
    kernel_ok_ = parser_.allocate(64) == simdjson::SUCCESS;
    simdjson::get_active_implementation() = before;
  }
  const char* name() const override {
    if (kernel_ != nullptr) return "simdjson-dom-reuse-haswell";
    return reuse_ ? "simdjson-dom-reuse" : "simdjson-dom";
  }
  // False when the forced kernel is not runnable here (the engine is then left out).
  bool kernel_ok() const { return kernel_ok_; }
  bool supports(workload w) const override { return w != workload::dump_pretty; }
  bool has_stage1() const override { return reuse_; }

  bool run(workload w, const input& in, result& r) override {
    if (w == workload::stage1) return run_stage1(in, r);
    if (reuse_) return run_with(w, in, r, parser_);
    simdjson::dom::parser fresh;
    return run_with(w, in, r, fresh);
  }

 private:
  using element = simdjson::dom::element;

  // simdjson's stage 1 alone (its internal dom_parser_implementation, which dom::parser drives), with the engine's
  // kernel; r.counts.values: the structural indexes. NDJSON in streaming mode, as parse_many indexes it.
  bool run_stage1(const input& in, result& r) {
    const simdjson::implementation* impl = simdjson::get_active_implementation();
    if (kernel_ != nullptr) impl = simdjson::get_available_implementations()[kernel_];
    if (impl == nullptr) return false;
    if (!stage1_ || stage1_capacity_ < in.size) {
      stage1_.reset();
      if (impl->create_dom_parser_implementation(in.size, simdjson::DEFAULT_MAX_DEPTH, stage1_) != simdjson::SUCCESS)
        return false;
      stage1_capacity_ = in.size;
    }
    const auto mode = in.multi ? simdjson::stage1_mode::streaming_final : simdjson::stage1_mode::regular;
    if (stage1_->stage1(reinterpret_cast<const std::uint8_t*>(in.data), in.size, mode) != simdjson::SUCCESS) return false;
    r.counts.values = stage1_->n_structural_indexes;
    return true;
  }

  template <class F>
  static bool each_value(const input& in, simdjson::dom::parser& p, F&& f) {
    if (!in.multi) {
      element e;
      if (p.parse(in.data, in.size, false).get(e)) return false;
      f(e);
      return true;
    }
    simdjson::dom::document_stream stream;
    if (p.parse_many(in.data, in.size, simdjson::dom::DEFAULT_BATCH_SIZE).get(stream)) return false;
    for (auto doc : stream) {
      element e;
      if (doc.get(e)) return false;
      f(e);
    }
    return stream.truncated_bytes() == 0;
  }

  static void count(element e, stats& s) {
    using t = simdjson::dom::element_type;
    ++s.values;
    switch (e.type()) {
      case t::ARRAY:
        for (element c : simdjson::dom::array(e)) count(c, s);
        break;
      case t::OBJECT:
        for (auto field : simdjson::dom::object(e)) {
          s.string_bytes += field.key.size();
          count(field.value, s);
        }
        break;
      case t::INT64:
      case t::UINT64:
      case t::DOUBLE: s.add_number(e.get_double().value_unsafe()); break;
      case t::STRING: s.string_bytes += e.get_string_length().value_unsafe(); break;
      default: break;
    }
  }

  static void select(element e, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    if (step == path.size()) {
      if (e.is_string()) out.emplace_back(e.get_string().value_unsafe());
      return;
    }
    const path_step& s = path[step];
    element v;
    if (s.kind == path_step::key) {
      if (e.is_object() && !simdjson::dom::object(e).at_key(s.name).get(v)) select(v, path, step + 1, out);
    } else if (s.kind == path_step::index) {
      if (e.is_array() && !simdjson::dom::array(e).at(s.n).get(v)) select(v, path, step + 1, out);
    } else if (e.is_array()) {
      for (element c : simdjson::dom::array(e)) select(c, path, step + 1, out);
    } else if (e.is_object()) {
      for (auto field : simdjson::dom::object(e)) select(field.value, path, step + 1, out);
    }
  }

  bool run_with(workload w, const input& in, result& r, simdjson::dom::parser& p) {
    switch (w) {
      case workload::parse: return each_value(in, p, [&](element) { ++r.counts.values; });
      case workload::traverse: return each_value(in, p, [&](element e) { count(e, r.counts); });
      case workload::select: return each_value(in, p, [&](element e) { select(e, in.path, 0, r.selected); });
      case workload::dump_compact:
      case workload::dump_shortest: {
        builder_.clear();
        const bool ok = each_value(in, p, [&](element e) {
          builder_.append(e);
          if (in.multi) {
            const std::string_view s = builder_.str();
            r.text.append(s.data(), s.size());
            r.text.push_back('\n');
            builder_.clear();
          }
        });
        if (!in.multi) {
          const std::string_view s = builder_.str();
          r.text.append(s.data(), s.size());
        }
        return ok;
      }
      case workload::dump_pretty: return false;
      case workload::stage1: return false;  // (not offered: has_stage1)
    }
    return false;
  }

  bool reuse_;
  const char* kernel_;  // nullptr: the process's active implementation
  bool kernel_ok_ = true;
  simdjson::dom::parser parser_;
  simdjson::internal::string_builder<> builder_;  // the minifier's output buffer, kept across runs
  std::unique_ptr<simdjson::internal::dom_parser_implementation> stage1_;  // the stage1 workload's
  std::size_t stage1_capacity_ = 0;
};

}  // namespace jview::bench
