// core/byte_sources.cpp: the byte sources of core/byte_source.hpp and open_source(), which picks one from fstat.
// Sizes: a regular file under 64 KiB is read into an ordinary heap buffer (mapping it instead cost 3-4x as much per
// file, 40-120 us against 13-31 us for 0.5-64 KB with the page cache hot, and a mapped file truncated by another
// process faults the reader with SIGBUS); 64 KiB to 32 MiB are read whole into huge pages (on the VMs we measure, a first pass over a mapped file's page-cache pages ran at about
// 2 GB/s, read() into a huge page plus the pass at about 4, and the parser's buffers share those huge pages); a
// larger file is read in pieces into one buffer the reader uses again and again (bounded memory for NDJSON).
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <utility>

#include "core/byte_source.hpp"
#include "simd/pages.hpp"

namespace jview {
namespace {

constexpr std::size_t k_read_whole_from = 64u << 10;  // files of this size ...
constexpr std::size_t k_read_whole = 32u << 20;       // ... up to this one are read whole, not mapped or in pieces
// A pipe's capacity once its reader asks for reads this large (a long stream): the writer then wakes the reader 16
// times less often than with the default 64 KiB.
constexpr int k_pipe_capacity = 1 << 20;

ssize_t read_retrying(int fd, char* dst, std::size_t cap) {
  ssize_t n;
  do {
    n = ::read(fd, dst, cap);
  } while (n < 0 && errno == EINTR);
  return n;
}

// Reads up to `size` bytes; fewer if the file shrank meanwhile or a read failed (what was read is then the input, as
// a stream would see it).
std::size_t read_up_to(int fd, char* dst, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = read_retrying(fd, dst + got, size - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

// Bytes in memory (whole sources): a mapping, huge pages, or a caller's string.
class whole_source final : public byte_source {
 public:
  whole_source(std::string name, std::string_view bytes, std::shared_ptr<source_bytes> keep)
      : byte_source(std::move(name)), bytes_(bytes), keep_(std::move(keep)) {}
  kind type() const noexcept override { return kind::whole; }
  std::string_view whole() const noexcept override { return bytes_; }
  std::shared_ptr<source_bytes> whole_keepalive() const override { return keep_; }
  result read(char*, std::size_t, std::size_t& got) override {
    got = 0;
    return result::end;
  }

 private:
  std::string_view bytes_;
  std::shared_ptr<source_bytes> keep_;
};

struct heap_bytes final : source_bytes {
  std::unique_ptr<char[]> data;
};

struct huge_pages final : source_bytes {
  void* addr = nullptr;
  std::size_t size = 0;  // as given to map_huge_pages
  ~huge_pages() override { simd::unmap_pages(addr, size); }
};

// `size` bytes of fd read into an ordinary heap buffer (a small file: from the descriptor's offset, any offset).
std::unique_ptr<byte_source> read_file_small(int fd, std::size_t size, std::string name) {
  auto h = std::make_shared<heap_bytes>();
  h->data = std::make_unique_for_overwrite<char[]>(size);
  const std::size_t got = read_up_to(fd, h->data.get(), size);
  return std::make_unique<whole_source>(std::move(name), std::string_view(h->data.get(), got), h);
}

// `size` bytes of fd read into huge pages (if the file shrank meanwhile, what was there). nullptr when there is no
// memory for them.
std::unique_ptr<byte_source> read_file_whole(int fd, std::size_t size, std::string name) {
  void* addr = simd::map_huge_pages(size);
  if (addr == nullptr) return nullptr;
  auto h = std::make_shared<huge_pages>();
  h->addr = addr;
  h->size = size;
  const std::size_t got = read_up_to(fd, static_cast<char*>(addr), size);
  return std::make_unique<whole_source>(std::move(name), std::string_view(static_cast<const char*>(addr), got), h);
}

// A large regular file, read in pieces from the offset it was opened at; its bytes can be read again.
class file_source final : public byte_source {
 public:
  file_source(std::string name, int fd, bool own, std::uint64_t origin, std::uint64_t size)
      : byte_source(std::move(name)), fd_(fd), own_(own), origin_(origin), size_(size) {}
  ~file_source() override {
    if (own_) ::close(fd_);
  }
  kind type() const noexcept override { return kind::file; }
  result read(char* dst, std::size_t cap, std::size_t& got) override {
    got = 0;
    const ssize_t n = read_retrying(fd_, dst, cap);
    if (n < 0) {
      error_ = std::strerror(errno);
      return result::error;
    }
    if (n == 0) {
      if (origin_ + read_ < size_) {  // truncated under us: the value cut short is the file's doing
        error_ = "the file shrank while it was being read";
        return result::error;
      }
      return result::end;
    }
    got = static_cast<std::size_t>(n);
    read_ += got;
    return result::ok;
  }
  std::uint64_t remaining_hint() const noexcept override {
    struct stat st;
    const std::uint64_t at = origin_ + read_;
    return fstat(fd_, &st) == 0 && static_cast<std::uint64_t>(st.st_size) > at
               ? static_cast<std::uint64_t>(st.st_size) - at
               : 0;
  }
  bool can_reread() const noexcept override { return true; }
  bool reread(std::uint64_t offset, char* dst, std::size_t cap, std::size_t& got) override {
    ssize_t n;
    do {
      n = ::pread(fd_, dst, cap, static_cast<off_t>(origin_ + offset));
    } while (n < 0 && errno == EINTR);
    got = n > 0 ? static_cast<std::size_t>(n) : 0;
    return n > 0;
  }

 private:
  int fd_;
  bool own_;
  std::uint64_t origin_;    // the file offset the input starts at
  std::uint64_t size_;      // the file's size when opened
  std::uint64_t read_ = 0;  // bytes delivered
};

// A pipe, terminal, socket or device: bytes as they arrive.
class stream_source final : public byte_source {
 public:
  stream_source(std::string name, int fd, bool own) : byte_source(std::move(name)), fd_(fd), own_(own) {}
  ~stream_source() override {
    if (own_) ::close(fd_);
  }
  kind type() const noexcept override { return kind::stream; }
  result read(char* dst, std::size_t cap, std::size_t& got) override {
    got = 0;
    if (!widened_ && cap >= static_cast<std::size_t>(k_pipe_capacity)) {
      widened_ = true;  // (a no-op, failing, on anything but a pipe)
      if (::fcntl(fd_, F_GETPIPE_SZ) > 0) ::fcntl(fd_, F_SETPIPE_SZ, k_pipe_capacity);
    }
    const ssize_t n = read_retrying(fd_, dst, cap);
    if (n < 0) {
      error_ = std::strerror(errno);
      return result::error;
    }
    if (n == 0) return result::end;
    got = static_cast<std::size_t>(n);
    return result::ok;
  }
  bool would_block() const override {
    // A signal during poll is not restarted (SA_RESTART or not): asked again, so that the caller's flush before a
    // wait is never skipped.
    pollfd pfd{fd_, POLLIN, 0};
    int ready;
    do {
      ready = poll(&pfd, 1, 0);
    } while (ready < 0 && errno == EINTR);
    return ready == 0;
  }

 private:
  int fd_;
  bool own_;
  bool widened_ = false;
};

// The source of an open regular file of `size` bytes, read from offset `at` (size > at; `jview . < file` after a
// shell's `read` starts past 0).
std::unique_ptr<byte_source> regular_source(int fd, bool own, std::uint64_t size, off_t at, std::string& name) {
  const std::uint64_t left = size - static_cast<std::uint64_t>(at);
  if (left > k_read_whole) return std::make_unique<file_source>(std::move(name), fd, own, at, size);
  std::unique_ptr<byte_source> s;
  if (left >= k_read_whole_from) s = read_file_whole(fd, static_cast<std::size_t>(left), name);
  if (!s) s = read_file_small(fd, static_cast<std::size_t>(left), name);
  if (s && own) ::close(fd);
  return s;
}

}  // namespace

std::unique_ptr<byte_source> open_source(const std::string& path, std::string& error) {
  if (path == "-") return open_fd_source(0, "<stdin>");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = std::strerror(S_ISDIR(st.st_mode) ? EISDIR : errno);
    ::close(fd);
    return nullptr;
  }
  std::string name = path;
  if (S_ISREG(st.st_mode) && st.st_size > 0)
    if (auto s = regular_source(fd, true, static_cast<std::uint64_t>(st.st_size), 0, name)) return s;
  // Regular but empty (or a /proc-like file that reports size 0), or not regular: read as a stream.
  return std::make_unique<stream_source>(std::move(name), fd, true);
}

std::unique_ptr<byte_source> open_fd_source(int fd, std::string name) {
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t at = lseek(fd, 0, SEEK_CUR);
    if (at >= 0 && st.st_size > at)
      if (auto s = regular_source(fd, false, static_cast<std::uint64_t>(st.st_size), at, name)) return s;
  }
  return std::make_unique<stream_source>(std::move(name), fd, false);
}

std::unique_ptr<byte_source> memory_source(std::string_view bytes, std::string name,
                                           std::shared_ptr<source_bytes> keep) {
  return std::make_unique<whole_source>(std::move(name), bytes, std::move(keep));
}

}  // namespace jview
