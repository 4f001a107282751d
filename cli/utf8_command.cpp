// cli/utf8_command.cpp: `jview --utf8 FILE...`: strict UTF-8 validation of any files, for CI over a whole tree.
// Reports `FILE:LINE:COLUMN: error: invalid UTF-8 (byte offset N)` (or the github / json form: check_report.hpp)
// for the first bad sequence of each bad file; exit 0 all valid, 1 some invalid, 2 I/O errors. Files are read in
// 256 KiB blocks that stay in cache; lines are counted only once an error is found (a second pass over the prefix;
// pipes count as they go).
#include <errno.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <memory>

#include "cli/check_report.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "core/kernel_choice.hpp"

namespace jview::cli {
namespace {

constexpr std::size_t k_block = 256u << 10;

struct line_counter {
  std::uint64_t lines = 0;     // newlines seen
  std::uint64_t column = 0;    // characters since the last newline
  void add(const char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (p[i] == '\n') {
        ++lines;
        column = 0;
      } else if ((static_cast<unsigned char>(p[i]) & 0xc0) != 0x80) {
        ++column;
      }
    }
  }
};

ssize_t read_full(int fd, char* buf, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

// Where a block may be cut so that no sequence is split: before a lead byte whose sequence runs past the end.
std::size_t safe_cut(const char* p, std::size_t n) {
  for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
    const unsigned char c = static_cast<unsigned char>(p[n - back]);
    if ((c & 0xc0) == 0x80) continue;  // continuation: look further back
    if (c >= 0xc0) {
      const std::size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      if (need > back) return n - back;
    }
    break;
  }
  return n;
}

// Validates one open descriptor; a bad sequence or a read error goes to the report. Returns the bytes read.
std::uint64_t check_fd(int fd, const std::string& name, bool seekable, char* buf, check_report& report) {
  std::uint64_t consumed = 0;  // bytes validated before buf[0]
  std::size_t carry = 0;
  line_counter lc;
  for (;;) {
    ssize_t r = read_full(fd, buf + carry, k_block);
    if (r < 0) {
      report.unreadable(name, std::strerror(errno));
      return consumed;
    }
    const bool eof = static_cast<std::size_t>(r) < k_block;
    const std::size_t n = carry + static_cast<std::size_t>(r);
    const std::size_t cut = eof ? n : safe_cut(buf, n);
    const std::size_t bad = jview::first_invalid_utf8(buf, cut);
    if (bad < cut) {
      const std::uint64_t offset = consumed + bad;
      if (seekable) {
        // Count lines over the prefix again (errors are rare; valid files never pay for counting).
        lc = line_counter{};
        std::unique_ptr<char[]> tmp(new char[k_block]);
        std::uint64_t at = 0;
        while (at < offset) {
          const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(k_block, offset - at));
          ssize_t g = pread(fd, tmp.get(), want, static_cast<off_t>(at));
          if (g <= 0) break;
          lc.add(tmp.get(), static_cast<std::size_t>(g));
          at += static_cast<std::uint64_t>(g);
        }
      } else {
        lc.add(buf, bad);
      }
      report.problem(name, lc.lines + 1, lc.column + 1, offset, fmt::format("invalid UTF-8 (byte offset {})", offset));
      return consumed + n;
    }
    if (!seekable) lc.add(buf, cut);
    consumed += cut;
    progress_bytes(consumed);
    carry = n - cut;
    std::memmove(buf, buf + cut, carry);
    if (eof) return consumed;
  }
}

}  // namespace

int run_utf8(const options& o) {
  std::vector<std::string> files = o.files;
  if (files.empty()) files.push_back("-");
  std::unique_ptr<char[]> buf(new char[k_block + 4]);
  check_report report(o, "invalid");
  progress_meter meter(o, o.files, progress_unit::files);
  for (const std::string& f : files) {
    report.file_done();
    int fd = 0;
    std::string name = f;
    if (f == "-") {
      name = "<stdin>";
    } else {
      fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        report.unreadable(f, std::strerror(errno));
        progress_file_done(0);
        continue;
      }
    }
    struct stat st;
    const bool stat_ok = fstat(fd, &st) == 0;
    std::uint64_t bytes = 0;
    if (stat_ok && S_ISDIR(st.st_mode)) {
      report.unreadable(name, std::strerror(EISDIR));
    } else {
      posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      bytes = check_fd(fd, name, stat_ok && S_ISREG(st.st_mode), buf.get(), report);
    }
    progress_file_done(bytes);
    if (fd != 0) ::close(fd);
  }
  meter.stop();
  return report.finish();
}

}  // namespace jview::cli
