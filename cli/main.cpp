// cli/main.cpp: parse the options, pick the kernels, run the chosen mode, exit with its status.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "simd/kernels.hpp"

namespace {

// A mapped input file that shrinks while it is read raises SIGBUS on the missing pages. Write the whole values
// still buffered, report it and exit with status 2 instead of dying with a core dump (only async-signal-safe
// calls here: write(2) and _exit).
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

}  // namespace

static int run_main(int argc, char** argv) {
  // A closed pipe shows up as EPIPE from write(2), handled quietly by the sink, instead of killing the process.
  signal(SIGPIPE, SIG_IGN);
  struct sigaction bus {};
  bus.sa_handler = on_sigbus;
  sigaction(SIGBUS, &bus, nullptr);
  jview::cli::options o;
  // Kernel mode first: --version reports it.
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-simd") == 0) o.no_simd = true;
    if (std::strcmp(argv[i], "--force-ssse3") == 0) o.force_ssse3 = true;
  }
  if (o.no_simd || env_flag("JVIEW_NO_SIMD"))
    jview::simd::set_mode(jview::simd::mode::portable);
  else if (o.force_ssse3 || env_flag("JVIEW_FORCE_SSSE3"))
    jview::simd::set_mode(jview::simd::mode::force_ssse3);
  int status = jview::cli::parse_command_line(argc, argv, o);
  if (status >= 0) return status;
  o.parse.portable = !jview::simd::vector_strings();
  o.write.portable = o.parse.portable;
  if (o.check) return jview::cli::run_check(o);
  if (o.utf8) return jview::cli::run_utf8(o);
  if (o.check_formatted) return jview::cli::run_check_formatted(o);
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
