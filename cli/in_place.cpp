// cli/in_place.cpp: `jview -i FILTER FILE...`: each FILE rewritten with the program's output for it
// (core/in_place.hpp). Exit status: 0 all rewritten, 5 a file invalid or its program failed or not one value, 2 a
// file unreadable or not writable (the highest of these); halt / halt_error end the run with theirs.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/exit_code.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "core/in_place.hpp"

namespace jview::cli {

int run_in_place(const options& o) {
  if (o.files.empty()) {
    eprint("jview: error: -i needs FILE arguments (standard input cannot be rewritten)\n"
           "Use jview --help for help with command-line options.\n");
    return exit_usage;
  }
  if (o.null_input || o.stream) {
    eprint("jview: error: -i cannot be used with {}\nUse jview --help for help with command-line options.\n",
           o.null_input ? "-n" : "--stream");
    return exit_usage;
  }
  int compiled = exit_ok;
  const std::unique_ptr<filter::program> prog = compile_program(o, compiled);
  if (!prog) return compiled;
  progress_meter meter(o, o.files, progress_unit::files);
  in_place_options io;
  io.parse = o.parse;
  io.raw_input = o.raw_input;
  io.slurp = o.slurp;
  io.format.write = o.write;
  io.format.raw = o.raw_output;
  io.format.join = o.join_output;
  io.format.nul = o.raw_output0;
  io.format.seq = o.seq;
  io.progress = meter.hooks();
  stderr_messages messages;
  int status = exit_ok;
  for (const std::string& file : o.files) {
    const rewrite_result r = rewrite_in_place(*prog, file, io, messages);
    if (r.left_unchanged) eprint("jview: {}: left unchanged\n", file);
    if (r.status == rewrite_result::outcome::halted) {
      status = r.halt_code;
      break;
    }
    using outcome = rewrite_result::outcome;
    const exit_code s = r.status == outcome::rewritten ? exit_ok : r.status == outcome::failed ? exit_runtime : exit_usage;
    status = std::max(status, static_cast<int>(s));
  }
  meter.stop();
  std::fflush(stdout);
  return status;
}

}  // namespace jview::cli
