// tests/benchmarks/bench_utf8.cpp: UTF-8 validation throughput of each jview kernel this CPU runs beside
// simdjson::validate_utf8, on every corpus file and on 64 MiB of generated mixed non-ASCII text.
// Workload `utf8`; engines jview-portable, jview-sse2, jview-ssse3, jview-avx2, jview-avx512, simdjson.
// Human table (median GB/s, ratio to simdjson) on stderr; one JSON row per (file, engine) on stdout.
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

namespace {

using jview::simd::kernel_set;

struct engine {
  std::string name;
  bool (*run)(const kernel_set*, const std::string&);
  const kernel_set* kernel;  // null for simdjson
};

bool run_kernel(const kernel_set* k, const std::string& s) { return k->validate_utf8(s.data(), s.size()) == s.size(); }
bool run_simdjson(const kernel_set*, const std::string& s) { return simdjson::validate_utf8(s.data(), s.size()); }

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

  std::vector<engine> engines;
  // Kernels in ascending order (the table is best-first), then simdjson.
  const auto all = jview::simd::all_utf8_kernels();
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if (jview::simd::cpu_supports(it->level)) engines.push_back({std::string("jview-") + it->name, &run_kernel, &*it});
  engines.push_back({"simdjson", &run_simdjson, nullptr});

  std::fprintf(stderr, "simdjson implementation: %s (%s)\n", simdjson::get_active_implementation()->name().c_str(),
               simdjson::get_active_implementation()->description().c_str());
  std::fprintf(stderr, "jview %s\n", jview::simd::describe_kernels().c_str());

  // Header.
  std::fprintf(stderr, "\n%-34s %10s", "utf8: median GB/s (x simdjson)", "bytes");
  for (const engine& e : engines) std::fprintf(stderr, " %22s", e.name.c_str());
  std::fprintf(stderr, "\n");

  const auto clock_us = [] {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  for (const input& in : inputs) {
    // Agreement first: every engine must give the same verdict.
    const bool verdict = engines.front().run(engines.front().kernel, in.data);
    for (const engine& e : engines) {
      if (e.run(e.kernel, in.data) != verdict) {
        std::fprintf(stderr, "bench_utf8: %s disagrees on %s\n", e.name.c_str(), in.name.c_str());
        return 1;
      }
    }
    // Small files are timed in batches so a sample lasts long enough to measure (~1 MB of work per sample).
    const std::size_t size = std::max<std::size_t>(in.data.size(), 1);
    const std::size_t batch = std::max<std::size_t>(1, (std::size_t{1} << 20) / size);
    const int rounds = quick ? 5 : (in.data.size() > (16u << 20) ? 11 : 31);
    std::vector<std::vector<double>> times(engines.size());
    volatile bool sink = false;
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t ei = 0; ei < engines.size(); ++ei) {  // rounds interleave the engines
        const engine& e = engines[ei];
        sink = e.run(e.kernel, in.data);  // untimed warm-up call
        const double t0 = clock_us();
        for (std::size_t b = 0; b < batch; ++b) sink = e.run(e.kernel, in.data);
        times[ei].push_back((clock_us() - t0) / static_cast<double>(batch));
      }
    }
    (void)sink;
    std::vector<double> med(engines.size());
    for (std::size_t ei = 0; ei < engines.size(); ++ei) {
      med[ei] = median(times[ei]);
      const double best = *std::min_element(times[ei].begin(), times[ei].end());
      std::printf("{\"file\": \"%s\", \"workload\": \"utf8\", \"engine\": \"%s\", \"median_us\": %.3f, "
                  "\"best_us\": %.3f, \"bytes\": %zu}\n",
                  in.name.c_str(), engines[ei].name.c_str(), med[ei], best, in.data.size());
    }
    const double simdjson_us = med.back();
    std::fprintf(stderr, "%-34s %10zu", in.name.c_str(), in.data.size());
    for (std::size_t ei = 0; ei < engines.size(); ++ei) {
      const double gbps = static_cast<double>(in.data.size()) / (med[ei] * 1e3);
      std::fprintf(stderr, "      %7.2f (%5.2fx)", gbps, simdjson_us / med[ei]);
    }
    std::fprintf(stderr, "\n");
  }
  return 0;
}
