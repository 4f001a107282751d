// core/file_check.hpp: the validation modes over files: --check (every value of each file parses), --utf8 (each
// file is strict UTF-8) and --check-formatted (each file's bytes are exactly what `jview .` writes with the same
// output options). Each file's first problem goes to the caller as a `problem` (core/diagnostics.hpp; its
// format_problem words it as a plain, github or json line); a file that cannot be read is a problem without a
// position. The tally counts the files and what was found, and words the summary. Nothing here prints: the caller
// decides where the problems go and the exit status.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.hpp"
#include "core/document.hpp"
#include "core/parser.hpp"
#include "core/progress.hpp"
#include "core/writer.hpp"

namespace jview {

enum class check_kind {
  json,       // --check: every value parses; an empty or whitespace-only file is valid, as for `jq empty`, unless
              // parse.single_value (one JSON text per file)
  utf8,       // --utf8: any bytes, strict UTF-8 (compressed files decompressed when parse.decompress)
  formatted,  // --check-formatted: the bytes are those `jview .` writes with `write` (never decompressed)
};

struct check_options {
  check_kind kind = check_kind::json;
  parse_options parse;
  write_options write;      // formatted: the layout the files must have (colour is never compared)
  progress_hooks progress;  // input_done once per file, with the bytes read of it
};

struct check_tally {
  std::uint64_t files = 0, invalid = 0, unformatted = 0, unreadable = 0;
  // "12 files, 1 invalid"; for `formatted`: "3 files, 1 not formatted, 1 invalid, 1 unreadable" (no newline).
  std::string summary(check_kind kind) const;
};

using problem_fn = std::function<void(const problem&)>;

// Checks each file in turn ("-", or no file at all: standard input), handing each problem to `report` as it is found.
check_tally check_files(const std::vector<std::string>& files, const check_options& o, const problem_fn& report);

// What the checks of one file found: the caller's callback, and the tally.
class check_findings {
 public:
  check_findings(const problem_fn& report, check_tally& tally) : report_(report), tally_(tally) {}
  // A problem at a position of the file: it counts as invalid, or with `unformatted` as not formatted.
  void problem(std::string_view file, const source_location& loc, std::string_view message);
  void problem(std::string_view file, std::uint64_t line, std::uint64_t column, std::uint64_t byte_offset,
               std::string_view message, bool unformatted = false);
  // A file that could not be opened or read: `why` is the system's reason ("No such file or directory").
  void unreadable(std::string_view file, std::string_view why);

 private:
  const problem_fn& report_;
  check_tally& tally_;
};

// One file of each mode (file_check.cpp, utf8_check.cpp, format_check.cpp): the bytes of it read, for the progress
// line. --check parses into `doc`, reused from file to file.
std::uint64_t check_json_file(const std::string& file, const check_options& o, check_findings& found, document& doc);
std::uint64_t check_utf8_file(const std::string& file, const check_options& o, check_findings& found);
std::uint64_t check_formatted_file(const std::string& file, const check_options& o, check_findings& found);

}  // namespace jview
