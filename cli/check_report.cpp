// cli/check_report.cpp: the validation modes' problem lines, exit status and summary.
#include "cli/check_report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "cli/sink.hpp"

namespace jview::cli {

check_report::check_report(const options& o, const char* noun) : format_(o.check_format), noun_(noun) {}

void check_report::emit(const jview::problem& p) { write_stdout(format_problem(format_, p)); }

void check_report::problem(std::string_view file, const source_location& loc, std::string_view message,
                           bool unformatted) {
  problem(file, loc.line, loc.column, loc.byte_offset, message, unformatted);
}

void check_report::problem(std::string_view file, std::uint64_t line, std::uint64_t column, std::uint64_t byte_offset,
                           std::string_view message, bool unformatted) {
  jview::problem p;
  p.file = file;
  p.message = message;
  p.line = line;
  p.column = column;
  p.byte_offset = byte_offset;
  emit(p);
  ++(unformatted ? unformatted_ : invalid_);
}

void check_report::unreadable(std::string_view file, std::string_view why) {
  jview::problem p;
  p.file = file;
  p.message = why;
  p.has_position = false;
  emit(p);
  ++unreadable_;
}

int check_report::finish() {
  std::fflush(stdout);
  if (isatty(2) != 0) {
    const bool unformatted_mode = std::string_view(noun_) != "invalid";
    std::string s = fmt::format("{} file{}, {} {}", files_, files_ == 1 ? "" : "s",
                                unformatted_mode ? unformatted_ : invalid_, noun_);
    if (unformatted_mode && invalid_ > 0) s += fmt::format(", {} invalid", invalid_);
    if (unreadable_ > 0) s += fmt::format(", {} unreadable", unreadable_);
    write_stderr(s + "\n");
  }
  if (unreadable_ > 0) return exit_usage;
  return invalid_ + unformatted_ > 0 ? exit_false : exit_ok;
}

}  // namespace jview::cli
