// cli/messages.cpp: see messages.hpp.
#include "cli/messages.hpp"

#include <algorithm>

#include "cli/sink.hpp"
#include "core/diagnostics.hpp"

namespace jview::cli {

void stderr_messages::open_failed(const std::string& file, const std::string& why) {
  eprint("jview: error: Could not open file {}: {}\n", file, why);
  status = std::max(status, static_cast<int>(exit_usage));
  input_failed = true;
}

void stderr_messages::file_failed(const std::string& file, const std::string& why) {
  eprint("jview: error: {}: {}\n", file, why);
  status = std::max(status, static_cast<int>(exit_usage));
  input_failed = true;
}

void stderr_messages::parse_failed(const std::string& where_and_what, const source_location& loc) {
  write_stderr("jview: error: " + where_and_what + "\n" + format_excerpt(loc));
  status = std::max(status, static_cast<int>(exit_runtime));
}

// jq 1.8's --seq warning; the exit status stays.
void stderr_messages::parse_ignored(const std::string& what) { write_stderr("jview: ignoring parse error: " + what + "\n"); }

void stderr_messages::debug(std::string_view line) { eprint("{}\n", line); }  // ["DEBUG:",<value>]

void stderr_messages::stderr_text(std::string_view text) { write_stderr(text); }

void stderr_messages::runtime_error(std::string_view where, std::string_view message, bool not_string) {
  eprint("jview: error (at {}){}: {}\n", where, not_string ? " (not a string)" : "", message);
}

void stderr_messages::halt_text(std::string_view text) { write_stderr(text); }

}  // namespace jview::cli
