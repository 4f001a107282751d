// cli/validate.cpp: the validation modes (--check, --utf8, --check-formatted; the checks: core/file_check.hpp):
// each problem is one line on stdout in the --check-format format, a summary goes to stderr when it is a terminal
// ("12 files, 1 invalid"), and the exit status is 0 all valid, 1 some invalid or not formatted, 2 some unreadable.
#include <unistd.h>

#include <cstdio>

#include "cli/exit_code.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"

namespace jview::cli {

int run_validation(const options& o, check_kind kind) {
  progress_meter meter(o, o.files, progress_unit::files);
  check_options co;
  co.kind = kind;
  co.parse = o.parse;
  co.write = o.write;
  co.progress = meter.hooks();
  const check_tally found =
      check_files(o.files, co, [&](const problem& p) { write_stdout(format_problem(o.check_format, p)); });
  meter.stop();
  std::fflush(stdout);
  if (isatty(2) != 0) write_stderr(found.summary(kind) + "\n");
  if (found.unreadable > 0) return exit_usage;
  return found.invalid + found.unformatted > 0 ? exit_false : exit_ok;
}

}  // namespace jview::cli
