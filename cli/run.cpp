// cli/run.cpp: the default mode: the program over the files (or stdin), run by core/inputs_runner.hpp; here: the
// choices the command line and the environment make (colours, threads), the messages, and the exit status.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli/exit_code.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/inputs_runner.hpp"
#include "core/output.hpp"
#include "core/sanitizer.hpp"

namespace jview::cli {
namespace {

// Workers of a parallel run: --threads, else JVIEW_THREADS, else core's default (the CPUs this process may use, at
// most 8); by default one under an address-space limit (ulimit -v: each thread reserves stacks and arenas of its own).
unsigned thread_count(const options& o) {
  if (o.threads > 0) return static_cast<unsigned>(o.threads);
  const char* e = std::getenv("JVIEW_THREADS");
  if (e != nullptr && *e != '\0') {
    const long n = std::strtol(e, nullptr, 10);
    if (n >= 1) return static_cast<unsigned>(std::min<long>(n, 1024));
  }
  rlimit rl{};
  if (e == nullptr && getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) return 1;
  return default_thread_count();
}

// The exit status after halt / halt_error: its code; with -e, jq 1.8's exit(abs(code)) (INT_MIN, its NaN, stays
// negative: status 0), and -4, its "no output" code, exits as -e says for the inputs before the halting one
// (`last_result`: 1 the last that ended well with outputs had a truthy last output, 0 not, -1 none).
int halt_status(const options& o, const run_outcome& r) {
  if (!o.exit_status) return r.halt_code;
  if (r.halt_code_raw == -4) return r.last_result < 0 ? exit_no_output : r.last_result == 0 ? exit_false : exit_ok;
  if (r.halt_code_raw < 0) return r.halt_code_raw == INT_MIN ? 0 : -r.halt_code_raw;
  return r.halt_code;
}

// The end of a successful run: what is buffered is flushed and the process exits here, instead of returning
// through the destructors of the last input's buffer, document and arenas. Unmapping those one at a time cost 0.1-0.25
// ms of a 3 ms run on the VMs we measure (each munmap flushes the TLB of the other CPU too); the exit frees the whole
// address space at once. A sanitizer build returns, so that LeakSanitizer still sees everything freed.
int end_process(int status) {
#if JVIEW_ASAN
  return status;
#else
  std::fflush(nullptr);
  ::_exit(status);
#endif
}

// The reader closed the pipe: the run stopped at once, quietly, and ends as jq 1.8's does (SIGPIPE is ignored
// while jview runs, so that the write fails instead of killing the process before its messages; jq dies of
// SIGPIPE): `set -o pipefail` scripts see the same status, 141 in a shell.
[[noreturn]] void die_of_broken_pipe() {
  std::fflush(nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  ::raise(SIGPIPE);
  ::_exit(128 + SIGPIPE);  // (not reached)
}

}  // namespace

int run_jq(const options& o) {
  // Compile first: a compile error must not consume input.
  int compiled = exit_ok;
  program_text text;
  if (!prepare_program(o, text, compiled)) return compiled;
  std::unique_ptr<filter::program> prog = compile_text(text, compiled);
  if (!prog) return compiled;

  stdout_sink sink;
  output_buffer out(&stdout_sink::write, &sink);
  const output_guard guard(out, sink);  // out of memory or SIGBUS: the whole values buffered are still written
  run_options ro;
  ro.format.write = o.write;
  const char* no_color = std::getenv("NO_COLOR");  // set and not empty (the convention, and jq 1.8)
  ro.format.write.color = o.color == 1 || (o.color == -1 && isatty(1) && (no_color == nullptr || *no_color == '\0'));
  if (ro.format.write.color) {
    if (const char* jc = std::getenv("JQ_COLORS"); jc != nullptr && !ro.format.write.colors.apply(jc))
      eprint("Failed to set $JQ_COLORS\n");
  }
  ro.format.raw = o.raw_output;
  ro.format.join = o.join_output;
  ro.format.nul = o.raw_output0;
  ro.format.seq = o.seq;
  ro.format.unbuffered = o.unbuffered;
  ro.input.files = o.files;
  ro.input.parse = o.parse;
  ro.input.raw = o.raw_input;
  ro.input.stream = o.stream;
  ro.input.stream_errors = o.stream_errors;
  ro.input.record_separators = o.seq;
  ro.input.lenient = o.lenient;
  ro.null_input = o.null_input;
  ro.slurp = o.slurp;
  progress_meter meter(o, o.files, progress_unit::bytes);  // (stopped before the end: end_process exits)
  ro.input.progress = meter.hooks();
  ro.threads = meter.running() ? 1 : thread_count(o);  // (the meter counts one thread's reading)
  // Tests only: tiny pieces, so that values cross every kind of boundary.
  if (const char* e = std::getenv("JVIEW_CHUNK_SIZE"); e != nullptr && std::strtoul(e, nullptr, 10) > 0)
    ro.chunk_size = std::strtoul(e, nullptr, 10);

  stderr_messages messages(&sink);
  inputs_runner runner(
      *prog,
      [&text]() {
        int st = exit_ok;
        return compile_text(text, st);
      },
      std::move(ro), out, messages);
  const run_outcome r = runner.run();
  meter.stop();
  out.flush();
  if (!sink.error.empty()) {
    eprint("jview: error: writing output: {}\n", sink.error);
    return exit_usage;
  }
  if (sink.broken_pipe) die_of_broken_pipe();
  // jq 1.8: a file that could not be opened or read makes the status 2, over a runtime or parse error's 5 and a
  // halt's code (jview still reads the files after it, where jq reads one more value).
  const int status = messages.input_failed
                         ? exit_usage
                         : std::max(r.halted ? halt_status(o, r) : r.last_failed ? exit_runtime : exit_ok, messages.status);
  if (status == exit_ok && o.exit_status && !r.halted) {
    if (!r.any_output) return end_process(exit_no_output);
    if (!r.last_truthy) return end_process(exit_false);
  }
  return end_process(status);
}

}  // namespace jview::cli
