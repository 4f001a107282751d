// tests/benchmarks/engines/common.hpp: what the benchmark runner and the engine adapters share: the workloads, the
// input (one padded copy of a file, its NDJSON lines), the select path, and the result every engine fills in so the
// runner can check that all engines computed the same thing before it times any of them.
// Every workload starts from the file's bytes: traverse, select and dump include the parse (On-Demand has no
// separate parse), and the `parse` rows give the parse alone.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jview::bench {

// stage1 (run only when --workloads names it): the structural index alone, jview's and simdjson's stage 1 (the
// engines with one: engine::has_stage1); their token lists differ (jview's also holds closing quotes), so it is
// timed without a check. It shows how the parse's time splits.
enum class workload : int { parse, traverse, select, dump_compact, dump_pretty, dump_shortest, stage1 };
inline constexpr workload k_workloads[] = {workload::parse,        workload::traverse,    workload::select,
                                           workload::dump_compact, workload::dump_pretty, workload::dump_shortest,
                                           workload::stage1};

inline const char* workload_name(workload w) {
  switch (w) {
    case workload::parse: return "parse";
    case workload::traverse: return "traverse";
    case workload::select: return "select";
    case workload::dump_compact: return "dump-compact";
    case workload::dump_pretty: return "dump-pretty";
    case workload::dump_shortest: return "dump-shortest";
    case workload::stage1: return "stage1";
  }
  return "?";
}

inline bool is_dump(workload w) {
  return w == workload::dump_compact || w == workload::dump_pretty || w == workload::dump_shortest;
}

// One step of a select path: `.key`, `[]` (array elements or object values, as jq's .[]), or `[n]`.
struct path_step {
  enum kind_t { key, each, index } kind;
  std::string name;  // key
  std::size_t n = 0; // index
};

// A file as every engine sees it: the bytes followed by 64 zero bytes (simdjson's padding; harmless for the others).
struct input {
  std::string name;
  const char* data = nullptr;
  std::size_t size = 0;
  bool multi = false;                   // NDJSON: a sequence of values, one per line
  std::vector<std::string_view> lines;  // multi only: the non-blank lines, for engines that parse one value at a time
  std::vector<path_step> path;          // select; empty: no select for this file
  std::string path_text;                // the path in jq syntax, for the table
};

// Counts of the traverse workload: every value visited once (keys are not values, but their bytes count).
struct stats {
  std::uint64_t values = 0;
  std::uint64_t string_bytes = 0;  // decoded UTF-8 bytes of all strings and keys
  double number_sum = 0;           // every number as a double, summed in document order

  void add_number(double d) { number_sum += d; }
};

inline bool same_sum(double a, double b) {
  if (a == b) return true;
  const double scale = std::fmax(std::fabs(a), std::fabs(b));
  return std::fabs(a - b) <= 1e-9 * scale;
}

inline bool operator==(const stats& a, const stats& b) {
  return a.values == b.values && a.string_bytes == b.string_bytes && same_sum(a.number_sum, b.number_sum);
}

// What one run produced. Reused across runs of the same engine (cleared, capacity kept).
struct result {
  stats counts;                        // traverse
  std::vector<std::string> selected;   // select
  std::string text;                    // dumps: the output (values of a multi input end with '\n')
  void clear() {
    counts = {};
    selected.clear();
    text.clear();
  }
};

// An engine adapter: runs one workload from the bytes of `in` to a filled `result`; false when it failed (a parse
// error or an unsupported value). Adapters keep whatever state their "reuse" variant reuses.
class engine {
 public:
  virtual ~engine() = default;
  virtual const char* name() const = 0;
  virtual bool supports(workload w) const = 0;
  // Whether the engine runs the stage1 workload (supports() is asked only for the others).
  virtual bool has_stage1() const { return false; }
  virtual bool run(workload w, const input& in, result& r) = 0;
};

}  // namespace jview::bench
