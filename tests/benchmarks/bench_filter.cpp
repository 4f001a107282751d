// tests/benchmarks/bench_filter.cpp: the jq language in process: compile time of each program, and the time of one
// run over a parsed corpus file (evaluation plus writing the results compactly into memory; the parse is timed
// apart, once per round, and not included). One JSON line per (file, workload) on stdout, engine "jview",
// workload "filter:<name>"; a table on stderr. Whole-command comparisons with jq and gojq are in compare.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"

using namespace jview;
using namespace jview::filter;

namespace {

struct workload {
  const char* file;
  const char* name;
  const char* program;
};

// The programs of the whole-command benchmark (issue 6), on the files they were written for.
const workload k_workloads[] = {
    {"twitter.json", "identity", "."},
    {"twitter.json", "path", ".statuses[].user.screen_name"},
    {"twitter.json", "select-count", "[.statuses[] | select(.retweet_count > 0)] | length"},
    {"twitter.json", "map-object", ".statuses | map({id, text})"},
    {"twitter.json", "group_by", ".statuses | group_by(.user.lang) | map(length)"},
    {"twitter.json", "reduce", "reduce .statuses[] as $s (0; . + $s.retweet_count)"},
    {"twitter.json", "paths", "[paths] | length"},
    {"twitter.json", "sum-numbers", "[.. | numbers] | add"},
    {"twitter.json", "tojson", "tojson | length"},
    {"twitter.json", "regex", "[.statuses[].text | test(\"RT @\")] | map(select(.)) | length"},
    {"twitter.json", "update", ".statuses[] |= (.text |= ascii_downcase) | .statuses | length"},
    {"citm_catalog.json", "to_entries", ".events | to_entries | map(.value.name) | length"},
    {"citm_catalog.json", "keys", "[.events[] | keys] | length"},
    {"citm_catalog.json", "reduce-object",
     "reduce (.performances[] | .venueCode) as $v ({}; .[$v] += 1) | length"},
    {"canada.json", "sum-numbers", "[.. | numbers] | add"},
};

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool count_bytes(void* ctx, const char*, std::size_t n) {
  *static_cast<std::size_t*>(ctx) += n;
  return true;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = std::string(JVIEW_SOURCE_DIR) + "/../shared/corpus";
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
      data = argv[++i];
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: %s [--data DIR] [--quick]\n", argv[0]);
      return 2;
    }
  }
  const int rounds = quick ? 5 : 31;
  std::fprintf(stderr, "jq programs in process (jview), %d rounds, medians\n", rounds);
  std::fprintf(stderr, "  %-20s %-16s %12s %12s %12s %12s\n", "file", "workload", "compile_us", "median_us", "best_us",
               "out_bytes");
  for (const workload& w : k_workloads) {
    std::string text;
    if (!read_file(data + "/" + w.file, text)) {
      std::fprintf(stderr, "  %-20s %-16s missing\n", w.file, w.name);
      continue;
    }
    const double c0 = now_us();
    std::unique_ptr<program> prog = program::compile(w.program, compile_options{});
    const double compile_us = now_us() - c0;
    std::size_t bytes = 0;
    output_buffer ob(count_bytes, &bytes);
    write_options wo;
    wo.pretty = false;
    writer wr(ob, wo);
    run_callbacks cb;
    cb.emit = [&](const value& v) {
      write_value(wr, v);
      ob.put('\n');
    };
    std::vector<double> times;
    std::size_t out_bytes = 0;
    bool failed = false;
    // One untimed run first, then the timed rounds; each round parses afresh (outside the timing).
    for (int r = 0; r <= rounds && !failed; ++r) {
      auto doc = std::make_shared<document>();
      jview::parser ps;
      const char* stop = nullptr;
      if (ps.parse(text.data(), text.data() + text.size(), *doc, stop)) {
        std::fprintf(stderr, "  %-20s parse error\n", w.file);
        failed = true;
        break;
      }
      const value input = value::view(doc, 0);
      bytes = 0;
      std::string err;
      int halt = -1;
      const double t0 = now_us();
      const bool ok = prog->run(input, nullptr, cb, err, halt);
      ob.flush();
      const double t1 = now_us();
      if (!ok) {
        std::fprintf(stderr, "  %-20s %-16s error: %s\n", w.file, w.name, err.c_str());
        failed = true;
      }
      if (r > 0) times.push_back(t1 - t0);
      out_bytes = bytes;
    }
    if (failed) continue;
    const double med = median(times);
    const double best = *std::min_element(times.begin(), times.end());
    std::fprintf(stderr, "  %-20s %-16s %12.1f %12.1f %12.1f %12zu\n", w.file, w.name, compile_us, med, best,
                 out_bytes);
    std::printf(
        "{\"file\": \"%s\", \"workload\": \"filter:%s\", \"engine\": \"jview\", \"median_us\": %.1f, "
        "\"best_us\": %.1f, \"bytes\": %zu}\n",
        w.file, w.name, med, best, text.size());
  }
  return 0;
}
