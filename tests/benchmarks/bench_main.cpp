// tests/benchmarks/bench_main.cpp: the in-process benchmark: workloads parse, traverse, select, dump-compact,
// dump-pretty, dump-shortest (and stage1 when asked for) over every corpus file, for jview and each competitor library found at build time
// (one adapter per engine in engines/). Before timing, every engine's results are checked against jview's (value
// count, string bytes, number sum; selected strings; dumps re-read by jview); an engine that disagrees is not timed.
// Rounds are interleaved between engines, each timed call preceded by an untimed one. Markdown tables on stderr,
// one JSON object per line on stdout (rows, plus a "machine" line and "skip" lines for engines not timed).
#include <algorithm>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engines/common.hpp"
#include "engines/jview.hpp"
#include "simd/kernels.hpp"
#if JVIEW_BENCH_SIMDJSON
#include "engines/simdjson_dom.hpp"
namespace jview::bench {
// engines/simdjson_ondemand.cpp (compiled for this machine).
std::unique_ptr<engine> make_simdjson_ondemand();
const char* simdjson_ondemand_builtin();
}  // namespace jview::bench
#endif
#if JVIEW_BENCH_BOOST_JSON
#include "engines/boost_json.hpp"
#endif
#if JVIEW_BENCH_RAPIDJSON
#include "engines/rapidjson.hpp"
#endif
#if JVIEW_BENCH_NLOHMANN
#include "engines/nlohmann.hpp"
#endif

namespace jview::bench {
namespace {

namespace fs = std::filesystem;

// --- files ------------------------------------------------------------------------------------------------------

// The file's bytes followed by 64 zero bytes (simdjson reads up to 64 bytes past the end).
struct padded_file {
  std::unique_ptr<char[]> bytes;
  std::size_t size = 0;
};

bool read_padded(const fs::path& path, padded_file& out) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return false;
  const std::streamoff n = f.tellg();
  if (n < 0) return false;
  out.size = static_cast<std::size_t>(n);
  out.bytes.reset(new char[out.size + 64]);
  std::memset(out.bytes.get() + out.size, 0, 64);
  f.seekg(0);
  return static_cast<bool>(f.read(out.bytes.get(), n));
}

// A jq-style path of keys, `[]` and `[n]`, e.g. ".statuses[].user.screen_name".
std::vector<path_step> parse_path(std::string_view t) {
  std::vector<path_step> steps;
  std::size_t i = 0;
  while (i < t.size()) {
    if (t[i] == '.') {
      ++i;
      std::size_t j = i;
      while (j < t.size() && t[j] != '.' && t[j] != '[') ++j;
      if (j > i) steps.push_back({path_step::key, std::string(t.substr(i, j - i))});
      i = j;
    } else if (t[i] == '[') {
      std::size_t j = t.find(']', i);
      if (j == std::string_view::npos) break;
      if (j == i + 1)
        steps.push_back({path_step::each, {}});
      else
        steps.push_back({path_step::index, {}, static_cast<std::size_t>(std::stoul(std::string(t.substr(i + 1, j - i - 1))))});
      i = j + 1;
    } else {
      ++i;
    }
  }
  return steps;
}

// The select workload's path per file: twitter's is the one the task names; the others pick the nearest
// equivalent (an array or object of records, then a string field of each). Files without one get no select.
const char* select_path_for(const std::string& name) {
  static const std::pair<const char*, const char*> k_paths[] = {
      {"twitter.json", ".statuses[].user.screen_name"},
      {"twitter_nativejson.json", ".statuses[].user.screen_name"},
      {"twitterescaped.json", ".statuses[].user.screen_name"},
      {"twitter_api_response.json", ".[].user.screen_name"},
      {"twitter_api_compact_response.json", ".[].user.screen_name"},
      {"twitter_timeline.json", ".[].user.screen_name"},
      {"citm_catalog.json", ".events[].name"},
      {"github_events.json", ".[].actor.login"},
      {"apache_builds.json", ".jobs[].name"},
      {"gsoc-2018.json", ".[].author.name"},
      {"update-center.json", ".plugins[].name"},
      {"poet.json", ".[].name"},
      {"random.json", ".result[].name"},
      {"repeat.json", ".result[].name"},
      {"instruments.json", ".instruments[].name"},
      {"canada.json", ".features[].geometry.type"},
      {"che-1.geo.json", ".features[].properties.cca2"},
      {"che-2.geo.json", ".features[].properties.cca2"},
      {"che-3.geo.json", ".features[].properties.cca2"},
      {"google_maps_api_response.json", ".rows[].elements[].status"},
      {"google_maps_api_compact_response.json", ".rows[].elements[].status"},
      {"lottie.json", ".layers[].nm"},
      {"marine_ik.json", ".materials[].name"},
      {"tree-pretty.json", ".nodes[].name"},
      {"demo.json", ".Image.Thumbnail.Url"},
      {"amazon_cellphones.ndjson", ".[1]"},  // per line: [asin, brand, ...]
  };
  const std::string base = fs::path(name).filename().string();
  for (const auto& [file, path] : k_paths)
    if (base == file) return path;
  if (base.rfind("jeopardy", 0) == 0) return ".[].question";  // corpus/gen_jeopardy.py
  if (base.rfind("ndjson-log", 0) == 0) return ".user.login";  // corpus/gen_ndjson_log.py, per line
  return nullptr;
}

struct loaded_file {
  padded_file bytes;
  input in;
};

bool load(const fs::path& path, const std::string& name, loaded_file& f) {
  if (!read_padded(path, f.bytes)) return false;
  input& in = f.in;
  in.name = name;
  in.data = f.bytes.bytes.get();
  in.size = f.bytes.size;
  in.multi = path.extension() == ".ndjson";
  if (in.multi) {
    std::string_view rest(in.data, in.size);
    while (!rest.empty()) {
      std::size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      if (line.find_first_not_of(" \t\r") != std::string_view::npos) in.lines.push_back(line);
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
    }
  }
  if (const char* p = select_path_for(name)) {
    in.path_text = p;
    in.path = parse_path(p);
  }
  return true;
}

// --- checks -----------------------------------------------------------------------------------------------------

std::string describe(const stats& s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "values %llu, string bytes %llu, number sum %.17g",
                static_cast<unsigned long long>(s.values), static_cast<unsigned long long>(s.string_bytes),
                s.number_sum);
  return buf;
}

// The traverse counts of JSON text as jview reads it (used on every engine's dump output).
bool recount(const std::string& text, bool multi, stats& s) {
  input in;
  in.data = text.data();
  in.size = text.size();
  in.multi = multi;
  document doc;
  parser p;
  return jview_engine::each_value(in, doc, p, [&] { jview_engine::count(doc, s); });
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Why engine e may not be timed on workload w of this file, or "" when it agrees with jview (the reference).
struct reference {
  stats counts;
  std::vector<std::string> selected;  // sorted: nlohmann visits object members in key order
};

std::string check(engine& e, workload w, const input& in, const reference& ref) {
  result r;
  if (!e.run(w, in, r)) return w == workload::stage1 ? "stage 1 failed" : "failed to parse";
  if (w == workload::parse || w == workload::stage1) return "";
  if (w == workload::traverse)
    return r.counts == ref.counts ? "" : "disagrees: " + describe(r.counts);
  if (w == workload::select) {
    if (sorted(r.selected) == ref.selected) return "";
    return "disagrees: selected " + std::to_string(r.selected.size()) + " strings (jview " +
           std::to_string(ref.selected.size()) + ")";
  }
  stats s;
  if (!recount(r.text, in.multi, s)) return "output is not valid JSON";
  return s == ref.counts ? "" : "output disagrees: " + describe(s);
}

// --- timing -----------------------------------------------------------------------------------------------------

struct row {
  std::string file;
  std::size_t bytes;
  workload w;
  std::string engine;
  double median_us = 0, best_us = 0;
  std::string skipped = {};  // why it was not timed ("" when timed)
};

std::size_t g_sink = 0;  // keeps results observable

// The default clock is this thread's CPU time: the machines here are shared (2 cores, often a load of 4-10), and
// wall time then mostly measures how long the thread waited for a core. Page faults and other kernel work done for
// the thread are CPU time too. --clock wall measures elapsed time instead.
bool g_wall_clock = false;

double now_us() {
  timespec t;
  clock_gettime(g_wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) * 1e-3;
}

// One timed call: reps runs (small files are repeated so a call lasts long enough to time); µs per run.
double time_once(engine& e, workload w, const input& in, result& r, int reps) {
  const double t0 = now_us();
  for (int i = 0; i < reps; ++i) {
    r.clear();
    e.run(w, in, r);
    g_sink += r.counts.values + r.text.size() + r.selected.size();
  }
  return (now_us() - t0) / reps;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o.push_back(c);
  }
  return o;
}

void print_json(const row& x) {
  if (x.skipped.empty()) {
    std::printf("{\"file\": \"%s\", \"workload\": \"%s\", \"engine\": \"%s\", \"median_us\": %.3f, \"best_us\": %.3f, "
                "\"bytes\": %zu}\n",
                json_escape(x.file).c_str(), workload_name(x.w), x.engine.c_str(), x.median_us, x.best_us, x.bytes);
  } else {
    std::printf("{\"skip\": {\"file\": \"%s\", \"workload\": \"%s\", \"engine\": \"%s\", \"reason\": \"%s\"}}\n",
                json_escape(x.file).c_str(), workload_name(x.w), x.engine.c_str(), json_escape(x.skipped).c_str());
  }
  std::fflush(stdout);
}

struct options {
  std::string data;
  std::vector<std::string> extra_files;
  bool quick = false;
  int rounds = 0;  // 0: by file size
  std::vector<std::string> engines, workloads, only;  // filters (empty: all)
};

bool wanted(const std::vector<std::string>& filter, const std::string& name) {
  return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

int rounds_for(const options& o, std::size_t bytes) {
  if (o.rounds > 0) return o.rounds;
  if (bytes >= (10u << 20)) return o.quick ? 2 : 5;
  if (bytes >= (1u << 20)) return o.quick ? 5 : 21;
  return o.quick ? 5 : 41;
}

// Checks every engine on one file, then times the ones that agree; appends the rows.
void bench_file(const options& o, const input& in, std::vector<std::unique_ptr<engine>>& engines,
                std::vector<row>& rows) {

  jview_engine ref_engine(jview_engine::variant::reuse);
  reference ref;
  result r;
  if (!ref_engine.run(workload::traverse, in, r)) {
    std::fprintf(stderr, "  jview cannot parse it: file skipped\n");
    return;
  }
  // Repetitions per timed call: about 200 µs of jview-reuse parsing, so tiny files are not timed at the clock's
  // resolution. Every engine gets the same count.
  const double one_parse = std::max(0.05, time_once(ref_engine, workload::parse, in, r, 3));
  const int reps = static_cast<int>(std::clamp(200.0 / one_parse, 1.0, 10000.0));
  r.clear();
  ref_engine.run(workload::traverse, in, r);
  ref.counts = r.counts;
  r.clear();
  if (!in.path.empty()) {
    ref_engine.run(workload::select, in, r);
    ref.selected = sorted(r.selected);
  }
  std::fprintf(stderr, "%s (%zu bytes%s; %d rounds x %d runs per timed call)\n", in.name.c_str(), in.size,
               in.multi ? ", NDJSON" : "", rounds_for(o, in.size), reps);
  std::fprintf(stderr, "  jview: %s", describe(ref.counts).c_str());
  if (!in.path.empty()) std::fprintf(stderr, "; select %s: %zu strings", in.path_text.c_str(), ref.selected.size());
  std::fprintf(stderr, "\n");

  // An engine whose traverse disagrees is not timed on this file at all.
  std::vector<std::string> traverse_problem;
  for (auto& e : engines)
    traverse_problem.push_back(e->supports(workload::traverse) ? check(*e, workload::traverse, in, ref) : "");

  for (workload w : k_workloads) {
    if (!wanted(o.workloads, workload_name(w))) continue;
    if (w == workload::select && in.path.empty()) continue;
    if (w == workload::stage1 && o.workloads.empty()) continue;  // (only when asked for)
    // Eligible engines, checked first.
    std::vector<engine*> timed;
    std::vector<std::string> problems;
    for (std::size_t k = 0; k < engines.size(); ++k) {
      engine& e = *engines[k];
      row x{in.name, in.size, w, e.name()};
      if (w == workload::stage1 ? !e.has_stage1() : !e.supports(w)) continue;  // n/a: in the table legend
      std::string why;
      if (!traverse_problem[k].empty())
        why = w == workload::traverse ? traverse_problem[k] : "traverse " + traverse_problem[k];
      else if (w != workload::traverse)
        why = check(e, w, in, ref);
      if (!why.empty()) {
        x.skipped = "refused: " + why;
        problems.push_back(std::string(e.name()) + " " + x.skipped);
        print_json(x);
        rows.push_back(x);
        continue;
      }
      timed.push_back(&e);
    }
    std::fprintf(stderr, "  %-13s check: %zu engines agree%s", workload_name(w), timed.size(),
                 problems.empty() ? "" : "; ");
    for (std::size_t i = 0; i < problems.size(); ++i)
      std::fprintf(stderr, "%s%s", i ? "; " : "", problems[i].c_str());
    std::fprintf(stderr, "\n");

    // Interleaved rounds; the engine order rotates so none always runs right after the same neighbour.
    const int rounds = rounds_for(o, in.size);
    std::vector<std::vector<double>> times(timed.size());
    std::vector<result> results(timed.size());
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t k = 0; k < timed.size(); ++k) {
        const std::size_t i = (k + static_cast<std::size_t>(round)) % timed.size();
        time_once(*timed[i], w, in, results[i], 1);  // untimed warm-up
        times[i].push_back(time_once(*timed[i], w, in, results[i], reps));
      }
    }
    for (std::size_t i = 0; i < timed.size(); ++i) {
      std::sort(times[i].begin(), times[i].end());
      row x{in.name, in.size, w, timed[i]->name()};
      x.median_us = times[i][times[i].size() / 2];
      x.best_us = times[i].front();
      print_json(x);
      rows.push_back(x);
    }
  }
}

// --- tables -----------------------------------------------------------------------------------------------------

void print_tables(const std::vector<row>& rows, const std::vector<std::unique_ptr<engine>>& engines) {
  for (workload w : k_workloads) {
    bool any = false;
    for (const row& x : rows) any = any || x.w == w;
    if (!any) continue;
    std::fprintf(stderr, "\n### %s\n\n", workload_name(w));
    std::string na;
    for (const auto& e : engines)
      if (w == workload::stage1 ? !e->has_stage1() : !e->supports(w)) na += std::string(na.empty() ? "" : ", ") + e->name();
    if (!na.empty()) std::fprintf(stderr, "Not supported (n/a): %s.\n\n", na.c_str());
    std::fprintf(stderr, "| file | engine | median µs | best µs | GB/s | vs jview | vs jview-reuse |\n"
                         "|---|---|--:|--:|--:|--:|--:|\n");
    std::string file;
    double jview_median = 0, reuse_median = 0;
    auto ratio = [](char* buf, std::size_t n, double t, double ref) {
      buf[0] = '\0';
      if (ref > 0) std::snprintf(buf, n, "%.2fx", t / ref);
    };
    for (const row& x : rows) {
      if (x.w != w) continue;
      if (x.file != file) {
        file = x.file;
        jview_median = reuse_median = 0;
        for (const row& y : rows) {
          if (y.w != w || y.file != file || !y.skipped.empty()) continue;
          if (y.engine == "jview") jview_median = y.median_us;
          if (y.engine == "jview-reuse") reuse_median = y.median_us;
        }
      }
      if (!x.skipped.empty()) {
        std::fprintf(stderr, "| %s | %s | %s | | | | |\n", x.file.c_str(), x.engine.c_str(), x.skipped.c_str());
        continue;
      }
      const double gbs = static_cast<double>(x.bytes) / (x.median_us * 1e3);
      char r1[32], r2[32];
      ratio(r1, sizeof r1, x.median_us, jview_median);
      ratio(r2, sizeof r2, x.median_us, reuse_median);
      std::fprintf(stderr, "| %s | %s | %.1f | %.1f | %.3f | %s | %s |\n", x.file.c_str(), x.engine.c_str(),
                   x.median_us, x.best_us, gbs, r1, r2);
    }
  }
  std::fprintf(stderr,
               "\nvs jview (vs jview-reuse): engine median / jview's (jview-reuse's) median; above 1: slower. "
               "GB/s: file bytes / median. Every workload starts from the file's bytes (traverse, select and the "
               "dumps include the parse). Times are %s.\n",
               g_wall_clock ? "elapsed (wall) time" : "thread CPU time");
}

std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--data DIR] [--file PATH]... [--quick] [--rounds N] [--engines a,b] [--workloads a,b] "
               "[--only NAME,...] [--clock cpu|wall]\n"
               "  --data DIR    corpus directory (every *.json and *.ndjson below it)\n"
               "  --file PATH   one more file (e.g. generated by corpus/gen_*.py)\n"
               "  --quick       a few files, few rounds (smoke run)\n"
               "  --only NAMES  only the corpus files with these names (e.g. twitter.json,citm_catalog.json)\n"
               "  --workloads W parse, traverse, select, dump-compact, dump-pretty, dump-shortest (default: all of\n"
               "                these), stage1 (jview's and simdjson's stage 1 alone; only when named)\n"
               "  --clock cpu|wall  thread CPU time (default; robust on shared machines) or elapsed time\n",
               argv0);
  return 2;
}

}  // namespace
}  // namespace jview::bench

int main(int argc, char** argv) {
  using namespace jview::bench;
  options o;
#ifdef JVIEW_SHARED_DIR
  o.data = JVIEW_SHARED_DIR "/corpus";
#else
  o.data = "../shared/corpus";
#endif
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--data" && has_value) o.data = argv[++i];
    else if (a == "--file" && has_value) o.extra_files.push_back(argv[++i]);
    else if (a == "--quick") o.quick = true;
    else if (a == "--rounds" && has_value) o.rounds = std::atoi(argv[++i]);
    else if (a == "--engines" && has_value) o.engines = split_commas(argv[++i]);
    else if (a == "--workloads" && has_value) o.workloads = split_commas(argv[++i]);
    else if (a == "--only" && has_value) o.only = split_commas(argv[++i]);
    else if (a == "--clock" && has_value) g_wall_clock = std::string(argv[++i]) == "wall";
    else return usage(argv[0]);
  }

  std::vector<std::unique_ptr<engine>> all;
  all.push_back(std::make_unique<jview_engine>(jview_engine::variant::fresh));
  all.push_back(std::make_unique<jview_engine>(jview_engine::variant::reuse));
  all.push_back(std::make_unique<jview_engine>(jview_engine::variant::portable));
  for (const auto v : {jview_engine::variant::avx2, jview_engine::variant::avx2_one_pass})
    if (jview_engine::runs(v)) all.push_back(std::make_unique<jview_engine>(v));
  std::string missing;
#if JVIEW_BENCH_SIMDJSON
  all.push_back(std::make_unique<simdjson_dom_engine>(false));
  all.push_back(std::make_unique<simdjson_dom_engine>(true));
  if (auto haswell = std::make_unique<simdjson_dom_engine>(true, "haswell"); haswell->kernel_ok())
    all.push_back(std::move(haswell));
  all.push_back(make_simdjson_ondemand());
#else
  missing += " simdjson-dom simdjson-dom-reuse simdjson-ondemand (libsimdjson-dev)";
#endif
#if JVIEW_BENCH_BOOST_JSON
  all.push_back(std::make_unique<boost_json_engine>());
#else
  missing += " boost-json (libboost-json1.81-dev)";
#endif
#if JVIEW_BENCH_RAPIDJSON
  all.push_back(std::make_unique<rapidjson_engine>());
#else
  missing += " rapidjson (rapidjson-dev)";
#endif
#if JVIEW_BENCH_NLOHMANN
  all.push_back(std::make_unique<nlohmann_engine>());
#else
  missing += " nlohmann (nlohmann-json3-dev)";
#endif
  std::vector<std::unique_ptr<engine>> engines;
  for (auto& e : all)
    if (wanted(o.engines, e->name())) engines.push_back(std::move(e));

  // The machine line: which kernels ran.
  std::string simdjson_kernel = "none", simdjson_builtin = "none";
#if JVIEW_BENCH_SIMDJSON
  simdjson_kernel = simdjson::get_active_implementation()->name();
  simdjson_builtin = simdjson_ondemand_builtin();
#endif
  const std::string kernels = jview::simd::describe_kernels(jview::simd::active_kernels());
  const char* clock_name = g_wall_clock ? "wall" : "thread-cpu";
  std::printf("{\"machine\": {\"simdjson_kernel\": \"%s\", \"simdjson_ondemand_builtin\": \"%s\", "
              "\"compiler\": \"%s\", \"jview_kernels\": \"%s\", \"clock\": \"%s\"}}\n",
              simdjson_kernel.c_str(), simdjson_builtin.c_str(), json_escape(compiler_name()).c_str(),
              json_escape(kernels).c_str(), clock_name);
  std::fprintf(stderr, "simdjson kernel: %s (On-Demand builtin: %s); jview %s; compiler %s; clock %s\n",
               simdjson_kernel.c_str(), simdjson_builtin.c_str(), kernels.c_str(), compiler_name().c_str(),
               clock_name);
  if (!missing.empty()) std::fprintf(stderr, "not built (library not found):%s\n", missing.c_str());

  // Files: every *.json / *.ndjson under --data (sorted), then --file ones.
  std::vector<std::pair<fs::path, std::string>> files;
  std::error_code ec;
  if (fs::is_directory(o.data, ec)) {
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(o.data, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const fs::path& p = it->path();
      if (it->is_regular_file(ec) && (p.extension() == ".json" || p.extension() == ".ndjson")) found.push_back(p);
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) files.emplace_back(p, fs::relative(p, o.data, ec).generic_string());
  } else {
    std::fprintf(stderr, "cannot open corpus directory %s\n", o.data.c_str());
  }
  if (o.quick && o.only.empty())
    o.only = {"twitter.json", "citm_catalog.json", "canada.json", "amazon_cellphones.ndjson"};
  std::vector<std::pair<fs::path, std::string>> chosen;
  for (auto& f : files)
    if (wanted(o.only, f.second)) chosen.push_back(f);
  for (const std::string& f : o.extra_files) chosen.emplace_back(f, fs::path(f).filename().string());

  std::vector<row> rows;
  for (const auto& [path, name] : chosen) {
    loaded_file f;
    if (!load(path, name, f)) {
      std::fprintf(stderr, "%s: cannot read, skipped\n", path.c_str());
      continue;
    }
    bench_file(o, f.in, engines, rows);
  }
  std::fprintf(stderr, "\nsimdjson kernel: %s (On-Demand builtin: %s); jview %s\n", simdjson_kernel.c_str(),
               simdjson_builtin.c_str(), kernels.c_str());
  print_tables(rows, engines);
  std::fprintf(stderr, "(checksum %zu)\n", g_sink % 1000);
  return 0;
}
