// tests/benchmarks/bench_utf8.cpp: kernel throughput of each jview kernel this CPU runs beside simdjson's:
// workload `utf8`, UTF-8 validation vs simdjson::validate_utf8 on every corpus file and on 64 MiB of generated
// mixed non-ASCII text (engines jview-portable, jview-sse2, jview-ssse3, jview-avx2, jview-avx512, simdjson); and
// workload `minify`, the writer's minify kernels (`jview -c .` of an unmodified value) vs simdjson::minify on the
// corpus files (engines jview-portable, jview-ssse3, jview-avx512, simdjson).
// Human table (median GB/s, ratio to simdjson) on stderr; one JSON row per (file, workload, engine) on stdout.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "simd/minify.hpp"

namespace {

using jview::simd::kernel_set;
using jview::simd::minify_kernel;

// One engine of a workload: runs over the input and returns a digest of its answer (all engines must agree).
struct engine {
  std::string name;
  std::uint64_t (*run)(const void* kernel, const std::string& in, std::string& scratch);
  const void* kernel;  // a kernel_set or minify_kernel; null for simdjson
};

std::uint64_t utf8_kernel(const void* k, const std::string& s, std::string&) {
  return static_cast<const kernel_set*>(k)->validate_utf8(s.data(), s.size()) == s.size();
}
std::uint64_t utf8_simdjson(const void*, const std::string& s, std::string&) {
  return simdjson::validate_utf8(s.data(), s.size());
}

// The digest of a minified text: its length and a few of its bytes.
std::uint64_t digest(const char* p, std::size_t n) {
  std::uint64_t h = n;
  for (std::size_t i = 0; i < n; i += 4093) h = h * 31 + static_cast<unsigned char>(p[i]);
  return n == 0 ? h : h * 31 + static_cast<unsigned char>(p[n - 1]);
}
// As the writer drives the kernels (core/writer.cpp: simd::minify_bytes).
std::uint64_t minify_jview(const void* k, const std::string& s, std::string& out) {
  jview::simd::minify_state st;
  const char* o = jview::simd::minify_bytes(static_cast<const minify_kernel*>(k)->run,
                                            reinterpret_cast<const unsigned char*>(s.data()), s.size(), out.data(), st);
  return digest(out.data(), static_cast<std::size_t>(o - out.data()));
}
std::uint64_t minify_simdjson(const void*, const std::string& s, std::string& out) {
  std::size_t n = 0;
  if (simdjson::minify(s.data(), s.size(), out.data(), n) != simdjson::SUCCESS) return 0;
  return digest(out.data(), n);
}

// Mixed text as found in multilingual JSON: about half ASCII, the rest 2-, 3- and 4-byte sequences, in short runs
// (so the ASCII shortcut rarely applies and branchy validators mispredict).
std::string mixed_text(std::size_t n) {
  std::string s;
  s.reserve(n + 4);
  std::uint64_t x = 0x243f6a8885a308d3ull;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  while (s.size() + 4 <= n) {
    const std::uint64_t r = next();
    const unsigned kind = r % 20;
    std::uint32_t cp;
    if (kind < 10) cp = 0x20 + (r >> 8) % 0x5f;                 // ASCII
    else if (kind < 14) cp = 0x80 + (r >> 8) % (0x800 - 0x80);  // Latin, Greek, Cyrillic, Arabic...
    else if (kind < 19) cp = 0x800 + (r >> 8) % (0xd800 - 0x800);  // CJK and the rest of the BMP
    else cp = 0x10000 + (r >> 8) % 0x10000;                     // emoji and other astral
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xc0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xe0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      s += static_cast<char>(0xf0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  while (s.size() < n) s += 'a';
  return s;
}

struct input {
  std::string name;
  std::string data;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Times every engine on every input (rounds interleave the engines), after checking that they agree.
bool measure(const char* workload, const std::vector<input>& inputs, const std::vector<engine>& engines, bool quick) {
  const auto clock_us = [] {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  // Header.
  std::fprintf(stderr, "\n%-34s %10s", (std::string(workload) + ": median GB/s (x simdjson)").c_str(), "bytes");
  for (const engine& e : engines) std::fprintf(stderr, " %22s", e.name.c_str());
  std::fprintf(stderr, "\n");

  for (const input& in : inputs) {
    // Agreement first: every engine must give the same answer.
    std::string scratch(in.data.size() + 128, '\0');
    const std::uint64_t verdict = engines.front().run(engines.front().kernel, in.data, scratch);
    for (const engine& e : engines) {
      if (e.run(e.kernel, in.data, scratch) != verdict) {
        std::fprintf(stderr, "bench_utf8: %s disagrees on %s (%s)\n", e.name.c_str(), in.name.c_str(), workload);
        return false;
      }
    }
    // Small files are timed in batches so a sample lasts long enough to measure (~1 MB of work per sample).
    const std::size_t size = std::max<std::size_t>(in.data.size(), 1);
    const std::size_t batch = std::max<std::size_t>(1, (std::size_t{1} << 20) / size);
    const int rounds = quick ? 5 : (in.data.size() > (16u << 20) ? 11 : 31);
    std::vector<std::vector<double>> times(engines.size());
    volatile std::uint64_t sink = 0;
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t ei = 0; ei < engines.size(); ++ei) {  // rounds interleave the engines
        const engine& e = engines[ei];
        sink = e.run(e.kernel, in.data, scratch);  // untimed warm-up call
        const double t0 = clock_us();
        for (std::size_t b = 0; b < batch; ++b) sink = e.run(e.kernel, in.data, scratch);
        times[ei].push_back((clock_us() - t0) / static_cast<double>(batch));
      }
    }
    (void)sink;
    std::vector<double> med(engines.size());
    for (std::size_t ei = 0; ei < engines.size(); ++ei) {
      med[ei] = median(times[ei]);
      const double best = *std::min_element(times[ei].begin(), times[ei].end());
      std::printf("{\"file\": \"%s\", \"workload\": \"%s\", \"engine\": \"%s\", \"median_us\": %.3f, "
                  "\"best_us\": %.3f, \"bytes\": %zu}\n",
                  in.name.c_str(), workload, engines[ei].name.c_str(), med[ei], best, in.data.size());
    }
    const double simdjson_us = med.back();
    std::fprintf(stderr, "%-34s %10zu", in.name.c_str(), in.data.size());
    for (std::size_t ei = 0; ei < engines.size(); ++ei) {
      const double gbps = static_cast<double>(in.data.size()) / (med[ei] * 1e3);
      std::fprintf(stderr, "      %7.2f (%5.2fx)", gbps, simdjson_us / med[ei]);
    }
    std::fprintf(stderr, "\n");
  }
  return true;
}

// Kernels in ascending order (the tables are best-first), then simdjson.
std::vector<engine> utf8_engines() {
  std::vector<engine> engines;
  const auto all = jview::simd::all_utf8_kernels();
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if (jview::simd::cpu_supports(it->level)) engines.push_back({std::string("jview-") + it->name, &utf8_kernel, &*it});
  engines.push_back({"simdjson", &utf8_simdjson, nullptr});
  return engines;
}

std::vector<engine> minify_engines() {
  const minify_kernel* ks[8];
  const std::size_t n = jview::simd::minify_kernels(ks, 8);
  std::vector<engine> engines;
  for (std::size_t i = n; i-- > 0;) engines.push_back({std::string("jview-") + ks[i]->name, &minify_jview, ks[i]});
  engines.push_back({"simdjson", &minify_simdjson, nullptr});
  return engines;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef JVIEW_SHARED_DIR
  std::string data_dir = JVIEW_SHARED_DIR "/corpus";
#else
  std::string data_dir = "../shared/corpus";
#endif
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data" && i + 1 < argc) data_dir = argv[++i];
    else if (a == "--quick") quick = true;
    else {
      std::fprintf(stderr, "usage: %s [--data DIR] [--quick]\n", argv[0]);
      return 2;
    }
  }

  std::vector<input> inputs;
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(data_dir, ec)) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".json" || ext == ".ndjson")) files.push_back(e.path());
  }
  if (ec || files.empty()) {
    std::fprintf(stderr, "bench_utf8: no .json files in %s\n", data_dir.c_str());
    return 2;
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    inputs.push_back({f.filename().string(), std::string(std::istreambuf_iterator<char>(in), {})});
  }
  inputs.push_back({"mixed-utf8-64MiB", mixed_text(quick ? (8u << 20) : (64u << 20))});
  if (quick) inputs.back().name = "mixed-utf8-8MiB";


  std::fprintf(stderr, "simdjson implementation: %s (%s)\n", simdjson::get_active_implementation()->name().c_str(),
               simdjson::get_active_implementation()->description().c_str());
  std::fprintf(stderr, "jview %s\n", jview::simd::describe_kernels(jview::simd::active_kernels()).c_str());

  if (!measure("utf8", inputs, utf8_engines(), quick)) return 1;
  // minify: the JSON files (not the generated text).
  std::vector<input> json(inputs.begin(), inputs.end() - 1);
  if (!measure("minify", json, minify_engines(), quick)) return 1;
  return 0;
}
