// tests/unit/filter/reference_test.cpp: each builtin that jview writes natively but jq defines in jq, against its
// jq definition in core/filter/reference.jq. Every `#:` check of a definition runs on every `#<` input twice: as
// written (the native) and with the definition in front of it (`def f: ...; check`, which shadows the native), with
// fast paths on and off; the two must give the same outputs, the same error and the same halt.
#include <doctest/doctest.h>

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

struct reference_def {
  int line = 0;
  std::string text;                  // `def name...: body;`, its lines joined
  std::vector<std::string> checks;   // programs calling it
  std::vector<std::string> inputs;   // JSON texts for its checks only
};

struct reference_file {
  std::vector<std::string> inputs;   // every check's inputs
  std::vector<reference_def> defs;
};

reference_file load_reference(const std::string& path) {
  std::ifstream in(path);
  reference_file f;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.rfind("#<", 0) == 0) {
      (f.defs.empty() ? f.inputs : f.defs.back().inputs).push_back(line.substr(2));
    } else if (line.rfind("#:", 0) == 0) {
      REQUIRE_MESSAGE(!f.defs.empty(), "reference.jq:" << lineno << ": a check before any definition");
      f.defs.back().checks.push_back(line.substr(2));
    } else if (line.rfind("def ", 0) == 0) {
      reference_def d;
      d.line = lineno;
      d.text = line;
      f.defs.push_back(std::move(d));
    } else if (!line.empty() && (line[0] == ' ' || line[0] == '\t') && !f.defs.empty() && f.defs.back().checks.empty()) {
      f.defs.back().text += "\n" + line;
    }
  }
  return f;
}

struct holder {
  std::string text;
  document doc;
};

value parse_input(const std::string& text) {
  auto h = std::make_shared<holder>();
  h->text = text;
  const char* p = h->text.data();
  const char* stop = nullptr;
  jview::parser ps;
  REQUIRE_MESSAGE(!ps.parse(p, p + h->text.size(), h->doc, stop), "bad input in reference.jq: " << text);
  return value::view(std::shared_ptr<const document>(h, &h->doc), 0);
}

// Outputs (compact JSON), then the error or halt as one more line.
std::vector<std::string> run(const std::string& source, const value& input, bool fast_paths) {
  std::vector<std::string> lines;
  compile_options opts;
  opts.fast_paths = fast_paths;
  std::unique_ptr<program> prog;
  try {
    prog = program::compile(source, opts);
  } catch (const compile_error& e) {
    lines.push_back("compile error: " + e.message);
    return lines;
  }
  std::string text;
  output_buffer ob(output_buffer::to_string, &text, 4096);
  write_options wo;
  wo.pretty = false;
  writer w(ob, wo);
  run_callbacks cb;
  cb.emit = [&](const value& v) {
    write_value(w, v);
    ob.flush();
    lines.push_back(text);
    text.clear();
  };
  cb.debug = [&](const filter::value& m) { lines.push_back("debug: [\"DEBUG:\"," + filter::to_json(m) + "]"); };
  cb.stderr_out = [&](std::string_view m) { lines.push_back("stderr: " + std::string(m)); };
  std::string err;
  int halt = -1;
  const bool ok = prog->run(input, nullptr, cb, err, halt);
  if (halt >= 0)
    lines.push_back("halt " + std::to_string(halt) + ": " + err);
  else if (!ok)
    lines.push_back(std::string(prog->last_error_not_string() ? "error (not a string): " : "error: ") + err);
  return lines;
}

std::string show(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "    " + l + "\n";
  return s;
}

}  // namespace

TEST_CASE("filter: natives agree with their jq definitions (core/filter/reference.jq)") {
  const reference_file f = load_reference(std::string(JVIEW_SOURCE_DIR) + "/core/filter/reference.jq");
  REQUIRE(!f.inputs.empty());
  REQUIRE(!f.defs.empty());
  std::vector<value> common;
  for (const std::string& t : f.inputs) common.push_back(parse_input(t));
  int runs = 0, checks = 0;
  for (const reference_def& d : f.defs) {
    CHECK_MESSAGE(!d.checks.empty(), "reference.jq:" << d.line << ": a definition without a check");
    std::vector<value> inputs = common;
    for (const std::string& t : d.inputs) inputs.push_back(parse_input(t));
    for (const std::string& check : d.checks) {
      ++checks;
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (const bool fast : {true, false}) {
          ++runs;
          const std::vector<std::string> native = run(check, inputs[i], fast);
          const std::vector<std::string> defined = run(d.text + " " + check, inputs[i], fast);
          if (native != defined) {
            const std::string in_text = (i < f.inputs.size() ? f.inputs[i] : d.inputs[i - f.inputs.size()]) +
                                        (fast ? "" : " (fast paths off)");
            FAIL_CHECK("reference.jq:" << d.line << ": " << check << "\n  input: " << in_text << "\n  native:\n"
                                       << show(native) << "  jq definition:\n"
                                       << show(defined));
          }
        }
      }
    }
  }
  MESSAGE("reference.jq: " << f.defs.size() << " definitions, " << checks << " checks, " << runs << " runs");
}
