// core/input_stream.hpp: all of a run's inputs in order, value by value: the files (or standard input), each through
// a value reader, into documents that are reused unless the program kept a view of the last one; the main loop and
// the `input`/`inputs` builtins draw from the same stream. -R gives lines, --stream events (core/stream_events.hpp,
// token by token as the bytes arrive).
// Problems (a file that cannot be opened or read, a parse error) go to the caller's reporter, which decides what to
// print and the exit status; while the program runs, a parse error becomes the program's error instead (jq 1.8:
// `try input` catches it).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "core/progress.hpp"
#include "core/stream_events.hpp"
#include "core/value_reader.hpp"

namespace jview {

// A document and the bytes it points into, shared by every value that views it.
struct doc_holder {
  document doc;
  std::shared_ptr<source_bytes> keep;
};

struct input_options {
  std::vector<std::string> files;  // empty: standard input
  parse_options parse;
  bool raw = false;            // -R: lines as strings
  bool stream = false;         // --stream: jq's [path, leaf] / [path] events
  bool stream_errors = false;  // --stream-errors: a parse error as the event [message, path] (jq's words); reading
                               // goes on at the next line, as jq's does
  bool record_separators = false;  // --seq: RS (0x1e) may stand between values
  bool slurp = false;          // -n -s: the one input (for `input`) is the array of all values, as jq 1.8
  // --lenient: each input is read whole by jq 1.8's own reader (NaN, Infinity, 01, .5, 1., +1, invalid UTF-8),
  // its values built (no views); next() only, never next_doc().
  bool lenient = false;
  progress_hooks progress;  // (core/progress.hpp)
};

// A parse error's message as the strict reader words it: for what jq 1.8 would read (--lenient: NaN, Infinity,
// numbers such as 01, .5, 1. and +1, invalid UTF-8) it names the option; otherwise error_message(code).
std::string strict_message(const source_location& loc, error_code code);

class input_stream final : public filter::input_provider {
 public:
  // What the caller is told. Each call comes after flush(), so that the values before a problem are out first.
  class reporter {
   public:
    virtual ~reporter() = default;
    virtual void flush() = 0;  // also before a read that would wait for a slow producer
    virtual void open_failed(const std::string& file, const std::string& why) = 0;
    virtual void read_failed(const std::string& file, const std::string& why) = 0;
    // A parse error outside the program: "FILE:LINE:COLUMN: message" and the excerpt (format_excerpt).
    virtual void parse_failed(const std::string& where_and_what, const source_location& loc) = 0;
    // --seq: a text jq skips, with its warning ("Truncated value at line 1, column 7"); reading goes on.
    virtual void parse_ignored(const std::string& what) = 0;
  };

  input_stream(input_options opts, reporter& rep);
  ~input_stream() override;

  // The next input document, or nullptr at the end (or, while the program runs, at a parse error: take_error()).
  std::shared_ptr<doc_holder> next_doc();
  // -R: the next line as a string; false at the end.
  bool next_line(std::string& line);
  // -R -s: everything as one string.
  std::string read_everything();

  // filter::input_provider: the next value (a view of its document, a line, or a stream event).
  bool next(filter::value& out) override;
  // jq's input_filename: "<stdin>" for standard input, empty (null) before any input was opened.
  std::string current_filename() const override { return opened_ ? name_ : std::string(); }
  // jq's "FILE:LINE" of an error: the lines read so far in the current file (jq reads whole lines, so a JSON value
  // counts its own line; a raw line counts once read). "<unknown>" before any input was opened (-n).
  std::string where() const;
  std::uint64_t current_line() const override;
  // While the program runs, parse errors become its errors (take_error) instead of reports.
  void set_in_program(bool on) noexcept { in_program_ = on; }
  std::string take_error() override;

 private:
  bool open_next();
  void close_reader();
  void report_read_error();
  void report_parse_error();
  bool next_event(filter::value& out);  // --stream
  filter::value stream_error_event();   // --stream-errors: the event of events_'s error; reading goes on after it

  input_options o_;
  reporter& rep_;
  std::size_t next_file_ = 0;
  std::unique_ptr<value_reader> reader_;
  std::shared_ptr<doc_holder> holder_;
  document scratch_;            // kept values are parsed here first (see next_doc)
  stream_events events_;        // --stream: the current input's events
  std::shared_ptr<doc_holder> seq_doc_;  // --stream --seq: the record whose events are handed out
  std::size_t seq_at_ = 0;               // ... from this byte of its text on
  bool in_program_ = false;
  std::string pending_error_;   // a parse error met by `input` / `inputs`, for take_error
  std::string name_ = "<stdin>";
  std::unique_ptr<value_reader> finished_;  // the last input read to its end (its lines, for errors after it)
  bool opened_ = false;
  bool slurped_ = false;  // -n -s: the array was handed out
  bool next_lenient(filter::value& out);
  std::vector<filter::value> lenient_values_;  // --lenient: the current input's values, handed out in order
  std::size_t lenient_next_ = 0;
  std::string lenient_error_;  // --lenient: the error after those values, reported once they are handed out
};

}  // namespace jview
