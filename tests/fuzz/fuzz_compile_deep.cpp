// tests/fuzz/fuzz_compile_deep.cpp: libFuzzer target: deep and long programs (issue 25.1). The input is not the
// program text but a recipe for one, so that every mutation is a grammatical program: each 4-byte step names a
// construct of jq's grammar from the table below and a repetition count (up to 10^6), and wraps the program built
// so far in it (a chain of 10^5 `+`, 10^4 nested brackets, a run of `def`s, 10^5 `.a` suffixes ...). The program
// (at most 1 MB of text) is compiled: it compiles or throws compile_error; then, if it compiled, it runs once on
// null with fuzz_eval's limits (200 outputs): it ends, or fails with an error (a depth limit), never overflowing
// the stack. Under ASan the evaluation runs on the thread's own stack (no stack switch), where the depth checks
// matter most. Any crash, sanitizer report or other exception is a bug.
#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

// How a construct wraps the program P built so far: `before`^n P `after`^n (nesting), or (P) `repeat`^n (a chain:
// an operator and its operand, a suffix, a binding). Every entry keeps the program grammatical and finite.
struct construct {
  const char* before;
  const char* after;
  const char* repeat;
};
constexpr construct k_constructs[] = {
    // chains of binary operators (left- and right-associative)
    {"", "", " + 1"}, {"", "", " - 1"}, {"", "", " * 1"}, {"", "", ", 1"}, {"", "", " // null"},
    {"", "", " and true"}, {"", "", " or false"}, {"", "", " | ."}, {"", "", " + .a"}, {"", "", " + $__loc__.line"},
    {"", "", " == 1 | not"}, {"", "", " |= ."}, {"", "", " as $x | $x"}, {"", "", " as [$a, {b: $c}] | $a"},
    // suffix chains
    {"", "", ".a"}, {"", "", "[0]"}, {"", "", "[]?"}, {"", "", "?"}, {"", "", ".a?"}, {"", "", "[1:]"},
    {"", "", ".[\"k\"]"},
    // runs of definitions and labels in front
    {"def f: 1; ", "", ""}, {"def g(x): x; ", "", ""}, {"label $l | ", "", ""}, {"def h($v): $v; ", "", ""},
    // nesting
    {"(", ")", ""}, {"[", "]", ""}, {"{a: ", "}", ""}, {"-", "", ""}, {"if . then ", " else 1 end", ""},
    {"reduce . as $x (", "; .)", ""}, {"foreach . as $x (", "; .; .)", ""}, {"try ", "", ""},
    {"def f: ", "; f", ""}, {"\"\\(", ")\"", ""}, {"[.[]?, ", "]", ""}, {"path(", ")", ""}, {"first(", ")", ""},
    {"label $out | ", " | ., break $out", ""}, {". as [", "] | 1", "$x"}, {"{(", "): 1}", ""},
};
constexpr std::size_t k_count = sizeof(k_constructs) / sizeof(k_constructs[0]);
// 1 MB of text (3*10^5 terms): under ASan + UBSan at -O1 such a program compiles and runs within libFuzzer's 10 s
// (the hostile suite runs the 10^6-term ones on the release build).
constexpr std::size_t k_max_text = std::size_t{1} << 20;

struct output_budget_exceeded {};

class no_inputs final : public filter::input_provider {
 public:
  bool next(filter::value&) override { return false; }
  std::string current_filename() const override { return "fuzz.json"; }
};

std::string build_program(const std::uint8_t* data, std::size_t size) {
  std::string p = "1";
  for (std::size_t i = 0; i + 4 <= size; i += 4) {
    const construct& c = k_constructs[data[i] % k_count];
    // Counts of every size: 1-255 mostly, up to 65535 * 16 (10^6) for the big ones.
    std::size_t n = data[i + 1];
    if (data[i + 2] & 0x80) n = (n << 8 | data[i + 3]) * (1 + (data[i + 2] & 15));
    if (n == 0) n = 1;
    const std::size_t each = std::string_view(c.before).size() + std::string_view(c.after).size() +
                             std::string_view(c.repeat).size() + 2;
    n = std::min(n, (k_max_text - std::min(k_max_text, p.size())) / each);
    if (n == 0) break;
    std::string next;
    next.reserve(p.size() + n * each + 2);
    if (*c.repeat != '\0' && (*c.before != '\0' || *c.after != '\0')) {
      // A pattern with an inner repetition: `. as [$x, $x, ...] | 1`.
      next = p + " | ";
      next += c.before;
      for (std::size_t k = 0; k < n; ++k) next += (k == 0 ? "" : ", ") + std::string(c.repeat);
      next += c.after;
    } else if (*c.repeat != '\0') {
      next = "(" + p + ")";
      for (std::size_t k = 0; k < n; ++k) next += c.repeat;
    } else {
      for (std::size_t k = 0; k < n; ++k) next += c.before;
      next += p;
      for (std::size_t k = 0; k < n; ++k) next += c.after;
    }
    p = std::move(next);
  }
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64) return 0;  // at most 16 steps
  const std::string source = build_program(data, size);
  filter::compile_options opts;
  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(source, opts);
  } catch (const filter::compile_error& e) {
    JVIEW_FUZZ_CHECK(!e.message.empty(), source.substr(0, 200));
    return 0;
  }
  JVIEW_FUZZ_CHECK(prog != nullptr);
  int outputs = 0;
  filter::run_callbacks cb;
  cb.emit = [&](const filter::value&) {
    if (++outputs > 200) throw output_budget_exceeded{};
  };
  cb.debug = [](const filter::value&) {};
  cb.stderr_out = [](std::string_view) {};
  no_inputs inputs;
  std::string error;
  int halt = -1;
  try {
    const bool ok = prog->run(filter::value(), &inputs, cb, error, halt);
    JVIEW_FUZZ_CHECK(ok || !error.empty() || halt >= 0, source.substr(0, 200));
  } catch (const output_budget_exceeded&) {
  } catch (const std::bad_alloc&) {
  }
  return 0;
}
