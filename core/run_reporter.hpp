// core/run_reporter.hpp: what a run of a program over inputs has to say (core/inputs_runner.hpp, and -i's
// core/in_place.hpp), for the caller to word and send where it wants; the exit status is the caller's as well.
#pragma once
#include <string>
#include <string_view>

#include "core/value_reader.hpp"

namespace jview {

class run_reporter {
 public:
  virtual ~run_reporter() = default;
  // The inputs. why: the system's reason ("No such file or directory") or what is wrong with the file.
  virtual void open_failed(const std::string& file, const std::string& why) = 0;
  // A file that cannot be read (or, for -i, used or written).
  virtual void file_failed(const std::string& file, const std::string& why) = 0;
  // A parse error outside the program: "FILE:LINE:COLUMN: message" and where it is (format_excerpt).
  virtual void parse_failed(const std::string& where_and_what, const source_location& loc) = 0;
  // --seq: a text jq skips, with its warning ("Truncated value at line 1, column 7"); reading goes on.
  virtual void parse_ignored(const std::string& what) = 0;
  // The program (core/program_runner.hpp's run_messages). where: "FILE:LINE" of the input (input_stream::where()).
  virtual void debug(std::string_view line) = 0;        // the `debug` builtin's whole line, without its newline
  virtual void stderr_text(std::string_view text) = 0;  // the `stderr` builtin's text, as is
  // not_string: the error's value was not a string (`error({})`: its JSON text), "(not a string)" in jq's report.
  virtual void runtime_error(std::string_view where, std::string_view message, bool not_string) = 0;
  virtual void halt_text(std::string_view text) = 0;    // halt_error's text, exactly as jq writes it
  // True once the output is gone (a closed pipe, a write error): the run stops at once.
  virtual bool stopped() = 0;
};

}  // namespace jview
