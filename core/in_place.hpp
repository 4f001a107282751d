// core/in_place.hpp: -i: a file rewritten with a program's output for it, which must be exactly one value (the
// program runs on each of the file's values, or once with -s on their array, with -R on its lines, with -R -s on its
// text). The output replaces the file (core/file_replace.hpp) only when the whole file parsed, the program ran
// without an error and wrote one value, and the write succeeded; otherwise the file is left byte for byte as it was.
// What happens is told to the caller's run_reporter; the caller decides the exit status from the result.
#pragma once
#include <string>

#include "core/filter/program.hpp"
#include "core/parser.hpp"
#include "core/progress.hpp"
#include "core/result_writer.hpp"
#include "core/run_reporter.hpp"

namespace jview {

struct in_place_options {
  parse_options parse;  // (never decompressed: the file is rewritten as it was read, and a compressed one is not JSON)
  bool raw_input = false;  // -R
  bool slurp = false;      // -s
  // The output's layout: write (colour is never written), raw, join, nul (a string holding NUL is an error) and seq;
  // a raw string is written as it is, RS goes before every value with --seq.
  result_format format;
  progress_hooks progress;  // input_done once, with the file's size
};

struct rewrite_result {
  enum class outcome {
    rewritten,
    failed,    // invalid JSON, a runtime error, or not exactly one value
    unusable,  // the file cannot be read, or the new contents not written
    halted,    // halt / halt_error: the run ends with halt_code
  };
  outcome status = outcome::rewritten;
  int halt_code = -1;
  // The rewrite had begun (the file was opened, a temporary file made) and was given up: the file is as it was.
  bool left_unchanged = false;
};

rewrite_result rewrite_in_place(filter::program& prog, const std::string& file, const in_place_options& o,
                                run_reporter& rep);

}  // namespace jview
