// tests/unit/core/writer_minify_test.cpp: the writer's `-c` path for values written as their minified source text
// (document::verbatim, writer::minified) against its node-by-node path on the corpus and JSONTestSuite, under each
// kernel mode, and which escapes qualify a value for that path.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"
#include "tests/unit/test_data.hpp"
#include "simd/kernels.hpp"
#include "simd/minify.hpp"

using namespace jview;

namespace {

// Puts the process's kernel choice back however a test case ends.
struct mode_guard {
  simd::kernels saved = simd::active_kernels();
  ~mode_guard() { simd::use_kernels(saved); }
};

// The compact writing of json by the writer: through the minify path (when the document allows it) or, with the
// parser's facts cleared, node by node.
std::string write_compact(const std::string& json, bool nodes_only) {
  document doc;
  parser p;
  const char* stop = nullptr;
  if (p.parse(json.data(), json.data() + json.size(), doc, stop)) return "<error>";
  if (nodes_only) doc.set(doc.source(), doc.size(), {0, doc.has_duplicate_keys(), 0});
  std::string s;
  output_buffer out(&output_buffer::to_string, &s, 4096);
  write_options o;
  o.pretty = false;
  writer w(out, o);
  w.value(doc, 0);
  out.flush();
  return s;
}

std::string slurp(const std::filesystem::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("minify: the writer's -c path equals its node path on the corpus and JSONTestSuite, in every mode") {
  mode_guard guard;
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& f : test::json_files_in(test::shared_subdir("corpus", "minify on the benchmark corpus")))
    if (f.extension() == ".json") files.push_back(f);
  for (const fs::path& f : test::json_files_in(
           test::shared_subdir("conformance/JSONTestSuite/test_parsing", "minify on JSONTestSuite")))
    if (f.filename().string().rfind("y_", 0) == 0) files.push_back(f);
  const bool shared = !files.empty();
  for (const fs::path& f : test::own_json_files())
    if (f.extension() == ".json" && f.filename().string().rfind("n_", 0) != 0) files.push_back(f);
  REQUIRE(files.size() > (shared ? 100u : 60u));
  std::size_t verbatim = 0;
  for (const char* name : {"auto", "ssse3", "portable"}) {
    simd::kernel_request req;
    REQUIRE(simd::parse_kernel_request(name, req));
    simd::kernels k;
    std::string why;
    if (!simd::choose_kernels(req, k, why)) continue;  // a level this build or CPU lacks
    simd::use_kernels(k);
    for (const fs::path& f : files) {
      const std::string json = slurp(f);
      const std::string fast = write_compact(json, false);
      INFO(f.string(), " kernel ", simd::active_kernels().minify->name);
      CHECK(fast == write_compact(json, true));
      verbatim += fast != "<error>" && json.find("\\u") == std::string::npos && json.find("\\/") == std::string::npos;
    }
  }
  CHECK(verbatim > (shared ? 100u : 50u));  // most files take the minify path
}

TEST_CASE("minify: only unmodified text qualifies") {
  const auto facts = [](const std::string& json) {
    document doc;
    parser p;
    const char* stop = nullptr;
    REQUIRE_FALSE(p.parse(json.data(), json.data() + json.size(), doc, stop));
    return doc.verbatim();
  };
  CHECK(facts(" [1, \"a b\", {\"k\": null}] "));
  CHECK(facts("\"x\""));
  CHECK(facts("12"));
  // Escapes of the forms jq writes qualify; the others (and DEL) do not, in keys too.
  CHECK(facts(R"(["a\nb \" \\ \b\f\r\t \u0000 \u001f \u000b \u007f"])"));
  CHECK_FALSE(facts(R"(["a\/b"])"));       // jq writes "/"
  CHECK_FALSE(facts(R"(["\u00e9"])"));     // jq writes the character
  CHECK_FALSE(facts(R"(["\u001F"])"));     // jq writes lowercase hex
  CHECK_FALSE(facts(R"(["\u0009"])"));     // jq writes \t
  CHECK_FALSE(facts(R"(["\ud83d\ude00"])"));
  CHECK_FALSE(facts(R"({"\u0061": 1})"));  // an escaped key
  CHECK(facts(R"({"a\"b": 1})"));
  CHECK_FALSE(facts("[\"a\x7f\"]"));       // DEL: jq writes \u007f
  CHECK_FALSE(facts(R"({"a":1,"a":2})"));  // jq keeps one member
  CHECK(write_compact(" [ 1 ,\n\t\"a  b\" , { \"k\" : [ ] } ]\n", false) == R"([1,"a  b",{"k":[]}])");
  CHECK(write_compact(" [ \"a \\\" ,\\\\\" , \"\\\\\" , 2 ] ", false) == R"(["a \" ,\\","\\",2])");
}
