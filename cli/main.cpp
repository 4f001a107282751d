// cli/main.cpp: parse the options, pick the kernels, run the chosen mode, exit with its status.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "cli/process_tuning.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/kernel_choice.hpp"

namespace {

// SIGBUS came from a mapped input file that shrank while it was read. Inputs are no longer mapped
// (core/byte_sources.cpp reads them), so none is expected; should one come, the whole values still buffered are
// written, it is reported and the exit status is 2 instead of a core dump (only async-signal-safe calls here:
// write(2) and _exit).
void on_sigbus(int) {
  jview::cli::write_whole_on_fault();
  static const char msg[] = "jview: error: an input file shrank while it was being read (SIGBUS)\n";
  ssize_t r = write(2, msg, sizeof msg - 1);
  (void)r;
  _exit(2);
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// The one kernel choice (core/kernel_choice.hpp), from the command line, else the environment: `--kernels NAME`
// or JVIEW_KERNELS=NAME, with the aliases --no-simd / JVIEW_NO_SIMD=1 (portable) and --force-ssse3 /
// JVIEW_FORCE_SSSE3=1 (ssse3). False (reported) for an unknown name or a level this build or CPU lacks.
bool choose_kernels(const jview::cli::options& o) {
  std::string name, who;
  const char* env = std::getenv("JVIEW_KERNELS");
  if (!o.kernels.empty()) {
    name = o.kernels;
    who = "--kernels " + name;
  } else if (o.no_simd) {
    name = "portable";
    who = "--no-simd";
  } else if (o.force_ssse3) {
    name = "ssse3";
    who = "--force-ssse3";
  } else if (env != nullptr && *env != '\0') {
    name = env;
    who = "JVIEW_KERNELS=" + name;
  } else if (env_flag("JVIEW_NO_SIMD")) {
    name = "portable";
    who = "JVIEW_NO_SIMD";
  } else if (env_flag("JVIEW_FORCE_SSSE3")) {
    name = "ssse3";
    who = "JVIEW_FORCE_SSSE3";
  }
  std::string why;
  if (!jview::select_kernels(name, who, why)) {
    jview::cli::eprint("jview: error: {}: {}\n", who, why);
    return false;
  }
  return true;
}

}  // namespace

static int run_main(int argc, char** argv) {
  // A closed pipe shows up as EPIPE from write(2), handled quietly by the sink, instead of killing the process.
  signal(SIGPIPE, SIG_IGN);
  struct sigaction bus {};
  bus.sa_handler = on_sigbus;
  sigaction(SIGBUS, &bus, nullptr);
  jview::cli::options o;
  int status = jview::cli::parse_command_line(argc, argv, o);
  if (status >= 0) return status;
  if (!choose_kernels(o)) return jview::cli::exit_usage;
  jview::cli::use_process_tuning();
  if (o.version) {
    jview::cli::oprint("jview {}\n{}\n", JVIEW_VERSION, jview::describe_kernel_choice());
    return jview::cli::exit_ok;
  }
  if (o.check) return jview::cli::run_validation(o, jview::check_kind::json);
  if (o.utf8) return jview::cli::run_validation(o, jview::check_kind::utf8);
  if (o.check_formatted) return jview::cli::run_validation(o, jview::check_kind::formatted);
  if (o.in_place) return jview::cli::run_in_place(o);
  return jview::cli::run_jq(o);
}

int main(int argc, char** argv) {
  // Whatever runs out of memory (the filter's values, an input buffer, the output) ends here: the whole values
  // already produced are written (cli::output_guard), then one message, not std::terminate's abort.
  try {
    return run_main(argc, argv);
  } catch (const std::bad_alloc&) {
    jview::cli::eprint("jview: error: out of memory\n");
  } catch (const std::length_error&) {  // a string or vector beyond max_size(): out of memory as well
    jview::cli::eprint("jview: error: out of memory\n");
  } catch (const std::exception& e) {
    jview::cli::eprint("jview: error: {}\n", e.what());
  }
  return jview::cli::exit_usage;
}
