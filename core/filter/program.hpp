// core/filter/program.hpp: the interface between the jq language and its users (cli/, tests, benchmarks).
// A program is compiled once from jq source and run on each input value; results and errors are handed to
// callbacks. Nothing here prints or exits.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/document.hpp"
#include "core/writer.hpp"

namespace jview::filter {

class value;  // core/filter/value.hpp: a view node (document + index) or an owned, reference-counted value

// A compile error: jq's message text (what jq 1.8 prints after "jq: error: "), and the 1-based line and column.
struct compile_error {
  std::string message;
  int line = 0;
  int column = 0;
  int length = 1;            // added: characters to underline with '^' (jq marks the whole offending token)
  std::string source_line;   // added: the text of that line (jq prints it under the message)
  std::string file;          // added: the module file the error is in; empty for the main program (<top-level>)
  std::string bad_json_option;  // "argjson" / "jsonargs": the text of that option is not JSON (jq: a usage error)
  std::string suggestion;    // added: defined functions close to an undefined one ("floor/0"): "did you mean floor/0?"
  std::vector<compile_error> more;  // jq's further messages after this one ("Possibly unterminated 'if' statement")
};

// Where inputs come from, for `input`, `inputs`, `input_filename` and `$__loc__`-style error locations.
class input_provider {
 public:
  virtual ~input_provider() = default;
  // Next input value; false at the end of all inputs. Parse errors are reported by the provider itself.
  virtual bool next(value& out) = 0;
  // Name of the current file, or empty for stdin / none (jq's input_filename gives null then).
  virtual std::string current_filename() const = 0;
  // Lines of the current file read so far, as jq counts them (`input_line_number`, error locations).
  virtual std::uint64_t current_line() const { return 0; }
  // After next() returned false: the reason when it was not the end of the inputs (a parse error, which `input`
  // and `inputs` raise as an error of the program), else empty. Reading it clears it.
  virtual std::string take_error() { return {}; }
};

struct compile_options {
  // --arg/--rawfile ($name = "text") and --argjson/--slurpfile ($name = the parsed JSON text), in command-line
  // order, which is $ARGS.named's; the first of a name wins, as in jq 1.8.
  struct named_arg {
    std::string name, text;
    bool json = false;
  };
  std::vector<named_arg> named_args;
  // $ARGS.positional in order: strings (--args) and JSON texts (--jsonargs), as the command line switched.
  struct positional_arg {
    std::string text;
    bool json = false;
  };
  std::vector<positional_arg> positional_args;
  std::vector<std::string> library_paths;                        // -L
  std::vector<std::pair<std::string, std::string>> environment;  // $ENV / env; HOME: "~" and ~/.jq (cli reads environ)
  // get_prog_origin (the -f file's directory, else the current one) and get_jq_origin (the executable's directory),
  // found by cli as jq 1.8 finds them; empty gives null.
  std::string program_origin, jq_origin;
  // The evaluator's shortcuts (core/filter/fast_paths.cpp lists them). Off, every construct takes the general
  // evaluation, with the same outputs and errors: the tests run both ways.
  bool fast_paths = true;
};

// Output of one run: each result value, and at most one runtime error (jq's message text, without
// "jq: error (at ...): ").
struct run_callbacks {
  std::function<void(const value&)> emit;
  std::function<void(const value& message)> debug;       // `debug` builtin: its input (result_writer::debug_line)
  std::function<void(std::string_view text)> stderr_out; // `stderr` builtin
  // Asked after each emit when set: false stops the run at once, as if the program had ended there (the output is
  // gone: a closed pipe, a full disk), so that `repeat(1) | head -1` ends with the reader.
  std::function<bool()> output_ok;
};

class program {
 public:
  virtual ~program() = default;
  // Compiles jq source. Throws compile_error.
  static std::unique_ptr<program> compile(std::string_view source, const compile_options& opts);
  // True when the program is `.` (the CLI then writes inputs straight from the view); false with fast paths off.
  virtual bool is_identity() const = 0;
  // Runs on one input. Returns true on normal completion, false after a runtime error (message in `error`); the
  // results emitted before the error stay emitted. `halt_code` is set by halt / halt_error to jq 1.8's exit
  // status for them (the code, 0 when it is negative; -1 when not halted).
  virtual bool run(const value& input, input_provider* inputs, const run_callbacks& cb, std::string& error,
                   int& halt_code) = 0;
  // Added: true when the last runtime error's value was not a string. `error` then holds the value's JSON text,
  // and jq prints "jq: error (at <file>) (not a string): <json>". For halt_error, `error` holds the exact text
  // jq writes to stderr (a string as is, anything else as JSON plus a newline).
  virtual bool last_error_not_string() const { return false; }
  // True when the program may look past its own input: it calls `input`, `inputs` or `input_line_number` (a
  // parallel run evaluates such a program on one thread, in order).
  virtual bool reads_inputs() const { return true; }
  // The last halt's code itself, as the C int jq makes of it (halt_error(-1): -1, NaN: INT_MIN). With -e jq
  // exits with its absolute value, and -4 means "as -e says for the outputs of the inputs before".
  virtual int last_halt_code() const { return 0; }
};

// A function the evaluator calls every few hundred values it allocates (the process's memory policy may act on the
// heap's growth); none by default. Set it before any program runs.
void set_allocation_hook(void (*hook)() noexcept) noexcept;

// Writes a value in the writer's format (view values from their source bytes).
void write_value(writer& w, const value& v);

}  // namespace jview::filter
