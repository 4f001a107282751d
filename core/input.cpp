// core/input.cpp: mapped, read-whole and chunked files and streams, value by value. A reader serves one input (make one
// per file).
#include "core/input.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "simd/boundary_scan.hpp"
#include "simd/byte_count.hpp"
#include "simd/pages.hpp"

namespace jview {
namespace {

constexpr std::size_t k_read_chunk = 1u << 20;  // stream reads: up to 1 MiB at a time
// A stream's first buffer, from the heap: a short stream (a pipe of a few lines, most of stdin's uses) touches only
// the pages it fills. A longer one continues on huge pages (fill).
constexpr std::size_t k_first_stream_buffer = 256u << 10;
constexpr std::size_t k_read_whole_from = 64u << 10;  // files of this size ...
constexpr std::size_t k_read_whole = 32u << 20;       // ... up to this one are read whole, not mapped (see open)
// A larger regular file is read into a buffer of this size (on huge pages), filled again and again while the values
// in it are not kept (kept ones are copies with their bytes: cli/run.cpp). Reads of 1 MiB and of 4 MiB ran at the
// same speed; the buffer stays in the caches between read() and the parser.
constexpr std::size_t k_file_buffer = 2u << 20;
// A value larger than that buffer grows it to hold the rest of the file up to this size, else 4 times at a time.
constexpr std::size_t k_read_rest = std::size_t{256} << 20;
// An error this close to the end of a regular file's buffer may be the cut's doing (an escape pair \ud83d\ude00 is
// 12 bytes, a literal 5): the value is parsed again with the bytes after it.
constexpr std::size_t k_cut_margin = 64;

inline bool is_ws(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
// A top-level number or literal runs over these bytes (the parser's continues_token): any other byte ends it, so a
// scalar followed by junk (NUL bytes: `1` then /dev/zero) is complete at once and the parser judges what follows.
inline bool continues_scalar(char c) noexcept {
  return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '.' || c == '+' || c == '-';
}
// Only these bytes can start a value. Any other byte is an error at once: the parser reports it at its position
// instead of the reader waiting for the "scalar" to end (a stream of NUL bytes would never end).
inline bool starts_value(char c) noexcept {
  return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

}  // namespace

struct value_reader::mapped final : source_bytes {
  void* addr = nullptr;
  std::size_t size = 0;
  ~mapped() override {
    if (addr != nullptr) munmap(addr, size);
  }
};

// A regular file read whole into memory of simd::map_huge_pages.
struct value_reader::read_in final : source_bytes {
  void* addr = nullptr;
  std::size_t size = 0;  // as given to map_huge_pages
  ~read_in() override { simd::unmap_pages(addr, size); }
};

// A stream's buffer (or a large file's): from the heap while the stream is short, on huge pages once it outgrows the
// first one, and from the start for a large file (fill).
struct value_reader::chunked final : source_bytes {
  std::unique_ptr<char[]> heap;
  char* data = nullptr;
  std::size_t cap = 0;
  std::size_t mapped = 0;  // as given to simd::map_pages; 0: `heap` holds the bytes
  ~chunked() override {
    if (mapped != 0) simd::unmap_pages(data, mapped);
  }
};

value_reader::value_reader(const parse_options& opts) : parser_(opts) {}

value_reader::~value_reader() {
  if (own_fd_ && fd_ >= 0) ::close(fd_);
}

bool value_reader::open(const std::string& path, std::string& error) {
  if (path == "-") {
    open_fd(0, "<stdin>");
    return true;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = std::strerror(S_ISDIR(st.st_mode) ? EISDIR : errno);
    ::close(fd);
    return false;
  }
  name_ = path;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    // A file over 32 MiB is read in chunks (NDJSON in bounded memory); one of 64 KiB to 32 MiB is read whole
    // (read_whole); a smaller one is mapped: zeroing a huge page for it would cost more than its few pages.
    if (size > k_read_whole) {
      read_in_chunks(fd, true);
      return true;
    }
    if (size >= k_read_whole_from && read_whole(fd, size)) {
      ::close(fd);
      return true;
    }
    // Mapped with its page-table entries filled in one call (MAP_POPULATE: a fault per 64 KiB costs more).
    void* addr = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (addr != MAP_FAILED) {
      auto m = std::make_shared<mapped>();
      m->addr = addr;
      m->size = size;
      keep_ = m;
      buf_ = static_cast<const char*>(addr);
      len_ = m->size;
      eof_ = true;
      ::close(fd);
      return true;
    }
  }
  if (S_ISREG(st.st_mode) && st.st_size == 0) {
    // Regular but empty (or /proc-like files that report size 0): read it as a stream.
  }
  fd_ = fd;
  own_fd_ = true;
  chunk_ = std::make_shared<chunked>();
  keep_ = chunk_;
  return true;
}

bool value_reader::read_whole(int fd, std::size_t size) {
  // Into huge pages: on a VM, scanning a mapped file's page-cache pages ran at about 2 GB/s (citm_catalog.json:
  // about 0.8 ms, and up to 7 ms), read() into a huge page plus the scan at about 0.45 ms. The parser's buffers
  // follow it on the same huge pages.
  void* addr = simd::map_huge_pages(size);
  if (addr == nullptr) return false;
  auto r = std::make_shared<read_in>();
  r->addr = addr;
  r->size = size;
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, static_cast<char*>(addr) + got, size - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      break;  // the file shrank, or a read error: what was read is the input (as a stream would see it)
    }
  }
  keep_ = r;
  buf_ = static_cast<const char*>(addr);
  len_ = got;
  eof_ = true;
  return true;
}

void value_reader::read_in_chunks(int fd, bool own) {
  fd_ = fd;
  own_fd_ = own;
  regular_ = true;
  const off_t at = lseek(fd, 0, SEEK_CUR);
  origin_ = at > 0 ? static_cast<std::uint64_t>(at) : 0;
  struct stat st;
  size_ = fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  chunk_ = std::make_shared<chunked>();
  keep_ = chunk_;
}

void value_reader::open_fd(int fd, std::string name) {
  name_ = std::move(name);
  struct stat st;
  const bool known = fstat(fd, &st) == 0;
  if (known && S_ISREG(st.st_mode)) {
    // `jview . < file.json`: a regular file from the current offset (a shell may have read part of it already) is
    // read as a named one is: whole from 64 KiB to 32 MiB, in chunks beyond; a smaller one as a stream.
    const off_t at = lseek(fd, 0, SEEK_CUR);
    if (at >= 0 && st.st_size > at) {
      const auto size = static_cast<std::size_t>(st.st_size - at);
      if (size > k_read_whole) {
        read_in_chunks(fd, false);
        return;
      }
      if (size >= k_read_whole_from && read_whole(fd, size)) return;
    }
  }
  fd_ = fd;
  own_fd_ = false;
  chunk_ = std::make_shared<chunked>();
  keep_ = chunk_;
}

void value_reader::count_lines(const char* from, const char* to) {
  // Newlines counted by vector compares (whole files: a pretty-printed one has a line every 30-40 bytes); characters
  // only on the last line, the one the column is on.
  const char* line = from;
  if (const std::size_t n = simd::count_byte(from, to, '\n', !parser_.options().portable); n != 0) {
    lines_before_ += n;
    col_chars_ = 0;
    line = static_cast<const char*>(memrchr(from, '\n', static_cast<std::size_t>(to - from))) + 1;
  }
  // Characters = bytes that are not UTF-8 continuation bytes (10xxxxxx), eight at a time.
  std::uint64_t chars = static_cast<std::uint64_t>(to - line);
  const char* p = line;
  for (; to - p >= 8; p += 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const std::uint64_t cont = (w & ~(w << 1) & 0x8080808080808080ull) >> 7;  // one bit per byte
    chars -= (cont * 0x0101010101010101ull) >> 56;
  }
  for (; p < to; ++p) chars -= (static_cast<unsigned char>(*p) & 0xc0) == 0x80;
  col_chars_ += chars;
}

std::uint64_t value_reader::current_line() const {
  // Lines up to the parse position; counting is cheap and only done for diagnostics.
  auto* self = const_cast<value_reader*>(this);
  self->count_skipped_lines();
  if (self->counted_ < pos_) {
    self->count_lines(buf_ + counted_, buf_ + pos_);
    self->counted_ = pos_;
  }
  return lines_before_ + 1;
}

std::uint64_t value_reader::lines_read() const {
  // The line counts once a '\n' follows the value in the bytes at hand. A stream may not have read its rest yet
  // (jq reads a whole line before it parses it); then too the line counts only once its newline is here.
  auto* self = const_cast<value_reader*>(this);
  if (!newline_known_ || next_newline_ < pos_ || !eof_) {
    // Remembered once the input has ended (its bytes no longer move), so a program asking after every value of
    // one long line does not rescan the line each time.
    self->newline_known_ = eof_;
    const void* nl = std::memchr(buf_ + pos_, '\n', len_ - pos_);
    self->next_newline_ = nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf_) : len_;
  }
  const std::uint64_t line = current_line();
  // A regular file read in chunks has its next bytes at hand too (a value may end just before the buffer does).
  const bool follows = next_newline_ < len_ || (regular_ && !eof_ && newline_after_buffer());
  return follows ? line : line - 1;
}

bool value_reader::newline_after_buffer() const {
  // The next 4 KiB, as jq, which reads its input in blocks, has at least those.
  char next[4096];
  ssize_t n;
  do {
    n = ::pread(fd_, next, sizeof next, static_cast<off_t>(origin_ + base_offset_ + len_));
  } while (n < 0 && errno == EINTR);
  return n > 0 && std::memchr(next, '\n', static_cast<std::size_t>(n)) != nullptr;
}

void value_reader::count_skipped_lines() {
  if (skipped_from_ == k_none) return;
  // The bytes are read again from the file (if it changed meanwhile, the count is of what it holds now).
  std::unique_ptr<char[]> tmp(new char[k_read_chunk]);
  std::uint64_t at = skipped_from_;
  while (at < base_offset_) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(k_read_chunk, base_offset_ - at));
    const ssize_t n = ::pread(fd_, tmp.get(), want, static_cast<off_t>(origin_ + at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the file shrank: its lines as far as it goes
    count_lines(tmp.get(), tmp.get() + n);
    at += static_cast<std::uint64_t>(n);
  }
  skipped_from_ = k_none;
}

bool value_reader::fill() {
  if (eof_ || fd_ < 0) return false;
  // The buffer is about to be compacted, moved or extended: the parser's token index of it is stale.
  parser_.invalidate_index();
  chunked& c = *chunk_;
  if (c.cap == 0 || c.cap - len_ < std::min(k_read_chunk, c.cap) / 4) {
    // Make room: drop what has been parsed. Move in place when nobody else holds views of this buffer (growing it
    // in place or by mremap if it is too small), otherwise continue in a new buffer and leave the old one to its
    // holders.
    if (counted_ < pos_) {
      // A regular file's lines are counted only when asked for (count_skipped_lines): 8% of `-c .user.login` over
      // 200 MB of NDJSON.
      if (!regular_)
        count_lines(buf_ + counted_, buf_ + pos_);
      else if (skipped_from_ == k_none)
        skipped_from_ = base_offset_ + counted_;
      counted_ = pos_;
    }
    const std::size_t pending = len_ - pos_;
    const bool first = c.cap == 0;
    std::size_t cap = first ? k_first_stream_buffer : std::max(k_read_chunk * 2, pending * 2 + k_read_chunk);
    if (regular_) {
      // A value that did not fit gets room for the rest of the file when that is at most k_read_rest (one file,
      // one value: parsed twice, the first time within the first buffer), else for 4 times what has been read of
      // it (parsed again each time: at most a third more parsing).
      cap = k_file_buffer;
      if (pending >= k_file_buffer / 2) {
        struct stat st;
        const std::uint64_t read = origin_ + base_offset_ + len_;
        const std::uint64_t rest = fstat(fd_, &st) == 0 && static_cast<std::uint64_t>(st.st_size) > read
                                       ? static_cast<std::uint64_t>(st.st_size) - read
                                       : 0;
        const std::uint64_t more = pending + rest <= k_read_rest ? rest : std::min<std::uint64_t>(pending * 3, rest);
        cap = pending + static_cast<std::size_t>(more) + k_read_chunk;
      }
    }
    bool grown = true;
    if (chunk_.use_count() <= 2 && c.data != nullptr && (c.cap >= cap || c.mapped != 0)) {
      std::memmove(c.data, c.data + pos_, pending);
      if (c.cap < cap) {
        void* q = simd::remap_pages(c.data, c.mapped, cap);
        grown = q != nullptr;
        if (grown) {
          c.data = static_cast<char*>(q);
          c.mapped = c.cap = cap;
        }
      }
    } else {
      std::shared_ptr<chunked> fresh;
      try {
        fresh = std::make_shared<chunked>();
        // Past the first buffer the stream is a long one: its buffer goes on huge pages (every fresh 4 KiB page
        // that read() writes costs a fault, 9-14 µs on the VMs we measure: 420 of them for citm_catalog.json
        // through a pipe), and a pipe is widened to 1 MiB, so that the writer wakes this reader 16 times less
        // often. A large regular file is long from the start.
        if (!first || regular_) {
          fresh->data = static_cast<char*>(simd::map_pages(cap));
          if (fresh->data != nullptr) fresh->mapped = cap;
          if (!pipe_widened_ && !regular_) {
            pipe_widened_ = true;
            if (::fcntl(fd_, F_GETPIPE_SZ) > 0) ::fcntl(fd_, F_SETPIPE_SZ, static_cast<int>(k_read_chunk));
          }
        }
        if (fresh->data == nullptr) {
          fresh->heap.reset(new char[cap]);
          fresh->data = fresh->heap.get();
        }
      } catch (const std::bad_alloc&) {
        // A value larger than memory (or an endless string): an error of this input, not an abort.
        io_error_ = "out of memory";
        eof_ = true;
        return false;
      }
      fresh->cap = cap;
      if (pending > 0) std::memcpy(fresh->data, buf_ + pos_, pending);
      chunk_ = fresh;
      keep_ = fresh;
    }
    base_offset_ += pos_;
    scan_ -= pos_;
    len_ = pending;
    pos_ = 0;
    counted_ = 0;
    buf_ = chunk_->data;
    if (!grown) {
      io_error_ = "out of memory";
      eof_ = true;
      return false;
    }
  }
  chunked& d = *chunk_;
  if (before_block_ != nullptr && !regular_) {
    // A signal during poll (never restarted, SA_RESTART or not) must not skip the hook: the read below would then
    // block with the hook not run (output not flushed; in fuzz_stream, whose hook feeds the pipe, forever: the
    // rare timeouts of that target, each time at libFuzzer's SIGALRM).
    pollfd pfd{fd_, POLLIN, 0};
    int ready;
    do {
      ready = poll(&pfd, 1, 0);
    } while (ready < 0 && errno == EINTR);
    if (ready == 0) before_block_(before_block_ctx_);
  }
  bool got = false;
  for (;;) {
    ssize_t r = ::read(fd_, d.data + len_, d.cap - len_);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      io_error_ = std::strerror(errno);
      eof_ = true;
      return false;
    }
    if (r == 0) {
      eof_ = true;
      if (regular_ && origin_ + base_offset_ + len_ < size_) {
        // Truncated under us: the value cut short is the file's doing, not a syntax error (next()).
        shrank_ = true;
        io_error_ = "the file shrank while it was being read";
      }
      return got;
    }
    len_ += static_cast<std::size_t>(r);
    got = true;
    if (read_counter_ != nullptr) read_counter_->fetch_add(static_cast<std::uint64_t>(r), std::memory_order_relaxed);
    if (!regular_ || len_ == d.cap) return true;  // a regular file fills the buffer (its reads may come short)
  }
}

namespace {
#if JVIEW_HAVE_SSE2
using boundary = simd::sse2_boundary;
#else
using boundary = simd::portable_boundary;
#endif
}  // namespace

bool value_reader::find_boundary() {
  const char* b = buf_;
  std::size_t i = scan_;
  while (i < len_) {
    const char c = b[i];
    if (!started_) {
      if (is_ws(c) || (c == '\x1e' && rs_)) {
        ++i;
        continue;
      }
      pos_ = i;  // whitespace between values is not kept (an endless stream of spaces runs in bounded memory)
      started_ = true;
      ++i;
      if (!starts_value(c)) {
        scan_ = i;
        return true;  // not a value: the parser reports it
      }
      if (c == '{' || c == '[') {
        depth_ = 1;
      } else if (c == '"') {
        in_string_ = true;
        depth_ = 0;
      } else {
        in_scalar_ = true;
      }
      continue;
    }
    if (in_string_) {
      if (escape_) {  // the byte after a backslash that ended the previous read
        escape_ = false;
        ++i;
        continue;
      }
      // Skip to the next quote or backslash.
      i = static_cast<std::size_t>(boundary::quote_or_backslash(b + i, b + len_) - b);
      if (i == len_) break;
      if (b[i] == '\\') {
        if (i + 1 == len_) {
          escape_ = true;
          i = len_;
          break;
        }
        i += 2;
        continue;
      }
      in_string_ = false;
      ++i;
      if (depth_ == 0) {
        scan_ = i;
        return true;
      }
      continue;
    }
    if (in_scalar_) {
      if (!continues_scalar(c)) {
        scan_ = i;
        return true;
      }
      ++i;
      continue;
    }
    if (c != '"' && c != '{' && c != '[' && c != '}' && c != ']') {
      i = static_cast<std::size_t>(boundary::quote_or_bracket(b + i, b + len_) - b);
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (c == '}' || c == ']') {
      if (--depth_ == 0) {
        scan_ = i + 1;
        return true;
      }
    }
    ++i;
  }
  scan_ = std::min(i, len_);
  if (!started_) pos_ = scan_;
  return false;
}

value_reader::status value_reader::fail_io() {
  error_ = {error_code::io_error, 0};
  error_pos_ = len_;
  return status::error;
}

bool value_reader::cut_by_buffer_end(const char* p, const parse_error& e, const char* stop) const noexcept {
  if (!e) return stop == buf_ + len_;  // a number or literal may go on
  // An unterminated string is reported at its opening quote.
  return e.code == error_code::unexpected_end || e.code == error_code::unterminated_string ||
         e.offset + k_cut_margin > len_ - static_cast<std::size_t>(p - buf_);
}

value_reader::status value_reader::next(document& doc) {
  if (error_) return status::error;
  if (!bom_checked_) {
    bom_checked_ = true;
    while (fd_ >= 0 && len_ < 3 && fill()) {
    }
    if (len_ >= 3 && std::memcmp(buf_, "\xef\xbb\xbf", 3) == 0) pos_ = scan_ = counted_ = 3;
  }
  if (fd_ >= 0 && !regular_) {
    // Stream: wait until a whole value has arrived (or the input ended).
    while (!find_boundary()) {
      if (len_ - pos_ >= probe_at_) {
        // A huge value still incomplete: parse what has arrived. An error well before the end of the bytes (not
        // one that more bytes could cure) is final: report it now rather than read on (`[` then /dev/zero).
        const std::size_t pending = len_ - pos_;
        probe_at_ = pending * 4;
        const char* stop = nullptr;
        parse_error e = parser_.parse(buf_ + pos_, buf_ + len_, doc, stop);
        if (e && e.code != error_code::unexpected_end && e.code != error_code::unterminated_string &&
            e.offset + 16 <= pending) {
          error_ = e;
          error_pos_ = pos_ + e.offset;
          return status::error;
        }
      }
      if (!fill()) {
        if (!io_error_.empty()) return fail_io();
        break;
      }
    }
  }
  // A regular file read in chunks: the value is parsed where it lies, and again with the bytes after the buffer
  // when they could change the outcome (cut_by_buffer_end).
  for (;;) {
    const char* p = buf_ + pos_;
    const char* end = buf_ + len_;
    bool at_end = parser::at_end(p, end);
    while (rs_ && !at_end && *p == '\x1e') {  // --seq: record separators between values
      ++p;
      at_end = parser::at_end(p, end);
    }
    if (regular_) pos_ = static_cast<std::size_t>(p - buf_);  // whitespace is not kept (a file of spaces)
    if (at_end && regular_ && !eof_) {
      if (!fill() && !io_error_.empty()) return fail_io();
      continue;
    }
    if (at_end && shrank_) return fail_io();
    if (at_end) {
      if (parser_.options().single_value && values_ == 0) {  // --strict: an empty input is not a JSON text
        error_ = {error_code::empty_input, 0};
        error_pos_ = pos_;
        return status::error;
      }
      pos_ = len_;
      return status::end;
    }
    if (parser_.options().single_value && values_ != 0) {  // --strict: one value per input
      error_ = {error_code::extra_value, 0};
      error_pos_ = static_cast<std::size_t>(p - buf_);
      return status::error;
    }
    const char* stop = nullptr;
    parse_error e = parser_.parse(p, end, doc, stop);
    if (regular_ && (!eof_ || shrank_) && cut_by_buffer_end(p, e, stop)) {
      if (shrank_ || (!fill() && !io_error_.empty())) return fail_io();
      continue;
    }
    if (e.code == error_code::out_of_memory) {
      // Not a fault of the input: reported as a system error of this input (`FILE: out of memory`, exit 2).
      io_error_ = error_message(e.code);
      error_ = {error_code::io_error, e.offset};
      error_pos_ = static_cast<std::size_t>(p - buf_) + e.offset;
      return status::error;
    }
    if (e) {
      error_ = e;
      error_pos_ = static_cast<std::size_t>(p - buf_) + e.offset;
      return status::error;
    }
    pos_ = static_cast<std::size_t>(stop - buf_);
    ++values_;
    if (fd_ >= 0) {
      scan_ = pos_;
      depth_ = 0;
      in_string_ = escape_ = in_scalar_ = started_ = false;
      probe_at_ = k_first_probe;
    }
    return status::value;
  }
}

source_location value_reader::location() const {
  source_location loc;
  auto* self = const_cast<value_reader*>(this);
  const std::size_t at = std::min(error_pos_, len_);
  self->count_skipped_lines();
  if (self->counted_ > at) {  // recount from the buffer start (mapped input, or within this buffer)
    self->lines_before_ = 0;
    self->col_chars_ = 0;
    self->counted_ = 0;
  }
  self->count_lines(buf_ + counted_, buf_ + at);
  self->counted_ = at;
  loc.line = lines_before_ + 1;
  loc.column = col_chars_ + 1;
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

bool value_reader::read_all(std::string& out) {
  if (fd_ >= 0) {
    while (fill()) {
    }
    if (!io_error_.empty()) return false;
  }
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
    if (fd_ < 0 || !fill()) break;
  }
  if (pos_ >= len_) return false;
  out.assign(buf_ + pos_, len_ - pos_);
  pos_ = len_;
  had_newline = false;
  return true;
}

}  // namespace jview
