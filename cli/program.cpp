// cli/program.cpp: the command line's jq program: its text, arguments and environment (files read by
// core/program_args.hpp), compiled; a failure is reported in jq's words with jq's exit status.
#include <cstring>
#include <memory>
#include <string>

#include "cli/exit_code.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/diagnostics.hpp"
#include "core/program_args.hpp"

extern char** environ;

namespace jview::cli {

bool prepare_program(const options& o, program_text& pt, int& status) {
  filter::compile_options& copts = pt.copts;
  for (const options::positional_arg& a : o.positional_args) copts.positional_args.push_back({a.text, a.json});
  copts.library_paths = o.library_paths;
  find_origins(o.from_file, copts);
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) copts.environment.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  status = exit_usage;
  std::string error;
  if (!add_named_args(o.named_args, o.parse, copts, error)) {
    eprint("jview: {}\n", error);
    return false;
  }
  pt.source = o.filter;
  if (!o.from_file.empty()) {
    pt.source.clear();
    std::string why;
    if (!read_text_file(o.from_file, pt.source, why)) {
      eprint("jview: error: Could not open file {}: {}\n", o.from_file, why);
      return false;
    }
  }
  status = exit_ok;
  return true;
}

std::unique_ptr<filter::program> compile_text(const program_text& pt, int& status) {
  status = exit_usage;
  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(pt.source, pt.copts);
  } catch (const filter::compile_error& e) {
    // A bad --argjson / --jsonargs text is a usage error for jq (exit 2), found before the program is compiled.
    if (!e.bad_json_option.empty()) {
      eprint("jview: invalid JSON text passed to --{}\nUse jview --help for help with command-line options.\n",
             e.bad_json_option);
      return nullptr;
    }
    write_stderr(format_compile_error(e, "jview"));
    status = exit_compile;
    return nullptr;
  }
  status = exit_ok;
  return prog;
}

std::unique_ptr<filter::program> compile_program(const options& o, int& status) {
  program_text pt;
  if (!prepare_program(o, pt, status)) return nullptr;
  return compile_text(pt, status);
}

}  // namespace jview::cli
