// core/byte_source.hpp: where an input's bytes come from. One small interface, one implementation per way of getting
// them (core/byte_sources.cpp): a small file read into the heap, a mid-sized file read whole into huge pages, a large file read
// in pieces, a pipe or terminal read as its bytes arrive, a string in memory. open_source() picks one from fstat.
// The value reader (core/value_reader.hpp) frames values over any of them; it owns the buffers a source reads into.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace jview {

// Bytes that views point into. Kept alive by every document made from them (value_reader::source_keepalive).
struct source_bytes {
  virtual ~source_bytes() = default;
};

class byte_source {
 public:
  virtual ~byte_source() = default;
  byte_source(const byte_source&) = delete;
  byte_source& operator=(const byte_source&) = delete;

  // How the reader treats the source: `whole` has every byte in memory already (whole(); read() is never called);
  // `file` never makes the reader wait and fills a buffer in one go; `stream` delivers bytes as a producer writes
  // them, so the reader processes each value as soon as it is complete and flushes before it would wait.
  enum class kind { whole, file, stream };
  virtual kind type() const noexcept = 0;

  // A `whole` source's bytes and what keeps them alive.
  virtual std::string_view whole() const noexcept { return {}; }
  virtual std::shared_ptr<source_bytes> whole_keepalive() const { return nullptr; }

  // Reads up to `cap` (> 0) bytes into dst, waiting for at least one unless the input has ended; `got` is the
  // number read. `end`: no more bytes (got 0). `error`: error_text() says why (the bytes before it were delivered).
  enum class result { ok, end, error };
  virtual result read(char* dst, std::size_t cap, std::size_t& got) = 0;
  // A stream: true when read() would have to wait for its producer now.
  virtual bool would_block() const { return false; }
  // Bytes still to come when known (a regular file), else 0: a large value gets a buffer for the rest at once.
  virtual std::uint64_t remaining_hint() const noexcept { return 0; }

  // Whether bytes already delivered can be read again (a regular file): the reader then drops bytes without
  // counting their lines, and counts them only when asked (an error's line, input_line_number). Otherwise it
  // counts before it drops.
  virtual bool can_reread() const noexcept { return false; }
  // Up to `cap` bytes from input offset `offset` again (0: the input's first byte); false when there are none.
  virtual bool reread(std::uint64_t offset, char* dst, std::size_t cap, std::size_t& got) {
    (void)offset, (void)dst, (void)cap;
    got = 0;
    return false;
  }

  const std::string& name() const noexcept { return name_; }
  const std::string& error_text() const noexcept { return error_; }

 protected:
  explicit byte_source(std::string name) : name_(std::move(name)) {}
  std::string name_;
  std::string error_;  // set by read() on `error`
};

// Opens `path` ("-": standard input) and picks its source: a regular file under 64 KiB read into the heap, one of 64 KiB to
// 32 MiB read whole, a larger one read in pieces; anything else (pipe, terminal, character device, an empty or
// /proc-like regular file) as a stream. nullptr when it cannot be opened: `error` is the system's reason ("No such
// file or directory"; a directory gives "Is a directory").
std::unique_ptr<byte_source> open_source(const std::string& path, std::string& error);
// The same for a descriptor already open (not closed by the source): a regular file is read from its current offset
// (a shell may have read part of it already), as a named one would be.
std::unique_ptr<byte_source> open_fd_source(int fd, std::string name);
// Bytes in memory (kept alive by `keep`, may be null when the caller keeps them alive) as a whole source.
std::unique_ptr<byte_source> memory_source(std::string_view bytes, std::string name,
                                           std::shared_ptr<source_bytes> keep = nullptr);

}  // namespace jview
