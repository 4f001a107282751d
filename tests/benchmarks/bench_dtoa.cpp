// Benchmark `dtoa`: ns per double for jview::write_double_shortest (and its portable digit path), std::to_chars
// (shortest) and fmt::format_to (Dragonbox), each writing every double of a set one after another into one buffer.
// Sets: all numbers of canada.json (scanned from the text, strtod) and 1M random finite bit patterns. One JSON row
// per (set, engine) on stdout, a table on stderr; median_us is per call over the whole set.
// Then the literals (workload "literal"): canada.json's number texts through jview::write_number_shortest (what
// --numbers=shortest does), against fast_float + write_double_shortest (the reference it must match) and
// fast_float alone (the cost of the conversion).
#include "core/dtoa.hpp"
#include "core/number.hpp"

#include <fast_float/fast_float.h>
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <time.h>

namespace {

struct engine {
  const char* name;
  char* (*write)(double, char*);
};

char* write_jview(double v, char* p) { return jview::write_double_shortest(v, p); }
char* write_jview_portable(double v, char* p) { return jview::detail::write_double_portable(v, p); }
char* write_to_chars(double v, char* p) { return std::to_chars(p, p + 40, v).ptr; }
char* write_fmt(double v, char* p) { return fmt::format_to(p, FMT_COMPILE("{}"), v); }

const engine k_engines[] = {
    {"jview", write_jview},
    {"jview-portable", write_jview_portable},
    {"to_chars", write_to_chars},
    {"fmt", write_fmt},
};
constexpr std::size_t k_engine_count = std::size(k_engines);

// Formats every value, one after another, into a 64 KiB block that starts over when full, as the writer's output
// buffer is flushed (so the timing is the formatting, not the memory traffic of a 30 MB buffer). Returns the bytes
// written (kept so the work is not optimised away).
constexpr std::size_t k_block = 64 * 1024;
std::size_t run(const engine& e, const std::vector<double>& values, std::vector<char>& buf) {
  char* const start = buf.data();
  char* const limit = start + k_block - 64;
  char* p = start;
  std::size_t total = 0;
  for (double v : values) {
    p = e.write(v, p);
    if (p > limit) [[unlikely]] {
      total += static_cast<std::size_t>(p - start);
      p = start;
    }
  }
  return total + static_cast<std::size_t>(p - start);
}

// Every engine's text must read back as the same doubles (NaN and infinities are not in the sets).
bool agree(const engine& e, const std::vector<double>& values, std::vector<char>& buf) {
  char tmp[64];
  for (double v : values) {
    char* end = e.write(v, tmp);
    *end = '\0';
    if (std::strtod(tmp, nullptr) != v) {
      std::fprintf(stderr, "%s: %.17g wrote '%s'\n", e.name, v, tmp);
      return false;
    }
  }
  return run(e, values, buf) > 0;
}

// The number literals of a JSON text, as views into it.
std::vector<std::string_view> literals_of(const std::string& text) {
  std::vector<std::string_view> out;
  const char* p = text.data();
  const char* end = p + text.size();
  bool in_string = false;
  while (p < end) {
    const char c = *p;
    if (in_string) {
      if (c == '\\') ++p;
      if (c == '"') in_string = false;
      ++p;
    } else if (c == '"') {
      in_string = true;
      ++p;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const char* s = p;
      while (p < end && (std::strchr("+-.eE", *p) != nullptr || (*p >= '0' && *p <= '9'))) ++p;
      out.emplace_back(s, static_cast<std::size_t>(p - s));
    } else {
      ++p;
    }
  }
  return out;
}

std::vector<double> numbers_of(const std::string& text) {
  std::vector<double> out;
  for (std::string_view l : literals_of(text)) out.push_back(std::strtod(std::string(l).c_str(), nullptr));
  return out;
}

std::vector<double> random_doubles(std::size_t n) {
  std::mt19937_64 rng(12345);
  std::vector<double> out;
  out.reserve(n);
  while (out.size() < n) {
    const double v = std::bit_cast<double>(rng());
    if (std::isfinite(v)) out.push_back(v);
  }
  return out;
}

// Wall-clock time by default; with --cpu-time the thread's CPU time, which leaves out the time the thread waits
// for a core on a loaded machine (other builds running beside the benchmark).
bool g_cpu_time = false;
double now_us() {
  timespec ts{};
  clock_gettime(g_cpu_time ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct result {
  double median_us, best_us;
};

void bench_set(const char* file, const std::vector<double>& values, std::size_t bytes, int rounds) {
  std::vector<char> buf(k_block);
  for (const engine& e : k_engines) {
    if (!agree(e, values, buf)) std::exit(1);
  }
  std::vector<double> times[k_engine_count];
  std::size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < k_engine_count; ++i) {
      sink += run(k_engines[i], values, buf);  // untimed warm-up before each timed call
      const double t0 = now_us();
      sink += run(k_engines[i], values, buf);
      times[i].push_back(now_us() - t0);
    }
  }
  result res[k_engine_count];
  for (std::size_t i = 0; i < k_engine_count; ++i) {
    std::sort(times[i].begin(), times[i].end());
    res[i] = {times[i][times[i].size() / 2], times[i].front()};
  }
  std::fprintf(stderr, "\n%s: %zu doubles, %d rounds (checksum %zu)\n", file, values.size(), rounds, sink % 1000);
  std::fprintf(stderr, "  %-16s %12s %12s %10s %12s\n", "engine", "median_us", "best_us", "ns/double", "vs jview");
  for (std::size_t i = 0; i < k_engine_count; ++i) {
    std::fprintf(stderr, "  %-16s %12.1f %12.1f %10.2f %11.2fx\n", k_engines[i].name, res[i].median_us,
                 res[i].best_us, res[i].median_us * 1000.0 / static_cast<double>(values.size()),
                 res[i].median_us / res[0].median_us);
    std::printf(
        "{\"file\": \"%s\", \"workload\": \"dtoa\", \"engine\": \"%s\", \"median_us\": %.1f, \"best_us\": %.1f, "
        "\"bytes\": %zu}\n",
        file, k_engines[i].name, res[i].median_us, res[i].best_us, bytes);
  }
}

struct literal_engine {
  const char* name;
  char* (*write)(std::string_view, char*);
};

double fast_float_value(std::string_view s) {
  double d = 0;
  fast_float::from_chars(s.data(), s.data() + s.size(), d);
  return d;
}
char* lit_jview(std::string_view s, char* p) { return jview::write_number_shortest(s, p); }
char* lit_reference(std::string_view s, char* p) { return jview::write_double_shortest(fast_float_value(s), p); }
char* lit_fast_float(std::string_view s, char* p) {
  const double d = fast_float_value(s);
  std::memcpy(p, &d, 8);
  return p + 8;
}

const literal_engine k_literal_engines[] = {
    {"jview-literal", lit_jview},
    {"fast_float+jview", lit_reference},
    {"fast_float-only", lit_fast_float},
};
constexpr std::size_t k_literal_engine_count = std::size(k_literal_engines);

std::size_t run_literals(const literal_engine& e, const std::vector<std::string_view>& values, std::vector<char>& buf) {
  char* const start = buf.data();
  char* const limit = start + k_block - 64;
  char* p = start;
  std::size_t total = 0;
  for (std::string_view v : values) {
    p = e.write(v, p);
    if (p > limit) [[unlikely]] {
      total += static_cast<std::size_t>(p - start);
      p = start;
    }
  }
  return total + static_cast<std::size_t>(p - start);
}

void bench_literals(const char* file, const std::vector<std::string_view>& values, std::size_t bytes, int rounds) {
  std::vector<char> buf(k_block);
  // write_number_shortest must write what the reference writes.
  for (std::string_view v : values) {
    char a[64], b[64];
    const std::string_view x(a, static_cast<std::size_t>(lit_jview(v, a) - a));
    const std::string_view y(b, static_cast<std::size_t>(lit_reference(v, b) - b));
    if (x != y) {
      std::fprintf(stderr, "literal %.*s: wrote '%.*s', reference '%.*s'\n", static_cast<int>(v.size()), v.data(),
                   static_cast<int>(x.size()), x.data(), static_cast<int>(y.size()), y.data());
      std::exit(1);
    }
  }
  std::vector<double> times[k_literal_engine_count];
  std::size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < k_literal_engine_count; ++i) {
      sink += run_literals(k_literal_engines[i], values, buf);
      const double t0 = now_us();
      sink += run_literals(k_literal_engines[i], values, buf);
      times[i].push_back(now_us() - t0);
    }
  }
  std::fprintf(stderr, "\n%s literals: %zu, %d rounds (checksum %zu)\n", file, values.size(), rounds, sink % 1000);
  std::fprintf(stderr, "  %-16s %12s %12s %10s %12s\n", "engine", "median_us", "best_us", "ns/literal", "vs first");
  double first = 0;
  for (std::size_t i = 0; i < k_literal_engine_count; ++i) {
    std::sort(times[i].begin(), times[i].end());
    const double med = times[i][times[i].size() / 2];
    if (i == 0) first = med;
    std::fprintf(stderr, "  %-16s %12.1f %12.1f %10.2f %11.2fx\n", k_literal_engines[i].name, med, times[i].front(),
                 med * 1000.0 / static_cast<double>(values.size()), med / first);
    std::printf(
        "{\"file\": \"%s\", \"workload\": \"literal\", \"engine\": \"%s\", \"median_us\": %.1f, \"best_us\": %.1f, "
        "\"bytes\": %zu}\n",
        file, k_literal_engines[i].name, med, times[i].front(), bytes);
  }
}

}  // namespace

int main(int argc, char** argv) {
#ifdef JVIEW_SOURCE_DIR
  std::string data = JVIEW_SOURCE_DIR "/../shared/corpus";
#else
  std::string data = "../shared/corpus";
#endif
  bool quick = false;
  bool literals_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
      data = argv[++i];
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--cpu-time") == 0) {
      g_cpu_time = true;
    } else if (std::strcmp(argv[i], "--literals") == 0) {
      literals_only = true;
    } else {
      std::fprintf(stderr, "usage: %s [--data DIR] [--quick] [--cpu-time] [--literals]\n", argv[0]);
      return 2;
    }
  }
  const int rounds = quick ? 5 : 31;
  std::ifstream in(data + "/canada.json", std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s/canada.json\n", data.c_str());
    return 2;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!literals_only) {
    bench_set("canada.json", numbers_of(text), text.size(), rounds);
    const std::vector<double> random = random_doubles(quick ? 200000 : 1000000);
    bench_set("random-doubles", random, random.size() * sizeof(double), rounds);
  }
  bench_literals("canada.json", literals_of(text), text.size(), rounds);
  return 0;
}
