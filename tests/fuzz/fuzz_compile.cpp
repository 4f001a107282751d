// tests/fuzz/fuzz_compile.cpp: libFuzzer target: the jq compiler (lexer, parser, resolver) on arbitrary program
// text. A program either compiles or throws filter::compile_error with a message and a position inside the text;
// anything else (another exception, a crash, a sanitizer report, running out of stack) is a bug.
#include <cstdint>
#include <string_view>

#include "core/filter/program.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::exact_copy in(data, size);
  const std::string_view source(in.data(), in.size());
  filter::compile_options opts;
  opts.named_args = {{"name", "value", false}, {"j", "{\"a\":[1,2]}", true}};
  try {
    std::unique_ptr<filter::program> p = filter::program::compile(source, opts);
    JVIEW_FUZZ_CHECK(p != nullptr);
    (void)p->is_identity();
  } catch (const filter::compile_error& e) {
    JVIEW_FUZZ_CHECK(!e.message.empty());
    JVIEW_FUZZ_CHECK(e.line >= 0 && e.column >= 0);
  }
  return 0;
}
