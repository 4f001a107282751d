// core/value_reader.hpp: values, one at a time, framed over any byte source (core/byte_source.hpp). A whole source's
// values are parsed where they lie; a file's or a stream's bytes are read into one buffer used again and again, and
// each value is parsed where it lies in it: one cut by the buffer's end is parsed again once the rest has been read
// (for a stream, once its end has arrived: core/value_boundary.hpp). A stream's values are processed as soon as they
// are complete: before the reader would wait for its producer, it calls the before-block hook (the CLI flushes its
// output there, so `tail -f log | jview -c .` prints each value as it arrives).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.hpp"
#include "core/document.hpp"
#include "core/error.hpp"
#include "core/line_counter.hpp"
#include "core/parser.hpp"
#include "core/value_boundary.hpp"

namespace jview {

// A diagnostic position: 1-based line, 1-based column in characters, and the text of that line.
struct source_location {
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  std::uint64_t byte_offset = 0;  // from the start of the input
  std::string line_text;          // the line (at most ~200 bytes around the column), without its newline
  std::uint64_t caret = 0;        // column of the error within line_text (0-based, in characters)
  std::uint64_t byte_column = 1;  // 1-based, in bytes (jq's column, which counts bytes)
};

// jq 1.8's own reading of a text that failed to parse (core/filter/jq_json.cpp, a reader written after jq's): its
// message ("Invalid numeric literal"), whether jq saw it at the text's end ("... at EOF"), and its line and column
// as jq counts them from the text's start (line 1, column 0; a newline starts a line at column 0). False when jq
// would read the text without an error. Used for --seq input, whose warnings are jq's.
struct jq_text_error {
  std::string what;
  bool at_eof = false;
  int line = 1, column = 0;
  std::size_t offset = 0;  // the byte jq found it at (it reads on after that byte: at_eof false)
};
bool jq_diagnose(std::string_view text, jq_text_error& out);

class value_reader {
 public:
  explicit value_reader(const parse_options& opts);
  ~value_reader();
  value_reader(const value_reader&) = delete;
  value_reader& operator=(const value_reader&) = delete;

  // Opens a file ("-" is standard input) through open_source(), decompressing it when parse_options::decompress
  // says so (the before-block hook, if set, is called before a stream's first bytes are waited for). On failure
  // returns false and sets `error` to the system's reason (e.g. "No such file or directory"; a directory gives
  // "Is a directory").
  bool open(const std::string& path, std::string& error);
  // Reads from an already open descriptor (not closed by the reader).
  void open_fd(int fd, std::string name);
  // Reads from any source.
  void open(std::unique_ptr<byte_source> source);
  // Reads another input from its start, keeping the parser and its tables (a parallel run's worker reads piece
  // after piece).
  void restart(std::unique_ptr<byte_source> source);
  const std::string& name() const noexcept { return name_; }
  // A whole source's values from byte `offset` on (a parallel run's piece that starts inside a line): the bytes
  // before it count for lines and columns only, and no byte order mark is looked for. Call after open().
  void start_at(std::size_t offset) noexcept {
    pos_ = offset;
    bom_checked_ = true;
  }

  // --seq (RFC 7464 input), read as jq 1.8 reads it (value_reader_seq.cpp): text before the first record separator
  // (0x1E) is abandoned; a syntax error is a warning (take_warnings) and reading goes on after the byte where jq
  // found it; an RS inside a value truncates it (a warning, or nothing when whitespace came before the RS).
  void set_record_separators(bool on) noexcept { rs_ = on; }
  // --seq: jq's "ignoring parse error" messages since the last call ("Truncated value at line 1, column 7").
  std::vector<std::string> take_warnings() { return std::move(warnings_); }
  // Adds the bytes of each read from the source (a file's or stream's; not a whole source's) to *counter, for a
  // progress line drawn by another thread (relaxed adds: a count, no synchronisation).
  void set_read_counter(std::atomic<std::uint64_t>* counter) noexcept { read_counter_ = counter; }
  // Called before a read that would wait for a stream's producer.
  void set_before_block(void (*fn)(void*), void* ctx) noexcept {
    before_block_ = fn;
    before_block_ctx_ = ctx;
  }

  enum class status { value, end, error };
  // Parses the next value into doc. On `error`, error() and location() tell what and where; the reader then
  // stays at the end (jq stops reading a file at its first syntax error).
  status next(document& doc);

  // Reads the whole remaining input as raw bytes (for -R -s); false on a read error (io_error()).
  bool read_all(std::string& out);
  // Reads one line (without its '\n') for -R; false at the end.
  bool read_line(std::string& out, bool& had_newline);

  parse_error error() const noexcept { return error_; }
  const std::string& io_error() const noexcept { return io_error_; }  // set when error_.code == io_error
  source_location location() const;

  // Token by token instead of value by value (--stream: core/stream_events.hpp frames its own tokens). begin_tokens()
  // first (it skips a byte order mark); then window() is the bytes not yet done with (valid until the next
  // read_more() or consume()), at_input_end() whether the input has no more after them, consume(n) drops the first
  // n (their memory is reused: a value of any size is read in a buffer the size of its largest token), and
  // read_more() appends what arrives next (false when nothing did: the end, or a read error: io_error()). fail(e)
  // makes the error e, at window offset e.offset, this input's (error(), location()); at_start: reported at 1:1.
  void begin_tokens();
  std::string_view window() const noexcept { return {buf_ + pos_, len_ - pos_}; }
  bool at_input_end() const noexcept { return eof_; }
  void consume(std::size_t n) noexcept { pos_ += n; }
  bool read_more() { return fill(); }
  void fail(parse_error e, bool at_start = false) noexcept {
    error_ = e;
    error_pos_ = pos_ + e.offset;
    error_at_start_ = at_start;
  }
  // Reads on until window offset `at` is followed by the rest of its line (up to the 80 bytes an excerpt shows),
  // or the input ends: an error's location() then has its line's text.
  void read_line_after(std::size_t at);
  // The position of window offset `at` (as location() gives an error's). Lines are counted forward: ask for
  // positions in order.
  source_location location_at(std::size_t at) const { return location_of(pos_ + at); }
  // How far the reader has got: the bytes of the input before the next unparsed one (for a progress line).
  std::uint64_t bytes_consumed() const noexcept { return base_offset_ + pos_; }
  // Keeps the bytes the last document points into alive (give it to whoever keeps views past the next call).
  std::shared_ptr<source_bytes> source_keepalive() const { return keep_; }
  // The 1-based line the reader has reached (for jq's "error (at FILE:LINE)" messages).
  std::uint64_t current_line() const;
  // Lines as jq counts them after a value (jq reads whole lines: the newlines of every line read so far, the
  // line the value ends on included once its newline is there): current_line(), less one when no newline
  // follows the value in the bytes read.
  std::uint64_t lines_read() const;

 private:
  struct buffer;
  status next_seq(document& doc);  // next() for --seq
  void seq_count_to(std::size_t at) noexcept;  // jq's line and column (seq_line_, seq_column_) to buf_ + at; pos_ = at
  void seq_warn(const std::string& what, int line, int column, const char* tail = "");
  bool fill();                  // reads more of a file or stream (see value_reader.cpp); false at its end or error
  bool make_room();             // fill: drops the parsed bytes, grows the buffer for a large value
  bool more_for_value(document& doc);  // next(): the value at pos_ may go on past the buffer; false: error_ is set
  void check_bom();
  bool read_error_ended() const noexcept { return eof_ && !io_error_.empty(); }
  // Whether the outcome of parsing the value at p (the error e, or success ending at stop) could change with the
  // bytes after the buffer's end.
  bool cut_by_buffer_end(const char* p, const parse_error& e, const char* stop) const noexcept;
  status fail_io();             // next(): the read error (io_error_) as this input's error
  // Lines: counted lazily up to a position of buf_ (only diagnostics ask), the lines of bytes a re-readable source
  // dropped uncounted read again first.
  void count_lines_to(std::size_t at) const;
  void count_dropped_lines() const;
  source_location location_of(std::size_t at) const;  // of buf_ + at
  bool newline_after_buffer() const;

  parser parser_;
  std::string name_;
  std::unique_ptr<byte_source> src_;
  bool stream_ = false;         // src_ is a stream: values are framed as they arrive
  bool tokens_ = false;         // begin_tokens(): the buffer holds a token, not a value (make_room)
  void (*before_block_)(void*) = nullptr;
  void* before_block_ctx_ = nullptr;
  bool rs_ = false;             // set_record_separators
  bool seq_waiting_ = true;     // --seq: skipping to the next RS (jq starts so: text before the first RS is abandoned)
  bool seq_ended_ = false;      // --seq: the end of the input was reported
  int seq_line_ = 1, seq_column_ = 0;  // --seq: jq's position after the bytes before pos_
  std::vector<std::string> warnings_;  // --seq: take_warnings
  std::atomic<std::uint64_t>* read_counter_ = nullptr;  // set_read_counter
  std::shared_ptr<buffer> chunk_;       // a file's or stream's buffer
  std::shared_ptr<source_bytes> keep_;  // what the current bytes' views need kept
  const char* buf_ = nullptr;   // current bytes: [buf_, buf_ + len_)
  std::size_t len_ = 0;
  std::size_t pos_ = 0;         // next unparsed byte
  std::uint64_t base_offset_ = 0;  // input offset of buf_[0]
  bool eof_ = false;            // nothing more to read (io_error_ set: because of a read error)
  bool bom_checked_ = false;    // a leading UTF-8 byte order mark is skipped, as jq does
  std::uint64_t values_ = 0;    // values read so far
  // A stream's value cut by the end of what has arrived (more_for_value).
  value_boundary boundary_;
  std::size_t scan_at_ = 0;     // where the boundary scan goes on, in buf_
  bool value_complete_ = false;  // the scan found the end of the value at pos_
  // An incomplete streamed value this large is parsed as far as it goes, then again each time it has grown 4
  // times, so an error deep in a huge value (`[` then /dev/zero) is reported instead of the reader buffering without
  // end: at most a third more parsing, and only for values over 8 MiB.
  static constexpr std::size_t k_first_probe = std::size_t{8} << 20;
  std::size_t probe_at_ = k_first_probe;
  // Line accounting (a cache of what diagnostics ask: hence mutable).
  mutable line_counter lines_;   // the bytes before counted_ (and before buf_)
  mutable std::size_t counted_ = 0;  // position in buf_ up to which lines_ has counted
  // A re-readable source: the input offset from which bytes before buf_ were dropped without counting their lines;
  // k_none: none.
  static constexpr std::uint64_t k_none = ~std::uint64_t{0};
  mutable std::uint64_t dropped_from_ = k_none;
  mutable std::size_t next_newline_ = 0;  // lines_read: the first '\n' at or after pos_ (len_: none), while >= pos_
  mutable bool newline_known_ = false;
  parse_error error_;
  std::size_t error_pos_ = 0;   // in buf_
  bool error_at_start_ = false;  // the error is the input's as a whole (no value in it): reported at 1:1
  std::string io_error_;
};

}  // namespace jview
