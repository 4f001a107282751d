// core/input.hpp: where values come from. A regular file of 64 KiB to 32 MiB is read whole into huge pages, a
// smaller one memory-mapped; a larger one is read in chunks into one buffer that is used again and again (on the
// VMs we measure, the first pass over a mapped file's page-cache pages costs several times a read() of them), and
// each value is parsed where it lies: one cut by the buffer's end is parsed again once the rest has been read.
// Pipes and terminals are read in chunks too, and each value is parsed as soon as its last byte has arrived (a
// cheap incremental scan finds value boundaries, so a slow producer's values are printed at once and nothing is
// parsed twice).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/document.hpp"
#include "core/error.hpp"
#include "core/parser.hpp"

namespace jview {

// Bytes that views point into. Kept alive by every document made from them (see value_reader::source_keepalive).
struct source_bytes {
  virtual ~source_bytes() = default;
};

// A diagnostic position: 1-based line, 1-based column in characters, and the text of that line.
struct source_location {
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  std::uint64_t byte_offset = 0;  // from the start of the input
  std::string line_text;          // the line (at most ~200 bytes around the column), without its newline
  std::uint64_t caret = 0;        // column of the error within line_text (0-based, in characters)
};

class value_reader {
 public:
  explicit value_reader(const parse_options& opts);
  ~value_reader();
  value_reader(const value_reader&) = delete;
  value_reader& operator=(const value_reader&) = delete;

  // Opens a file ("-" is standard input). On failure returns false and sets `error` to the system's reason
  // (e.g. "No such file or directory"; a directory gives "Is a directory").
  bool open(const std::string& path, std::string& error);
  // Called before a read that would block (the producer is slow): the CLI flushes its output there, so
  // `tail -f log | jview -c .` prints each value as soon as it has arrived.
  // --seq (RFC 7464 input): the record separator 0x1E may stand between values, like whitespace.
  void set_record_separators(bool on) noexcept { rs_ = on; }
  void set_before_block(void (*fn)(void*), void* ctx) noexcept {
    before_block_ = fn;
    before_block_ctx_ = ctx;
  }
  // Adds the bytes of each read() from the input (a stream's or a large file's chunks; not a mapped or whole-read
  // file's) to *counter, for a progress line drawn by another thread (relaxed adds: a count, no synchronisation).
  void set_read_counter(std::atomic<std::uint64_t>* counter) noexcept { read_counter_ = counter; }
  // Reads from an already open descriptor (not closed by the reader).
  void open_fd(int fd, std::string name);
  const std::string& name() const noexcept { return name_; }

  enum class status { value, end, error };
  // Parses the next value into doc. On `error`, error() and location() tell what and where; the reader then
  // stays at the end (jq stops reading a file at its first syntax error).
  status next(document& doc);

  // Reads the whole remaining input as raw bytes (for -R); false on a read error.
  bool read_all(std::string& out);
  // Reads one line (without its '\n') for -R; false at the end.
  bool read_line(std::string& out, bool& had_newline);

  parse_error error() const noexcept { return error_; }
  const std::string& io_error() const noexcept { return io_error_; }  // set when error_.code == io_error
  source_location location() const;
  // After next() returned error: the failed value's bytes (from where the reader stood, whitespace included) up to
  // the error's position, in the reader's buffer (valid until the reader moves on; source_keepalive() keeps them).
  std::string_view failed_text() const noexcept {
    return {buf_ + pos_, error_pos_ > pos_ ? std::min(error_pos_, len_) - pos_ : 0};
  }
  // Keeps the bytes the last document points into alive (give it to whoever keeps views past the next call).
  std::shared_ptr<source_bytes> source_keepalive() const { return keep_; }
  // How far the reader has got: the bytes of the input before the next unparsed one (for a progress line).
  std::uint64_t bytes_consumed() const noexcept { return base_offset_ + pos_; }
  // The 1-based line the reader has reached (for jq's "error (at FILE:LINE)" messages).
  std::uint64_t current_line() const;
  // Lines as jq counts them after a value (jq reads whole lines: the newlines of every line read so far, the
  // line the value ends on included once its newline is there): current_line(), less one when no newline
  // follows the value in the bytes read.
  std::uint64_t lines_read() const;

 private:
  struct mapped;
  struct read_in;
  struct chunked;
  bool read_whole(int fd, std::size_t size);  // size bytes of fd into huge pages; false: no memory for them
  void read_in_chunks(int fd, bool own);  // a large regular file (regular_)
  bool fill();                         // stream: read more; false at EOF or error
  bool find_boundary();                // stream: true when a complete value starts at pos_
  // regular_: true when the outcome of parsing the value at p (the error e, or success ending at stop) could
  // change with the bytes after the buffer's end.
  bool cut_by_buffer_end(const char* p, const parse_error& e, const char* stop) const noexcept;
  bool newline_after_buffer() const;   // regular_: a '\n' among the next bytes of the file
  status fail_io();                    // next(): the read error (io_error_) as this input's error
  void count_lines(const char* from, const char* to);
  void count_skipped_lines();          // regular_: the lines of the bytes compacted away uncounted, read again

  parser parser_;
  void (*before_block_)(void*) = nullptr;
  void* before_block_ctx_ = nullptr;
  std::atomic<std::uint64_t>* read_counter_ = nullptr;  // set_read_counter
  std::string name_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool eof_ = false;
  bool pipe_widened_ = false;  // fill() widened a pipe on stdin (once)
  bool regular_ = false;       // a large regular file read in chunks: nothing to wait for, parsed without a scan
  std::uint64_t origin_ = 0;   // regular_: the file offset the input starts at
  std::uint64_t size_ = 0;     // regular_: the file's size when opened
  bool shrank_ = false;        // regular_: the file ended before that size (io_error_ says so)
  bool bom_checked_ = false;  // a leading UTF-8 byte order mark is skipped, as jq does
  std::uint64_t values_ = 0;  // values read so far
  std::shared_ptr<source_bytes> keep_;
  const char* buf_ = nullptr;   // current bytes: [buf_, buf_ + len_)
  std::size_t len_ = 0;
  std::size_t pos_ = 0;         // next unparsed byte
  // Stream state.
  std::shared_ptr<chunked> chunk_;
  std::size_t scan_ = 0;        // boundary scan position
  int depth_ = 0;
  bool in_string_ = false, escape_ = false, in_scalar_ = false, started_ = false;
  bool rs_ = false;  // set_record_separators
  // A streamed value still incomplete with this many bytes pending is parsed as far as it goes, then again each
  // time it has grown 4 times, so an error deep in a huge value (`[` then /dev/zero) is reported instead of the
  // reader buffering without end: at most a third more parsing, and only for values over 8 MiB.
  static constexpr std::size_t k_first_probe = std::size_t{8} << 20;
  std::size_t probe_at_ = k_first_probe;
  // Line accounting for bytes before buf_ (stream compaction) and up to `counted_`.
  std::uint64_t base_offset_ = 0;   // input offset of buf_[0]
  std::uint64_t lines_before_ = 0;  // newlines before counted_
  std::uint64_t col_chars_ = 0;     // characters since the last newline before counted_
  std::size_t counted_ = 0;         // position in buf_ up to which lines are counted
  // regular_: the input offset from which the bytes before buf_ were compacted away without counting their lines
  // (only an error or input_line_number asks for them: count_skipped_lines reads them again); k_none: none.
  static constexpr std::uint64_t k_none = ~std::uint64_t{0};
  std::uint64_t skipped_from_ = k_none;
  std::size_t next_newline_ = 0;    // lines_read: the first '\n' at or after pos_ (len_: none), while >= pos_
  bool newline_known_ = false;
  parse_error error_;
  std::size_t error_pos_ = 0;       // in buf_
  std::string io_error_;
};

}  // namespace jview
