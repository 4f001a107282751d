// core/inputs_runner.hpp: a compiled program over all of a run's inputs, as jq runs it: on each input in turn (with
// -n once on null, with -s once on the array of all inputs, with -R -s on their whole text), its results laid out by
// a result_writer; the identity program writes each input straight from its view; a stream of values runs on several
// threads (core/parallel_run.hpp) when the options and the program allow it, with the same bytes. Everything the run
// has to say goes to the caller's run_reporter (core/run_reporter.hpp), the output buffer flushed before each message
// that follows results; the outcome tells what jq's exit status depends on. (One run on one input:
// core/program_runner.hpp.)
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/filter/program.hpp"
#include "core/input_stream.hpp"
#include "core/output.hpp"
#include "core/result_writer.hpp"
#include "core/run_reporter.hpp"

namespace jview {

struct run_options {
  input_options input;  // the files, how they are read, the progress hooks
  result_format format;
  bool null_input = false;  // -n: the program runs once, on null (`input` and `inputs` read the inputs)
  bool slurp = false;       // -s: once, on the array of all inputs (-R -s: on their whole text)
  unsigned threads = 1;     // workers of a parallel run when one applies (1: the caller's thread only)
  std::size_t chunk_size = std::size_t{1} << 20;  // a parallel run's pieces (core/parallel_run.hpp)
};

// How the run ended, for the exit status. jq's is that of the last input; -e looks at the last output.
struct run_outcome {
  bool last_failed = false;  // the program's run on the last input ended in a runtime error
  bool halted = false;       // halt / halt_error ended the run: halt_code is jq's status for it
  int halt_code = -1;
  int halt_code_raw = 0;     // the halt's code itself (-e's rule)
  int last_result = -1;      // before the halt: the last input that ended well with outputs had a truthy last
                             // output (1) or not (0); -1 none
  bool any_output = false;
  bool last_truthy = true;   // the last output was neither false nor null
};

// A copy of the program for each worker of a parallel run (called on the caller's thread, before any starts).
using program_copies = std::function<std::unique_ptr<filter::program>()>;

class inputs_runner {
 public:
  inputs_runner(filter::program& prog, program_copies copies, run_options o, output_buffer& out, run_reporter& rep);
  ~inputs_runner();
  inputs_runner(const inputs_runner&) = delete;
  inputs_runner& operator=(const inputs_runner&) = delete;

  // Runs to the end of the inputs, a halt, or the output's end; once. The last input's document and buffers live on
  // until the runner is destroyed (a caller that exits the process at once need not free them one by one).
  run_outcome run();

 private:
  bool use_threads() const;
  bool run_parallel(run_outcome& r);
  void run_sequential(run_outcome& r);

  struct sequential;
  filter::program& prog_;
  program_copies copies_;
  run_options o_;
  output_buffer& out_;
  run_reporter& rep_;
  std::unique_ptr<sequential> seq_;
};

// The workers a parallel run gets by default: the CPUs this process may use (its affinity mask, less when a cgroup
// v2 quota allows fewer), at most 8 (past that, the writer and the producer are the limit on the machines we measure).
unsigned default_thread_count();

}  // namespace jview
