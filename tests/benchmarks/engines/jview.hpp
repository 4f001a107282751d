// tests/benchmarks/engines/jview.hpp: jview's adapter. `jview` builds a fresh document and parser per run (its node
// arena is mapped and faulted in each time); `jview-reuse` keeps both across runs, as the CLI does for the values of
// one input; `jview-portable` is `jview-reuse` with the portable string scanner (parse_options::portable): it
// reuses its document so that its ratio to jview-reuse shows the kernel alone, not page faults.
// `jview-avx2` is `jview-reuse` with the kernels of JVIEW_KERNELS=avx2 (what an AVX2 machine without AVX-512 runs:
// the two-stage parser on the AVX2 stage-1 kernel, and one pass for inputs of long strings); `jview-avx2-one-pass`
// the same kernels with the one-pass parser (what AVX2 machines ran before issue 24). Both are left out
// (engine_ok() false) on a CPU without the AVX2 stage-1 kernel.
// traverse is a flat loop over the node index (document order; keys are the first `len` string nodes of objects).
// stage1 runs the variant's stage-1 kernel alone over the whole input (simd::structural_index, as the parser does).
#pragma once
#include <string>

#include "core/document.hpp"
#include "core/number.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"
#include "simd/kernels.hpp"
#include "simd/structural.hpp"
#include "engines/common.hpp"

namespace jview::bench {

class jview_engine final : public engine {
 public:
  enum class variant { fresh, reuse, portable, avx2, avx2_one_pass };

  explicit jview_engine(variant v) : v_(v), parser_(options_for(v)) {
    compact_.pretty = false;
    shortest_.pretty = false;
    shortest_.numbers = number_mode::shortest;
    pretty_.pretty = true;
    pretty_.indent = 2;
  }

  // Whether this CPU runs the variant (the AVX2 ones need the AVX2 stage-1 kernel).
  static bool runs(variant v) { return (v != variant::avx2 && v != variant::avx2_one_pass) || avx2_kernels() != nullptr; }

  const char* name() const override {
    switch (v_) {
      case variant::fresh: return "jview";
      case variant::reuse: return "jview-reuse";
      case variant::portable: return "jview-portable";
      case variant::avx2: return "jview-avx2";
      case variant::avx2_one_pass: return "jview-avx2-one-pass";
    }
    return "?";
  }
  bool supports(workload) const override { return true; }
  // The stage-1 kernel this variant parses with (none: the one-pass variants, and kernels without one).
  bool has_stage1() const override { return v_ != variant::fresh && stage1_kernel() != nullptr; }

  bool run(workload w, const input& in, result& r) override {
    if (v_ != variant::fresh) return run_with(w, in, r, doc_, parser_);
    document doc;
    parser p(options_for(v_));
    return run_with(w, in, r, doc, p);
  }

  // The traverse counts of the current value of doc (also used by the runner to check other engines' output).
  static void count(const document& doc, stats& s) {
    std::string tmp;
    const std::uint32_t n = doc.size();
    const node* nodes = doc.nodes();
    std::uint64_t keys = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const node& x = nodes[i];
      switch (x.k) {
        case kind::string:
          if ((x.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
            s.string_bytes += x.len;
          } else {
            tmp.clear();
            doc.append_string(i, tmp);
            s.string_bytes += tmp.size();
          }
          break;
        case kind::number: s.add_number(number_to_double(doc.raw(i))); break;
        case kind::object: keys += x.len; break;
        default: break;
      }
    }
    s.values += n - keys;
  }

  // Calls f() once per value of the input, with doc holding it; false on a parse error or trailing bytes.
  template <class F>
  static bool each_value(const input& in, document& doc, parser& p, F&& f) {
    const char* pos = in.data;
    const char* const end = in.data + in.size;
    if (parser::at_end(pos, end)) return false;
    do {
      const char* stop = nullptr;
      if (p.parse(pos, end, doc, stop)) return false;
      f();
      pos = stop;
    } while (in.multi && !parser::at_end(pos, end));
    return parser::at_end(pos, end);
  }

 private:

  // JVIEW_KERNELS=avx2's kernels with the AVX2 stage 1 as the structure kernel; nullptr when the CPU lacks them.
  static const simd::kernels* avx2_kernels() {
    static const simd::kernels* const k = [] () -> const simd::kernels* {
      static simd::kernels chosen;
      simd::kernel_request req;
      std::string error;
      if (!simd::parse_kernel_request("avx2", req) || !simd::choose_kernels(req, chosen, error)) return nullptr;
      const simd::stage1_kernel* ks[8];
      const std::size_t n = simd::structural_kernels(ks, 8);
      for (std::size_t i = 0; i < n; ++i)
        if (std::string(ks[i]->name) == "avx2") {
          chosen.structure = ks[i];
          return &chosen;
        }
      return nullptr;
    }();
    return k;
  }

  static parse_options options_for(variant v) {
    parse_options o;
    if (v == variant::portable) o.kernels = &simd::portable_kernels();
    if ((v == variant::avx2 || v == variant::avx2_one_pass) && avx2_kernels() != nullptr) o.kernels = avx2_kernels();
    if (v == variant::avx2_one_pass) o.path = parse_path::one_pass;
    return o;
  }

  static void select(const document& doc, std::uint32_t i, const std::vector<path_step>& path, std::size_t step,
                     std::vector<std::string>& out) {
    if (step == path.size()) {
      if (doc[i].k == kind::string) doc.append_string(i, out.emplace_back());
      return;
    }
    const path_step& s = path[step];
    const node& x = doc[i];
    if (s.kind == path_step::key) {
      if (x.k != kind::object) return;
      const std::uint32_t v = doc.find_member(i, s.name);
      if (v != document::npos) select(doc, v, path, step + 1, out);
    } else if (s.kind == path_step::index) {
      if (x.k != kind::array) return;
      const std::uint32_t v = doc.element(i, static_cast<std::uint32_t>(s.n));
      if (v != document::npos) select(doc, v, path, step + 1, out);
    } else if (x.k == kind::array) {
      for (std::uint32_t c = i + 1; c < x.next; c = doc[c].next) select(doc, c, path, step + 1, out);
    } else if (x.k == kind::object) {
      for (std::uint32_t c = i + 1; c < x.next; c = doc[c + 1].next) select(doc, c + 1, path, step + 1, out);
    }
  }

  const simd::kernels& kernels() const {
    const parse_options o = options_for(v_);
    return o.kernels != nullptr ? *o.kernels : simd::active_kernels();
  }
  const simd::stage1_kernel* stage1_kernel() const {
    return v_ == variant::avx2_one_pass ? nullptr : kernels().structure;
  }

  // The token index of the whole input, batch by batch, as the parser drives it (its cursors moved to each batch's
  // end); r.counts.values: the tokens.
  bool run_stage1(const input& in, result& r) {
    const simd::stage1_kernel* k = stage1_kernel();
    if (k == nullptr || !index_.start(k, kernels().utf8->validate_utf8, in.data, in.data + in.size)) return false;
    std::uint64_t tokens = 0;
    do {
      tokens += static_cast<std::uint64_t>(index_.pos_end() - index_.cursor());
      index_.save(index_.pos_end(), index_.special_cursor(), nullptr);
    } while (index_.next_batch());
    r.counts.values = tokens;
    return index_.indexed_bytes() == in.size;
  }

  bool run_with(workload w, const input& in, result& r, document& doc, parser& p) {
    switch (w) {
      case workload::stage1: return run_stage1(in, r);
      case workload::parse: {
        std::uint64_t nodes = 0;
        const bool ok = each_value(in, doc, p, [&] { nodes += doc.size(); });
        r.counts.values = nodes;
        return ok;
      }
      case workload::traverse: return each_value(in, doc, p, [&] { count(doc, r.counts); });
      case workload::select:
        return each_value(in, doc, p, [&] { select(doc, 0, in.path, 0, r.selected); });
      case workload::dump_compact:
      case workload::dump_pretty:
      case workload::dump_shortest: {
        const write_options& o =
            w == workload::dump_compact ? compact_ : w == workload::dump_pretty ? pretty_ : shortest_;
        output_buffer out(&output_buffer::to_string, &r.text);
        writer wr(out, o);
        const bool ok = each_value(in, doc, p, [&] {
          wr.value(doc, 0);
          if (in.multi) out.put('\n');
          out.maybe_flush();
        });
        return out.flush() && ok;
      }
    }
    return false;
  }

  variant v_;
  simd::structural_index index_;  // the stage1 workload's
  document doc_;
  parser parser_;
  write_options compact_, pretty_, shortest_;
};

}  // namespace jview::bench
