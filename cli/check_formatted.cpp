// cli/check_formatted.cpp: `jview --check-formatted FILE...`: whether each file's bytes are exactly what `jview .`
// with the same output options (-c, --indent, --tab, -S, -a, --numbers) writes for it: `prettier --check` for
// JSON, so that CI can enforce a format that `jview -i .` restores. A file that differs is one problem line at its
// first differing byte, an invalid one its parse error, an unreadable one its reason (check_report.hpp). The
// writer's chunks are compared with the file's bytes as they come out, and writing stops at the first difference
// (the file is still parsed to its end, so that an error later in it is reported instead).
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "cli/check_report.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "core/value_reader.hpp"
#include "core/output.hpp"
#include "core/writer.hpp"

namespace jview::cli {
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

// Line and column (characters) of byte `offset` of the file, counted over its bytes before it.
void position_of(int fd, std::uint64_t offset, std::uint64_t& line, std::uint64_t& column) {
  line = 1;
  column = 1;
  std::unique_ptr<char[]> buf(new char[k_block]);
  std::uint64_t at = 0;
  while (at < offset) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(k_block, offset - at));
    const ssize_t got = ::pread(fd, buf.get(), want, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    for (ssize_t i = 0; i < got; ++i) {
      const auto c = static_cast<unsigned char>(buf[static_cast<std::size_t>(i)]);
      if (c == '\n') {
        ++line;
        column = 1;
      } else if ((c & 0xc0) != 0x80) {
        ++column;
      }
    }
    at += static_cast<std::uint64_t>(got);
  }
}

// Checks one file; its problem (if any) goes to the report. Returns the file's size (for the progress line).
std::uint64_t check_one(const std::string& file, const options& o, const write_options& wo, check_report& report) {
  parse_options popts = o.parse;
  popts.decompress = false;  // the file's own bytes are compared with the output: a compressed file is not formatted
  value_reader reader(popts);
  reader.set_read_counter(progress_read_counter());
  std::string why;
  if (!reader.open(file, why)) {
    report.unreadable(file, why);
    return 0;
  }
  const int fd = file == "-" ? ::dup(0) : ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    report.unreadable(reader.name(),
                      fd < 0 ? std::strerror(errno) : "not a regular file (the comparison reads it twice)");
    if (fd >= 0) ::close(fd);
    return 0;
  }
  compare_sink cmp;
  cmp.fd = fd;
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
      progress_bytes(reader.bytes_consumed());
    }
    if (cmp.diff == k_none) out.flush();
    if (s == value_reader::status::error) {
      if (reader.error().code == error_code::io_error)
        report.unreadable(reader.name(), reader.io_error());
      else
        report.problem(reader.name(), reader.location(), error_message(reader.error().code));
      ::close(fd);
      return static_cast<std::uint64_t>(st.st_size);
    }
  }
  if (!cmp.io_error.empty()) {
    report.unreadable(reader.name(), cmp.io_error);
  } else {
    if (cmp.diff == k_none && static_cast<std::uint64_t>(st.st_size) > cmp.at) cmp.diff = cmp.at;  // bytes after
    if (cmp.diff != k_none) {
      std::uint64_t line = 1, column = 1;
      position_of(fd, cmp.diff, line, column);
      report.problem(reader.name(), line, column, cmp.diff, "not formatted as jview writes it", true);
    }
  }
  ::close(fd);
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace

int run_check_formatted(const options& o) {
  std::vector<std::string> files = o.files;
  if (files.empty()) files.push_back("-");
  write_options wo = o.write;
  wo.color = false;
  check_report report(o, "not formatted");
  progress_meter meter(o, o.files, progress_unit::files);
  for (const std::string& file : files) {
    report.file_done();
    progress_file_done(check_one(file, o, wo, report));
  }
  meter.stop();
  return report.finish();
}

}  // namespace jview::cli
