// core/format_check.cpp: `--check-formatted`'s check of one file: whether its bytes are exactly what `jview .` with
// the same output options (-c, --indent, --tab, -S, -a, --numbers) writes for it: `prettier --check` for JSON, so
// that CI can enforce a format that `jview -i .` restores. A file that differs is one problem at its first differing
// byte, an invalid one its parse error, an unreadable one its reason. The writer's chunks are compared with the
// file's bytes as they come out, and writing stops at the first difference (the file is still parsed to its end,
// so that an error later in it is reported instead).
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/file_check.hpp"
#include "core/line_counter.hpp"
#include "core/output.hpp"
#include "core/value_reader.hpp"
#include "core/writer.hpp"

namespace jview {
namespace {

constexpr std::size_t k_block = 64u << 10;
constexpr std::uint64_t k_none = ~std::uint64_t{0};

// An output_buffer's flush function that compares what would be written with the file's bytes at the same place.
struct compare_sink {
  int fd = -1;                  // the file, read again with pread
  std::uint64_t at = 0;         // bytes of output compared so far
  std::uint64_t diff = k_none;  // the first offset where output and file differ
  std::string io_error;
  std::unique_ptr<char[]> buf{new char[k_block]};

  static bool write(void* ctx, const char* data, std::size_t len) {
    auto* s = static_cast<compare_sink*>(ctx);
    while (len > 0) {
      const std::size_t want = std::min(len, k_block);
      const ssize_t got = ::pread(s->fd, s->buf.get(), want, static_cast<off_t>(s->at));
      if (got < 0) {
        if (errno == EINTR) continue;
        s->io_error = std::strerror(errno);
        return false;
      }
      const auto n = static_cast<std::size_t>(got);
      const auto* a = reinterpret_cast<const unsigned char*>(data);
      const auto* b = reinterpret_cast<const unsigned char*>(s->buf.get());
      const std::size_t same = static_cast<std::size_t>(std::mismatch(a, a + n, b).first - a);
      if (same < want) {  // a differing byte, or the file ends before the output
        s->diff = s->at + same;
        return false;     // (the buffer drops the rest of the output)
      }
      s->at += want;
      data += want;
      len -= want;
    }
    return true;
  }
};

// Lines and columns (characters) of the file's bytes before `offset`.
line_counter position_of(int fd, std::uint64_t offset) {
  line_counter lc;
  std::unique_ptr<char[]> buf(new char[k_block]);
  std::uint64_t at = 0;
  while (at < offset) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(k_block, offset - at));
    const ssize_t got = ::pread(fd, buf.get(), want, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    lc.count(buf.get(), buf.get() + got);
    at += static_cast<std::uint64_t>(got);
  }
  return lc;
}

// The file's descriptor, opened again (its bytes are compared by pread); -1 with `why` when it cannot be, or is not
// a regular file.
int open_regular(const std::string& file, struct stat& st, std::string& why) {
  const int fd = file == "-" ? ::dup(0) : ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file (the comparison reads it twice)";
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::uint64_t check_formatted_file(const std::string& file, const check_options& o, check_findings& found) {
  parse_options popts = o.parse;
  popts.decompress = false;  // the file's own bytes are compared with the output: a compressed file is not formatted
  value_reader reader(popts);
  reader.set_read_counter(o.progress.read_counter);
  std::string why;
  if (!reader.open(file, why)) {
    found.unreadable(file, why);
    return 0;
  }
  struct stat st {};
  const int fd = open_regular(file, st, why);
  if (fd < 0) {
    found.unreadable(reader.name(), why);
    return 0;
  }
  write_options wo = o.write;
  wo.color = false;
  compare_sink cmp;
  cmp.fd = fd;
  bool invalid = false;
  {
    output_buffer out(&compare_sink::write, &cmp);
    writer w(out, wo);
    document doc;
    value_reader::status s;
    while ((s = reader.next(doc)) == value_reader::status::value) {
      if (cmp.diff == k_none) {  // as `jview .` writes it: each value, then a newline
        w.value(doc, 0);
        out.put('\n');
        out.maybe_flush();
      }
      if (o.progress.consumed != nullptr) o.progress.consumed(reader.bytes_consumed());
    }
    if (cmp.diff == k_none) out.flush();
    if (s == value_reader::status::error) {
      invalid = true;
      if (reader.error().code == error_code::io_error)
        found.unreadable(reader.name(), reader.io_error());
      else
        found.problem(reader.name(), reader.location(), error_message(reader.error().code));
    }
  }
  if (!invalid && !cmp.io_error.empty()) {
    found.unreadable(reader.name(), cmp.io_error);
  } else if (!invalid) {
    if (cmp.diff == k_none && static_cast<std::uint64_t>(st.st_size) > cmp.at) cmp.diff = cmp.at;  // bytes after
    if (cmp.diff != k_none) {
      const line_counter lc = position_of(fd, cmp.diff);
      found.problem(reader.name(), lc.line(), lc.column(), cmp.diff, "not formatted as jview writes it", true);
    }
  }
  ::close(fd);
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace jview
