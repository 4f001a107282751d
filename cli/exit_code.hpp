// cli/exit_code.hpp: jview's exit statuses, jq's where jq has one (its manual is the spec).
#pragma once

namespace jview::cli {

enum exit_code : int {
  exit_ok = 0,
  exit_false = 1,          // -e: the last output was false or null; --check/--utf8: some file invalid
  exit_usage = 2,          // usage and system errors (bad option, unreadable file, write error)
  exit_compile = 3,        // the jq program does not compile
  exit_no_output = 4,      // -e: no output at all
  exit_runtime = 5,        // a runtime error, or invalid JSON input (jq 1.8's status for both)
};

}  // namespace jview::cli
