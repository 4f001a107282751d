// cli/check_report.hpp: what the validation modes (--check, --utf8, --check-formatted) found: every problem on
// stdout, one line each in the --check-format format (a file that cannot be read is a problem too, in the same
// format); the exit status (0 all valid, 1 some invalid, 2 some unreadable); and a summary line on stderr
// ("12 files, 1 invalid") when stderr is a terminal.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/diagnostics.hpp"

namespace jview::cli {

struct options;

class check_report {
 public:
  // noun: what the mode calls a file with a problem in the summary ("invalid", "not formatted").
  check_report(const options& o, const char* noun);

  // A problem at a position of the file (the file counts as invalid, or with `unformatted` as not formatted).
  void problem(std::string_view file, const source_location& loc, std::string_view message, bool unformatted = false);
  void problem(std::string_view file, std::uint64_t line, std::uint64_t column, std::uint64_t byte_offset,
               std::string_view message, bool unformatted = false);
  // A file that could not be opened or read: why is the system's reason ("No such file or directory").
  void unreadable(std::string_view file, std::string_view why);
  // Counts a file of the run (each FILE once, whatever was found).
  void file_done() noexcept { ++files_; }

  // Flushes stdout, writes the summary (stderr a terminal) and returns the exit status.
  int finish();

 private:
  void emit(const jview::problem& p);
  report_format format_;
  const char* noun_;
  std::uint64_t files_ = 0, invalid_ = 0, unformatted_ = 0, unreadable_ = 0;
};

}  // namespace jview::cli
