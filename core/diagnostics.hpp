// core/diagnostics.hpp: formats parse errors as `FILE:LINE:COLUMN: message` with an excerpt and a caret, a jq
// program's compile errors as jq 1.8 reports them, and the problems of the validation modes (--check, --utf8,
// --check-formatted) as plain, GitHub Actions or JSON lines. Formats only; cli/ decides where the text goes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/value_reader.hpp"

namespace jview {

namespace filter {
struct compile_error;
}

// One line: "FILE:LINE:COLUMN: message" (no newline).
std::string format_location_line(std::string_view file, const source_location& loc, std::string_view message);

// The excerpt: the line's text (control characters shown as spaces) and a caret under the column, each line
// indented by two spaces and ending in '\n'. Empty when the line is empty.
std::string format_excerpt(const source_location& loc);

// jq 1.8's report of a compile error, each line starting with `program` ("jview"): "PROGRAM: error: MESSAGE at
// <top-level>, line L, column C:" (or the module's path), the line and carets under the offending token (columns
// count bytes, as jq's do), jq's further messages in turn, then "PROGRAM: N compile error(s)". Ends in '\n'.
std::string format_compile_error(const filter::compile_error& e, std::string_view program);

// How the validation modes write each problem (--check-format).
enum class report_format : std::uint8_t { plain, github, json };

// One problem of a file. Lines and columns are 1-based; columns count characters (code points: a byte that is
// not a UTF-8 continuation byte starts one; a tab is one), as VS Code's problem matchers, GitHub's annotations and
// Emacs read them; vim's errorformat %c reads bytes (the two differ only after non-ASCII text on the line, and
// the JSON format carries the byte offset as well). A file that could not be read has no position.
struct problem {
  std::string_view file;
  std::string_view message;
  bool has_position = true;
  std::uint64_t line = 1, column = 1, byte_offset = 0;
};

// The problem as one line ending in '\n':
//   plain   FILE:LINE:COLUMN: error: MESSAGE               (no position: FILE:1:1: error: MESSAGE)
//   github  ::error file=FILE,line=LINE,col=COLUMN::MESSAGE  (no position: ::error file=FILE::MESSAGE)
//   json    {"file":FILE,"line":LINE,"column":COLUMN,"byte_offset":N,"message":MESSAGE}  (no position: nulls)
// github is GitHub Actions' workflow command: `%`, CR and LF are written %25, %0D and %0A in the message, and `:`
// and `,` also %3A and %2C in the file property (the runner splits properties at `,` and ends them at `::`).
// json strings are escaped per RFC 8259, invalid UTF-8 in a file name becoming U+FFFD.
std::string format_problem(report_format f, const problem& p);

// GitHub Actions' escapes: of a command's message (data), and of a property value.
std::string github_escape_data(std::string_view s);
std::string github_escape_property(std::string_view s);
// s as a JSON string with its quotes (control characters escaped, invalid UTF-8 replaced by U+FFFD).
std::string json_quote(std::string_view s);

}  // namespace jview
