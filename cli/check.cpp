// cli/check.cpp: `jview --check FILE...`: parse every value of each file; print nothing for a valid file and one
// `FILE:LINE:COLUMN: message` line (stdout) for an invalid one. Exit 0 all valid, 1 some invalid, 2 I/O errors.
#include <fmt/core.h>

#include "cli/exit_code.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/diagnostics.hpp"
#include "core/value_reader.hpp"

namespace jview::cli {

int run_check(const options& o) {
  int status = exit_ok;
  std::vector<std::string> files = o.files;
  if (files.empty()) files.push_back("-");
  document doc;
  for (const std::string& file : files) {
    value_reader reader(o.parse);
    std::string why;
    if (!reader.open(file, why)) {
      std::fflush(stdout);
      eprint("jview: error: {}: {}\n", file, why);
      status = exit_usage;
      continue;
    }
    value_reader::status s;
    bool any = false;
    while ((s = reader.next(doc)) == value_reader::status::value) any = true;
    if (s == value_reader::status::end && !any) {
      // Valid as a jq stream, but a file that should hold JSON and holds nothing is worth a line in CI.
      oprint("{}:1:1: {}\n", reader.name(), error_message(error_code::empty_input));
      if (status == exit_ok) status = exit_false;
      continue;
    }
    if (s == value_reader::status::error) {
      if (reader.error().code == error_code::io_error) {
        std::fflush(stdout);
        eprint("jview: error: {}: {}\n", reader.name(), reader.io_error());
        status = exit_usage;
        continue;
      }
      oprint("{}\n", format_location_line(reader.name(), reader.location(), error_message(reader.error().code)));
      if (status == exit_ok) status = exit_false;
    }
  }
  std::fflush(stdout);
  return status;
}

}  // namespace jview::cli
