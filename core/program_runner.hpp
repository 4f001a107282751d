// core/program_runner.hpp: one run of the program on one input, the way jq reports it: the results through a
// result_writer, `debug` and `stderr` text, a runtime error, halt / halt_error. Where messages go (and where an
// error says it happened) is the caller's: the sequential run writes them to stderr at once, a parallel worker keeps
// them in order in its chunk's log. The exit status rule is jq's: that of the last input.
#pragma once
#include <string>
#include <string_view>

#include "core/filter/program.hpp"
#include "core/result_writer.hpp"

namespace jview {

class run_messages {
 public:
  virtual ~run_messages() = default;
  // Each is called after the results before it were handed to the result writer (flush them first if they share a
  // terminal with the messages).
  virtual void debug(std::string_view line) = 0;        // the `debug` builtin's whole line, without its newline
  virtual void stderr_text(std::string_view text) = 0;  // the `stderr` builtin's text, as is
  // A runtime error: jq's message text; not_string: the error's value was not a string (`error({})`: its JSON text),
  // which jq reports as "(not a string)".
  virtual void runtime_error(std::string_view message, bool not_string) = 0;
  virtual void halt_text(std::string_view text) = 0;    // halt_error's text, exactly as jq writes it
};

class program_runner {
 public:
  program_runner(filter::program& prog, result_writer& results, run_messages& messages);

  enum class outcome { ok, error, halted };
  // Runs the program on `input` (`inputs`: where `input`, `inputs`, input_filename and input_line_number read).
  outcome run(const filter::value& input, filter::input_provider* inputs);
  int halt_code() const noexcept { return halt_code_; }            // jq's exit status for the halt
  int halt_code_raw() const noexcept { return prog_.last_halt_code(); }  // the code itself (for -e)

 private:
  filter::program& prog_;
  result_writer& results_;
  run_messages& messages_;
  filter::run_callbacks cb_;
  int halt_code_ = -1;
};

}  // namespace jview
