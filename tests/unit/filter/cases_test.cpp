// tests/unit/filter/cases_test.cpp: runs the table of jq programs in tests/filter/*.test (jq's own .test format:
// program line, input line, expected output lines, blank line; `%%FAIL` blocks expect a compile error). Outputs
// are compared as compact JSON text, byte for byte; a runtime error is one more line,
// "jq: error (at <unknown>): <message>". Expected outputs were produced by jq 1.8.2 (tests/filter/gen_cases.py).
// Every case runs twice: with the evaluator's fast paths (core/filter/fast_paths.cpp) and without them.
#include <doctest/doctest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"

namespace {

using namespace jview;
using namespace jview::filter;

struct test_case {
  std::string file;
  int line = 0;
  bool fail = false;
  std::string program;
  std::string input;
  std::vector<std::string> expected;
};

std::vector<test_case> load_cases(const std::string& path) {
  std::ifstream in(path);
  std::vector<test_case> out;
  std::string line;
  int lineno = 0;
  std::vector<std::pair<int, std::string>> block;
  auto flush = [&]() {
    if (block.empty()) return;
    test_case c;
    c.file = path;
    std::size_t i = 0;
    if (block[0].second.rfind("%%FAIL", 0) == 0) {
      c.fail = true;
      ++i;
    }
    if (i < block.size()) {
      c.line = block[i].first;
      c.program = block[i++].second;
    }
    if (!c.fail && i < block.size()) c.input = block[i++].second;
    for (; i < block.size(); ++i) c.expected.push_back(block[i].second);
    out.push_back(std::move(c));
    block.clear();
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) {
      flush();
      continue;
    }
    if (line[0] == '#' && block.empty()) continue;
    block.emplace_back(lineno, line);
  }
  flush();
  return out;
}

struct holder_input {
  std::string text;
  document doc;
};

bool parse_input(const std::string& text, value& out) {
  auto h = std::make_shared<holder_input>();
  h->text = text;
  const char* p = h->text.data();
  const char* end = p + h->text.size();
  if (jview::parser::at_end(p, end)) return false;
  jview::parser ps;
  const char* stop = nullptr;
  if (ps.parse(p, end, h->doc, stop)) return false;
  out = value::view(std::shared_ptr<const document>(h, &h->doc), 0);
  return true;
}

// Runs one case; returns the lines it produced.
std::vector<std::string> run_case(const test_case& c, bool fast_paths, bool& compile_failed) {
  std::vector<std::string> lines;
  compile_failed = false;
  std::unique_ptr<program> prog;
  try {
    compile_options opts;
    opts.fast_paths = fast_paths;
    prog = program::compile(c.program, opts);
  } catch (const compile_error& e) {
    compile_failed = true;
    std::string l = "jq: error: " + e.message;
    if (e.line > 0) l += " at <top-level>, line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ":";
    lines.push_back(l);
    return lines;
  }
  value input;
  if (!parse_input(c.input, input)) {
    lines.push_back("bad test input: " + c.input);
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
  cb.debug = [](const filter::value&) {};
  cb.stderr_out = [](std::string_view) {};
  std::string err;
  int halt = -1;
  if (!prog->run(input, nullptr, cb, err, halt) && halt < 0) {
    if (prog->last_error_not_string())
      lines.push_back("jq: error (at <unknown>) (not a string): " + err);
    else
      lines.push_back("jq: error (at <unknown>): " + err);
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "    " + l + "\n";
  return s;
}

}  // namespace

TEST_CASE("filter: table of jq programs (tests/filter/*.test)") {
  const std::string dir = std::string(JVIEW_SOURCE_DIR) + "/tests/filter";
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 5 && n.substr(n.size() - 5) == ".test") files.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  int total = 0, passed = 0;
  for (const bool fast_paths : {true, false}) {
    for (const auto& f : files) {
      for (const test_case& c : load_cases(f)) {
        ++total;
        bool compile_failed = false;
        const std::vector<std::string> got = run_case(c, fast_paths, compile_failed);
        bool ok;
        if (c.fail) {
          // The first expected line is jq's first error line; compare it whole.
          ok = compile_failed && !c.expected.empty() && got.front() == c.expected.front();
        } else {
          ok = got == c.expected;
        }
        if (ok) {
          ++passed;
        } else {
          const std::string where = c.file.substr(c.file.rfind('/') + 1) + ":" + std::to_string(c.line) +
                                    (fast_paths ? " (fast paths on)" : " (fast paths off)");
          FAIL_CHECK(where << "\n  program: " << c.program
                           << "\n  input:   " << c.input << "\n  expected:\n"
                           << join_lines(c.expected) << "  got:\n"
                           << join_lines(got));
        }
      }
    }
  }
  MESSAGE("filter cases (each with fast paths on and off): " << passed << "/" << total << " passed");
  CHECK(passed == total);
}
