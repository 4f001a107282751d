// tests/unit/core/stream_events_test.cpp: --stream's event producer (core/stream_events.hpp) against a full parse
// and walk of the same bytes (tests/fuzz/stream_check.hpp): the same events for every value, the same error
// (message, byte, line, column) as the parser's, whatever pieces the bytes arrive in. Inputs: random documents and
// mutations of them, the corpus, JSONTestSuite's y_/n_/i_ cases, under the parser's options (--strict,
// --replace-invalid-utf8, a small --max-depth) and both scanner families.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/sanitizer.hpp"
#include "core/stream_events.hpp"
#include "simd/kernels.hpp"
#include "tests/fuzz/stream_check.hpp"
#include "tests/unit/test_data.hpp"

using namespace jview;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The pipe in pieces of at most 60000, 4096, 7 and 1 bytes, all equal, and equal to the reference but for the
// events of a value cut short by an error (which the reference does not have); the piped result returned.
std::string check_all(const std::string& bytes, const parse_options& opts, const std::string& name) {
  const std::string want = stream_check::reference(bytes, opts);
  std::string first;
  for (unsigned max_piece : {60000u, 4096u, 7u, 1u}) {
    if (bytes.size() > 20000u * max_piece) continue;   // (a system call per piece)
    const std::string got = stream_check::piped(bytes, opts, bytes.size() * 31 + max_piece, max_piece);
    if (first.empty()) first = got;
    const std::string& expected = max_piece == 60000 ? want : first;
    const std::string& seen = max_piece == 60000 ? stream_check::without_failed_value(got) : got;
    if (seen != expected) {
      INFO(name << " in pieces of at most " << max_piece);
      CHECK(seen.substr(0, 3000) == expected.substr(0, 3000));
      CHECK(seen.size() == expected.size());
      break;
    }
  }
  return first;
}

// Random JSON text: values of every kind, nested, with escapes, non-ASCII text, numbers in every form, and
// whitespace between tokens.
struct text_gen {
  std::mt19937_64 rng;
  std::string ws() {
    static const char* k[] = {"", "", "", " ", "\n", "\t", " \r\n  "};
    return k[rng() % 7];
  }
  std::string scalar() {
    static const char* k[] = {"0", "-0", "1", "-12", "3.25", "1e3", "2E-2", "-0.5e+10", "123456789012345678901234",
                              "true", "false", "null", "\"\"", "\"a\"", "\"\\u00e9\\n\\\"x\"", "\"\xc3\xa9t\xc3\xa9\"",
                              "\"\\ud83d\\ude00\"", "\"\\/\\b\\f\\r\\t\"", "\"\x7f\"", "\"\xf0\x9f\x98\x80\""};
    return k[rng() % 20];
  }
  std::string value(int depth) {
    const unsigned r = static_cast<unsigned>(rng() % 10);
    if (depth > 6 || r < 4) return scalar();
    std::string s;
    const bool object = r >= 7;
    s += object ? '{' : '[';
    const unsigned n = static_cast<unsigned>(rng() % 4);
    for (unsigned i = 0; i < n; ++i) {
      if (i) s += ws() + ",";
      s += ws();
      if (object) s += (rng() % 3 == 0 ? "\"k\"" : "\"k" + std::to_string(i) + "\"") + ws() + ":" + ws();
      s += value(depth + 1);
    }
    s += ws();
    s += object ? '}' : ']';
    return s;
  }
  std::string text() {
    std::string s = ws();
    const unsigned n = 1 + static_cast<unsigned>(rng() % 3);
    for (unsigned i = 0; i < n; ++i) s += value(0) + (rng() % 2 ? "\n" : ws() + " ");
    return s;
  }
  std::string mutate(std::string s) {
    static const char bytes[] = " \n,:[]{}\"\\tfnu019-.eEx\x01\xc3\xff";
    const unsigned edits = 1 + static_cast<unsigned>(rng() % 2);
    for (unsigned e = 0; e < edits && !s.empty(); ++e) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0: s.erase(at, 1); break;
        case 1: s.insert(at, 1, bytes[rng() % (sizeof bytes - 1)]); break;
        case 2: s[at] = bytes[rng() % (sizeof bytes - 1)]; break;
        default: s.resize(at); break;
      }
    }
    return s;
  }
};

}  // namespace

TEST_CASE("stream events: random texts and their mutations, as the parser has them, in any pieces") {
  text_gen g{std::mt19937_64(2024)};
  parse_options strict_opts;
  strict_opts.single_value = true;
  parse_options replace_opts;
  replace_opts.replace_invalid_utf8 = true;
  parse_options shallow;
  shallow.max_depth = 3;
  parse_options portable;
  portable.kernels = &simd::portable_kernels();
  parse_options defaults;
  int errors = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string good = g.text();
    const std::string bad = g.mutate(good);
    for (const parse_options* o : {&defaults, &strict_opts, &replace_opts, &shallow, &portable}) {
      check_all(good, *o, "random text " + std::to_string(i));
      const std::string events = check_all(bad, *o, "mutated text " + std::to_string(i));
      if (stream_check::error_line(events) != std::string::npos) ++errors;
    }
  }
  CHECK(errors > 500);  // most mutations are errors: the error paths were exercised
}

TEST_CASE("stream events: examples") {
  const parse_options o;
  CHECK(stream_check::piped("[1,[2,3]] {\"a\":{}}", o, 1, 3) ==
        "[[0],1]\n[[1,0],2]\n[[1,1],3]\n[[1,1]]\n[[1]]\n-\n[[\"a\"],{}]\n[[\"a\"]]\n-\n<end>");
  CHECK(stream_check::piped("1 \"x\" [] {}", o, 1, 1) == "[[],1]\n-\n[[],\"x\"]\n-\n[[],[]]\n-\n[[],{}]\n-\n<end>");
  // A member followed by garbage gives no event (jq emits it at the ',' or bracket after it).
  CHECK(stream_check::piped("[1,2 x]", o, 1, 2).starts_with("[[0],1]\n<error expected ',' or ']' in array at byte 5"));
  // A top-level number right before ']' is the next value's error, and gives no event (jq's order).
  CHECK(stream_check::piped("1]", o, 1, 1).starts_with("<error expected a value at byte 1"));
  CHECK(stream_check::piped("1 ]", o, 1, 1).starts_with("[[],1]\n-\n<error expected a value at byte 2"));
  CHECK(stream_check::piped("", o, 1, 1) == "<end>");
  parse_options strict_opts;
  strict_opts.single_value = true;
  CHECK(stream_check::piped(" ", strict_opts, 1, 1) == "<error no JSON value at byte 0 line 1 column 1>");
  CHECK(stream_check::piped("1 2", strict_opts, 1, 1)
            .starts_with("[[],1]\n-\n<error unexpected data after the JSON value"));
}

TEST_CASE("stream events: long tokens arriving in small pieces") {
  const parse_options o;
  const std::string s(300000, 'x');
  const std::string digits(100000, '7');
  const std::string text = "[\"" + s + "\",\"\\u00e9" + s + "\\n\"," + digits + ",-0." + digits + "e-5,true]";
  check_all(text, o, "long tokens");
  check_all("\"" + s + "\\q\"", o, "a bad escape after a long string");
  check_all("[\"" + s, o, "an unterminated long string");
  check_all("[" + digits + "x]", o, "a long number with a bad end");
}

TEST_CASE("stream events: corpus and JSONTestSuite, as the parser has them") {
  std::vector<std::filesystem::path> files = test::own_json_files();
  for (const char* dir : {"corpus", "corpus/small", "conformance/JSONTestSuite/test_parsing"})
    for (auto& f : test::json_files_in(test::shared_subdir(dir, "stream events corpus"))) files.push_back(f);
  REQUIRE(!files.empty());
  parse_options replace_opts;
  replace_opts.replace_invalid_utf8 = true;
  // Under AddressSanitizer (make test's second run), files up to 256 KB: the corpus's big files add volume, not
  // paths, and took 20 of that run's 150 s (the optimised run checks every file up to 4 MB).
  constexpr std::size_t max_bytes = JVIEW_ASAN ? std::size_t{256} << 10 : std::size_t{4} << 20;
  int n = 0;
  for (const auto& f : files) {
    const std::string bytes = read_file(f);
    if (bytes.size() > max_bytes) continue;
    check_all(bytes, parse_options{}, f.filename().string());
    if (bytes.size() < 100000) check_all(bytes, replace_opts, f.filename().string() + " (replace)");
    ++n;
  }
  CHECK(n > 100);
}
