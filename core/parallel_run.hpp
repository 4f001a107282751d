// core/parallel_run.hpp: a program over a stream of values (NDJSON or any concatenation) on several threads, with
// the bytes, messages and exit state of one thread. A producer reads each input and cuts it into pieces of about
// chunk_size at newlines (core/chunk_cut.hpp); workers, each with its own copy of the program, parse and run a piece
// and log what it writes (stdout bytes, and in order among them `debug`, `stderr`, errors, halt_error); the caller's
// thread replays the logs in input order. A piece is accepted only when the one before it ended exactly where it
// starts: one that starts inside a value (a pretty-printed value cut at one of its lines) is done again from that
// value's start on the caller's thread. Memory stays bounded: a few pieces per thread are in flight, and the
// producer waits for the writer. The caller decides which programs may run so (program::reads_inputs, -n, -s,
// --stream, --seq ...): this one sees one input per run.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/program.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/result_writer.hpp"
#include "core/value_reader.hpp"

namespace jview {

// What the run says, on the caller's thread, in the order one thread would say it. Each call comes after the
// results before it were put in the output buffer (and flushed).
class parallel_reporter {
 public:
  virtual ~parallel_reporter() = default;
  virtual void debug(std::string_view line) = 0;
  virtual void stderr_text(std::string_view text) = 0;
  virtual void halt_text(std::string_view text) = 0;
  // where: "FILE:LINE" as input_stream::where() gives it.
  virtual void runtime_error(std::string_view where, std::string_view message, bool not_string) = 0;
  virtual void open_failed(const std::string& file, const std::string& why) = 0;
  virtual void read_failed(const std::string& file, const std::string& why) = 0;
  virtual void parse_failed(const std::string& where_and_what, const source_location& loc) = 0;
  // True when the output is gone (a closed pipe, a write error): the run ends.
  virtual bool stopped() = 0;
};

struct parallel_options {
  std::vector<std::string> files;  // empty: standard input
  parse_options parse;
  result_format format;
  unsigned threads = 2;                          // workers
  std::size_t chunk_size = std::size_t{1} << 20;  // a piece is cut at the first fitting newline after this
};

// How the run ended, for the exit status (jq's rule: that of the last input; -e looks at the last output).
struct parallel_outcome {
  bool started = true;       // false: no threads could be made, nothing was read or written (run on one thread)
  bool ran = false;          // the program ran on at least one input
  bool last_failed = false;  // its last run ended in a runtime error
  bool halted = false;       // halt / halt_error: halt_code is the status
  int halt_code = -1;
  int halt_code_raw = 0;  // the halt's code itself (for -e's rule)
  int last_result = -1;   // the last input that ended well with outputs before it: 1 truthy last output, 0 not
  bool any_output = false;
  bool last_truthy = true;
};

// Runs on every input in `o.files` with `threads` workers; `make_program` gives each worker (and the caller's
// thread, for pieces done again) its own compiled copy, called on the caller's thread before any starts.
parallel_outcome run_parallel(const parallel_options& o, const std::function<std::unique_ptr<filter::program>()>& make_program,
                              output_buffer& out, parallel_reporter& rep);

}  // namespace jview
