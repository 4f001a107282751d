// core/value_reader.cpp: values framed over a byte source (see value_reader.hpp). A reader serves one input (make one
// per file).
#include "core/value_reader.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "core/decompress_source.hpp"
#include "simd/pages.hpp"

namespace jview {
namespace {

// A stream's first buffer, from the heap: a short stream (a pipe of a few lines, most of stdin's uses) touches only
// the pages it fills. A longer one continues on huge pages (make_room).
constexpr std::size_t k_first_stream_buffer = 256u << 10;
// The buffer of a large file, and of a stream past its first buffer (on huge pages): filled again and again while the
// values in it are not kept (kept ones are copies with their bytes). Reads of 1 MiB and of 4 MiB ran at the same
// speed; the buffer stays in the caches between read() and the parser.
constexpr std::size_t k_buffer = 2u << 20;
// Room is made when less than this is free (a read is then worth its system call).
constexpr std::size_t k_min_read = 256u << 10;
// A value larger than half a file's buffer gets room for the rest of the file up to this size (one file, one value:
// parsed twice, the first time within the first buffer), else for 4 times what has been read of it (parsed again
// each time: at most a third more parsing).
constexpr std::size_t k_read_rest = std::size_t{256} << 20;
// Token by token (begin_tokens), the bytes kept before the next one when the buffer is compacted: an error's
// excerpt shows the line up to 80 bytes before it (location_of).
constexpr std::size_t k_excerpt_before = 80;
// An error this close to the end of the buffer may be the cut's doing (an escape pair \ud83d\ude00 is 12 bytes, a
// literal 5): the value is parsed again with the bytes after it.
constexpr std::size_t k_cut_margin = 64;

constexpr char k_bom[] = "\xef\xbb\xbf";

}  // namespace

// A file's or stream's buffer: from the heap while a stream is short, on huge pages once it outgrows the first one,
// and from the start for a file (make_room).
struct value_reader::buffer final : source_bytes {
  std::unique_ptr<char[]> heap;
  char* data = nullptr;
  std::size_t cap = 0;
  std::size_t mapped = 0;  // as given to simd::map_pages; 0: `heap` holds the bytes
  ~buffer() override {
    if (mapped != 0) simd::unmap_pages(data, mapped);
  }
};

value_reader::value_reader(const parse_options& opts)
    : parser_(opts), lines_(parser_.options().kernels->vector_scanners()) {}

value_reader::~value_reader() = default;

bool value_reader::open(const std::string& path, std::string& error) {
  std::unique_ptr<byte_source> s = open_source(path, error);
  if (!s) return false;
  if (parser_.options().decompress) {
    // Its first bytes are read to look for a magic: a stream's may have to be waited for.
    if (s->type() == byte_source::kind::stream && before_block_ != nullptr && s->would_block())
      before_block_(before_block_ctx_);
    s = decompressing(std::move(s));
  }
  open(std::move(s));
  return true;
}

void value_reader::open_fd(int fd, std::string name) { open(open_fd_source(fd, std::move(name))); }

void value_reader::open(std::unique_ptr<byte_source> source) {
  src_ = std::move(source);
  name_ = src_->name();
  stream_ = src_->type() == byte_source::kind::stream;
  if (src_->type() == byte_source::kind::whole) {
    const std::string_view all = src_->whole();
    buf_ = all.data();
    len_ = all.size();
    keep_ = src_->whole_keepalive();
    eof_ = true;
  } else {
    chunk_ = std::make_shared<buffer>();
    keep_ = chunk_;
  }
}

void value_reader::restart(std::unique_ptr<byte_source> source) {
  chunk_.reset();
  keep_.reset();
  src_.reset();
  buf_ = nullptr;
  len_ = pos_ = 0;
  base_offset_ = 0;
  eof_ = bom_checked_ = tokens_ = false;
  values_ = 0;
  boundary_.reset();
  scan_at_ = 0;
  value_complete_ = false;
  probe_at_ = k_first_probe;
  lines_.reset();
  counted_ = 0;
  dropped_from_ = k_none;
  next_newline_ = 0;
  newline_known_ = false;
  error_ = parse_error{};
  error_pos_ = 0;
  error_at_start_ = false;
  io_error_.clear();
  parser_.invalidate_index();
  open(std::move(source));
}

bool value_reader::make_room() {
  buffer& c = *chunk_;
  if (c.cap != 0 && c.cap - len_ >= std::min(k_min_read, c.cap / 4)) return true;
  // Drop what has been parsed: its lines counted first, unless the source can read them again (then only an error
  // or input_line_number asks for them: counting was 8% of `-c .user.login` over 200 MB of NDJSON).
  if (counted_ < pos_) {
    if (!src_->can_reread())
      lines_.count(buf_ + counted_, buf_ + pos_);
    else if (dropped_from_ == k_none)
      dropped_from_ = base_offset_ + counted_;
    counted_ = pos_;
  }
  // Token by token, the bytes just before pos_ stay too: an error's excerpt shows up to 80 of them.
  const std::size_t from = tokens_ ? pos_ - std::min(pos_, k_excerpt_before) : pos_;
  const std::size_t pending = len_ - from;
  const bool first = c.cap == 0;
  std::size_t cap;
  if (!stream_ && !tokens_) {
    cap = k_buffer;
    if (pending >= k_buffer / 2) {  // a large value (see k_read_rest)
      const std::uint64_t rest = src_->remaining_hint();
      const std::uint64_t more = pending + rest <= k_read_rest ? rest : std::min<std::uint64_t>(pending * 3, rest);
      cap = pending + static_cast<std::size_t>(more) + k_min_read * 4;
    }
  } else {
    cap = first ? k_first_stream_buffer : std::max(k_buffer, pending * 2 + k_min_read * 4);
  }
  // Move in place when nobody else holds views of this buffer (growing it in place or by mremap when it is too
  // small), otherwise continue in a new buffer and leave the old one to its holders.
  bool grown = true, moved = true;
  if (chunk_.use_count() <= 2 && c.data != nullptr && (c.cap >= cap || c.mapped != 0)) {
    std::memmove(c.data, c.data + from, pending);
    if (c.cap < cap) {
      void* q = simd::remap_pages(c.data, c.mapped, cap);
      grown = q != nullptr;
      if (grown) {
        c.data = static_cast<char*>(q);
        c.mapped = c.cap = cap;
      }
    }
  } else {
    std::shared_ptr<buffer> fresh;
    try {
      fresh = std::make_shared<buffer>();
      // Past its first buffer a stream is a long one: its buffer goes on huge pages (every fresh 4 KiB page that
      // read() writes costs a fault, 9-14 µs on the VMs we measure: 420 of them for citm_catalog.json through a
      // pipe). A file is long from the start.
      if (!first || !stream_) {
        fresh->data = static_cast<char*>(simd::map_pages(cap));
        if (fresh->data != nullptr) fresh->mapped = cap;
      }
      if (fresh->data == nullptr) {
        fresh->heap.reset(new char[cap]);
        fresh->data = fresh->heap.get();
      }
    } catch (const std::bad_alloc&) {
      grown = moved = false;
    }
    if (grown) {
      fresh->cap = cap;
      if (pending > 0) std::memcpy(fresh->data, buf_ + from, pending);
      chunk_ = fresh;
      keep_ = fresh;
    }
  }
  if (moved) {
    base_offset_ += from;
    scan_at_ -= std::min(scan_at_, from);
    len_ = pending;
    pos_ -= from;
    counted_ = pos_;
    buf_ = chunk_->data;
  }
  if (!grown) {
    // A value larger than memory (or an endless string): an error of this input, not an abort.
    io_error_ = "out of memory";
    eof_ = true;
  }
  return grown;
}

bool value_reader::fill() {
  // A file is read until the buffer is full (its reads may come short); a stream once: what has arrived, waiting
  // (after the before-block hook) only when nothing has. False at the end of the input or after a read error.
  if (eof_) return false;
  // The buffer is about to be compacted, moved or extended: the parser's token index of it is stale.
  parser_.invalidate_index();
  if (!make_room()) return false;
  buffer& d = *chunk_;
  if (stream_ && before_block_ != nullptr && src_->would_block()) before_block_(before_block_ctx_);
  bool got = false;
  while (len_ < d.cap) {
    std::size_t n = 0;
    const byte_source::result r = src_->read(d.data + len_, d.cap - len_, n);
    len_ += n;
    if (read_counter_ != nullptr && n != 0) read_counter_->fetch_add(n, std::memory_order_relaxed);
    got = got || n != 0;
    if (r != byte_source::result::ok) {
      if (r == byte_source::result::error) io_error_ = src_->error_text();
      eof_ = true;
      return got;  // what was read before the end (or the error) is still parsed
    }
    if (stream_) break;
  }
  return got;
}

bool value_reader::cut_by_buffer_end(const char* p, const parse_error& e, const char* stop) const noexcept {
  if (!e) return stop == buf_ + len_;  // a number or literal may go on
  // An unterminated string is reported at its opening quote.
  return e.code == error_code::unexpected_end || e.code == error_code::unterminated_string ||
         e.offset + k_cut_margin > len_ - static_cast<std::size_t>(p - buf_);
}

bool value_reader::more_for_value(document& doc) {
  if (!stream_) {
    fill();  // (at its end or on an error next() sees eof_)
    return true;
  }
  // A stream: read until the value's end has arrived, so that a value trickling in is parsed again once.
  boundary_.reset();
  scan_at_ = pos_;
  const bool vector = parser_.options().kernels->vector_scanners();
  for (;;) {
    if (boundary_.scan(buf_, scan_at_, len_, false, vector)) {
      value_complete_ = true;  // what the parser says of it now is final
      return true;
    }
    if (len_ - pos_ >= probe_at_) {
      // A huge value still incomplete: parse what has arrived. An error well before the end of the bytes (not one
      // that more bytes could cure) is final: report it now rather than read on.
      const std::size_t pending = len_ - pos_;
      probe_at_ = pending * 4;
      const char* stop = nullptr;
      const parse_error e = parser_.parse(buf_ + pos_, buf_ + len_, doc, stop);
      if (e && e.code != error_code::unexpected_end && e.code != error_code::unterminated_string &&
          e.code != error_code::out_of_memory && e.offset + 16 <= pending) {
        error_ = e;
        error_pos_ = pos_ + e.offset;
        return false;
      }
    }
    if (!fill()) return true;  // the end, or a read error: next() reports it
  }
}

void value_reader::check_bom() {
  // Only bytes that could begin a byte order mark are waited for: a stream's first value of one or two bytes
  // (`echo 1`) is processed at once.
  bom_checked_ = true;
  auto prefix = [&] {
    return len_ == pos_ || std::memcmp(buf_ + pos_, k_bom, std::min<std::size_t>(len_ - pos_, 3)) == 0;
  };
  while (len_ - pos_ < 3 && prefix() && fill()) {
  }
  if (len_ - pos_ >= 3 && prefix()) pos_ = counted_ = pos_ + 3;
}

void value_reader::begin_tokens() {
  tokens_ = true;
  if (!bom_checked_) check_bom();
}

void value_reader::read_line_after(std::size_t at) {
  // As location_of shows it: up to 80 bytes after the error, to the end of its line.
  for (;;) {
    const std::size_t from = pos_ + at;
    const std::size_t have = len_ > from ? len_ - from : 0;
    if (have >= 81 || std::memchr(buf_ + std::min(from, len_), '\n', have) != nullptr) return;
    if (!fill()) return;
  }
}

value_reader::status value_reader::fail_io() {
  error_ = {error_code::io_error, 0};
  error_pos_ = len_;
  return status::error;
}

value_reader::status value_reader::next(document& doc) {
  if (error_) return status::error;
  if (!bom_checked_) check_bom();
  if (rs_) return next_seq(doc);
  for (;;) {
    const char* p = buf_ + pos_;
    const char* end = buf_ + len_;
    bool at_end = parser::at_end(p, end);
    while (rs_ && !at_end && *p == '\x1e') {  // --seq: record separators between values
      ++p;
      at_end = parser::at_end(p, end);
    }
    pos_ = static_cast<std::size_t>(p - buf_);  // whitespace between values is not kept (a stream of spaces)
    if (at_end) {
      if (!eof_) {
        fill();
        continue;
      }
      if (read_error_ended()) return fail_io();
      if (parser_.options().single_value && values_ == 0) {  // --strict: an empty input is not a JSON text
        error_ = {error_code::empty_input, 0};
        error_pos_ = pos_;
        error_at_start_ = true;  // (reported at 1:1, where the text should have begun)
        return status::error;
      }
      return status::end;
    }
    if (parser_.options().single_value && values_ != 0) {  // --strict: one value per input
      error_ = {error_code::extra_value, 0};
      error_pos_ = pos_;
      return status::error;
    }
    const char* stop = nullptr;
    const parse_error e = parser_.parse(p, end, doc, stop);
    if (!value_complete_ && cut_by_buffer_end(p, e, stop)) {
      if (!eof_) {
        if (!more_for_value(doc)) return status::error;
        continue;
      }
      // The input ended in a read error (a file that shrank while it was read): that, not the value it cut short,
      // is what to report.
      if (read_error_ended()) return fail_io();
    }
    if (e.code == error_code::out_of_memory) {
      // Not a fault of the input: reported as a system error of this input (`FILE: out of memory`, exit 2).
      io_error_ = error_message(e.code);
      error_ = {error_code::io_error, e.offset};
      error_pos_ = pos_ + e.offset;
      return status::error;
    }
    if (e) {
      error_ = e;
      error_pos_ = pos_ + e.offset;
      return status::error;
    }
    pos_ = static_cast<std::size_t>(stop - buf_);
    ++values_;
    probe_at_ = k_first_probe;
    value_complete_ = false;
    return status::value;
  }
}

// ---- raw input (-R) ----

bool value_reader::read_all(std::string& out) {
  while (fill()) {
  }
  if (!io_error_.empty()) return false;
  out.append(buf_ + pos_, len_ - pos_);
  pos_ = len_;
  return true;
}

bool value_reader::read_line(std::string& out, bool& had_newline) {
  out.clear();
  for (;;) {
    const char* p = buf_ + pos_;
    const char* nl = len_ > pos_ ? static_cast<const char*>(std::memchr(p, '\n', len_ - pos_)) : nullptr;
    if (nl != nullptr) {
      out.assign(p, static_cast<std::size_t>(nl - p));
      pos_ = static_cast<std::size_t>(nl - buf_) + 1;
      had_newline = true;
      return true;
    }
    if (!fill()) break;
  }
  if (pos_ >= len_) return false;
  out.assign(buf_ + pos_, len_ - pos_);
  pos_ = len_;
  had_newline = false;
  return true;
}

// ---- lines and locations ----

void value_reader::count_dropped_lines() const {
  if (dropped_from_ == k_none) return;
  // The bytes are read again from the file (if it changed meanwhile, the count is of what it holds now).
  constexpr std::size_t k_piece = 1u << 20;
  std::unique_ptr<char[]> tmp(new char[k_piece]);
  std::uint64_t at = dropped_from_;
  while (at < base_offset_) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(k_piece, base_offset_ - at));
    std::size_t n = 0;
    if (!src_->reread(at, tmp.get(), want, n)) break;  // the file shrank: its lines as far as it goes
    lines_.count(tmp.get(), tmp.get() + n);
    at += n;
  }
  dropped_from_ = k_none;
}

void value_reader::count_lines_to(std::size_t at) const {
  count_dropped_lines();
  if (counted_ < at) {
    lines_.count(buf_ + counted_, buf_ + at);
    counted_ = at;
  }
}

std::uint64_t value_reader::current_line() const {
  count_lines_to(pos_);
  return lines_.line();
}

std::uint64_t value_reader::lines_read() const {
  // The line counts once a '\n' follows the value in the bytes at hand. A stream may not have read its rest yet
  // (jq reads a whole line before it parses it); then too the line counts only once its newline is here.
  if (!newline_known_ || next_newline_ < pos_ || !eof_) {
    // Remembered once the input has ended (its bytes no longer move), so a program asking after every value of
    // one long line does not rescan the line each time.
    newline_known_ = eof_;
    const void* nl = len_ > pos_ ? std::memchr(buf_ + pos_, '\n', len_ - pos_) : nullptr;
    next_newline_ = nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf_) : len_;
  }
  const std::uint64_t line = current_line();
  // A re-readable file has its next bytes at hand too (a value may end just before the buffer does).
  const bool follows = next_newline_ < len_ || (!eof_ && newline_after_buffer());
  return follows ? line : line - 1;
}

bool value_reader::newline_after_buffer() const {
  // The next 4 KiB, as jq, which reads its input in blocks, has at least those.
  if (!src_->can_reread()) return false;
  char next[4096];
  std::size_t n = 0;
  return src_->reread(base_offset_ + len_, next, sizeof next, n) && std::memchr(next, '\n', n) != nullptr;
}

source_location value_reader::location() const {
  if (error_at_start_) return source_location{};
  return location_of(std::min(error_pos_, len_));
}

source_location value_reader::location_of(std::size_t at) const {
  source_location loc;
  count_lines_to(at);
  loc.line = lines_.line();
  loc.column = lines_.column();
  loc.byte_column = lines_.byte_column();
  loc.byte_offset = base_offset_ + at;
  // The line's text around the error: at most 80 bytes before it and 80 after.
  std::size_t ls = at;
  while (ls > 0 && buf_[ls - 1] != '\n' && at - ls < 80) --ls;
  while (ls < at && (static_cast<unsigned char>(buf_[ls]) & 0xc0) == 0x80) ++ls;  // start on a character
  std::size_t le = at;
  while (le < len_ && buf_[le] != '\n' && le - at < 80) ++le;
  loc.line_text.assign(buf_ + ls, le - ls);
  std::uint64_t caret = 0;
  for (std::size_t k = ls; k < at; ++k)
    if ((static_cast<unsigned char>(buf_[k]) & 0xc0) != 0x80) ++caret;
  loc.caret = caret;
  return loc;
}

}  // namespace jview
