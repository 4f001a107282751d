// tests/unit/core/diagnostics_test.cpp: the problem lines of the validation modes (plain, GitHub Actions workflow
// commands, JSON) and their escapes; the CLI cases check the same lines end to end.
#include <doctest/doctest.h>

#include <string>

#include "core/diagnostics.hpp"

using namespace jview;

namespace {

problem at(std::string_view file, std::string_view message) {
  problem p;
  p.file = file;
  p.message = message;
  p.line = 3;
  p.column = 7;
  p.byte_offset = 42;
  return p;
}

problem nowhere(std::string_view file, std::string_view message) {
  problem p = at(file, message);
  p.has_position = false;
  return p;
}

}  // namespace

TEST_CASE("diagnostics: plain lines are FILE:LINE:COLUMN: error: MESSAGE, 1:1 without a position") {
  CHECK(format_problem(report_format::plain, at("a.json", "trailing comma")) == "a.json:3:7: error: trailing comma\n");
  CHECK(format_problem(report_format::plain, nowhere("b.json", "No such file or directory")) ==
        "b.json:1:1: error: No such file or directory\n");
}

TEST_CASE("diagnostics: github lines are workflow commands with escaped data and properties") {
  CHECK(format_problem(report_format::github, at("a.json", "trailing comma")) ==
        "::error file=a.json,line=3,col=7::trailing comma\n");
  CHECK(format_problem(report_format::github, nowhere("b.json", "Permission denied")) ==
        "::error file=b.json::Permission denied\n");
  // The message: %, CR and LF; `:` and `,` stay (the runner ends the properties at the first `::`).
  CHECK(github_escape_data("100% a:b, c\r\nd") == "100%25 a:b, c%0D%0Ad");
  // A property: `:` and `,` as well (properties are split at `,`; `::` would end them).
  CHECK(github_escape_property("dir,x/a:b%c\nd.json") == "dir%2Cx/a%3Ab%25c%0Ad.json");
  CHECK(format_problem(report_format::github, at("x,y::z.json", "50% done\nthen")) ==
        "::error file=x%2Cy%3A%3Az.json,line=3,col=7::50%25 done%0Athen\n");
}

TEST_CASE("diagnostics: json lines are one object with file, line, column, byte offset and message") {
  CHECK(format_problem(report_format::json, at("a.json", "expected a value")) ==
        "{\"file\":\"a.json\",\"line\":3,\"column\":7,\"byte_offset\":42,\"message\":\"expected a value\"}\n");
  CHECK(format_problem(report_format::json, nowhere("b.json", "Is a directory")) ==
        "{\"file\":\"b.json\",\"line\":null,\"column\":null,\"byte_offset\":null,\"message\":\"Is a directory\"}\n");
}

TEST_CASE("diagnostics: json_quote escapes as RFC 8259 asks and replaces invalid UTF-8") {
  CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_quote("\n\r\t\b\f\x01\x1f\x7f") == "\"\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\"");
  CHECK(json_quote("\xc3\xa9\xf0\x9f\x98\x80") == "\"\xc3\xa9\xf0\x9f\x98\x80\"");  // valid UTF-8 kept
  CHECK(json_quote("a\xff" "b\xc3") == "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\"");      // a bad byte, a cut sequence
  CHECK(json_quote("\xed\xa0\x80") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  // an encoded surrogate: 3 bad bytes
}
