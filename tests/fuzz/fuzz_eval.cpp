// tests/fuzz/fuzz_eval.cpp: libFuzzer target: random programs on random inputs. The input is `PROGRAM \0 JSON`
// (without a NUL the JSON is a fixed sample document). Limits keep runs short: at most 200 outputs and 1 MB of
// output text (the emit callback throws to stop the run), no numeric literal over two digits, and none of the
// builtins that run without end (range, repeat, while, until, recurse, infinite), make huge numbers (pow, exp10),
// read files (import) or run a fuzzed regex (backtracking). run.sh runs this target in fork mode with -timeout and
// -rss_limit_mb, timeouts and out-of-memory ignored: a slow program found anyway does not stop the session.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

struct output_budget_exceeded {};

// No input beyond the one given: `input` fails, `inputs` is empty.
class no_inputs final : public filter::input_provider {
 public:
  bool next(filter::value&) override { return false; }
  std::string current_filename() const override { return "fuzz.json"; }
};

// True when the program is allowed by the limits above (a cheap token scan; strings are scanned too, which only
// rejects a few more programs).
bool within_limits(std::string_view src) {
  static constexpr std::string_view denied[] = {
      "range", "repeat", "while", "until", "recurse", "recurse_down", "infinite", "input", "inputs",
      "combinations", "test", "match", "capture", "scan", "splits", "sub", "gsub", "import", "include",
      "modulemeta", "get_search_list", "pow", "exp", "exp2", "exp10", "ldexp", "scalb", "scalbln"};
  std::size_t i = 0;
  while (i < src.size()) {
    const unsigned char c = static_cast<unsigned char>(src[i]);
    if (std::isdigit(c)) {
      std::size_t j = i;
      while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) ++j;
      if (j - i > 2) return false;
      if (j < src.size() && (src[j] == 'e' || src[j] == 'E')) return false;  // 9e9
      i = j;
      continue;
    }
    if (std::isalpha(c) || c == '_' || c == '@') {
      std::size_t j = i + 1;
      while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      const std::string_view word = src.substr(i, j - i);
      for (std::string_view d : denied)
        if (word == d) return false;
      i = j;
      continue;
    }
    ++i;
  }
  return true;
}

struct input_doc {
  std::string text;
  document doc;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const char* p = reinterpret_cast<const char*>(data);
  const char* nul = static_cast<const char*>(std::memchr(p, 0, size));
  const std::string_view source(p, nul != nullptr ? static_cast<std::size_t>(nul - p) : size);
  if (!within_limits(source)) return 0;
  auto in = std::make_shared<input_doc>();
  in->text = nul != nullptr ? std::string(nul + 1, p + size)
                            : std::string(R"({"a":[1,"x",null,{"b":2.5,"c":[true,false]}],"s":"h\u00e9llo","n":-0})");
  parser ps{parse_options{}};
  if (fuzz::parse_single(ps, in->text.data(), in->text.data() + in->text.size(), in->doc) != error_code::ok) return 0;

  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(source, filter::compile_options{});
  } catch (const filter::compile_error&) {
    return 0;
  }
  std::string out;
  output_buffer buf(&output_buffer::to_string, &out, 4096);
  writer w(buf, fuzz::compact_options());
  int outputs = 0;
  filter::run_callbacks cb;
  cb.emit = [&](const filter::value& v) {
    filter::write_value(w, v);
    buf.put('\n');
    buf.flush();
    if (++outputs > 200 || out.size() > (1u << 20)) throw output_budget_exceeded{};
  };
  cb.debug = [](const filter::value&) {};
  cb.stderr_out = [](std::string_view) {};
  no_inputs inputs;
  std::string error;
  int halt = -1;
  const filter::value input = filter::value::view(std::shared_ptr<const document>(in, &in->doc), 0);
  try {
    const bool ok = prog->run(input, &inputs, cb, error, halt);
    JVIEW_FUZZ_CHECK(ok || !error.empty() || halt >= 0);
  } catch (const output_budget_exceeded&) {
  } catch (const std::bad_alloc&) {
    // A huge allocation refused under the fuzzer's memory limit (allocator_may_return_null): not a bug here; the
    // CLI's out-of-memory behaviour has its own hostile test.
  }
  return 0;
}
