// cli/utf8_command.cpp: `jview --utf8 FILE...`: strict UTF-8 validation of any files, for CI over a whole tree.
// Reports `FILE:LINE:COLUMN: error: invalid UTF-8 (byte offset N)` (or the github / json form: check_report.hpp)
// for the first bad sequence of each bad file; exit 0 all valid, 1 some invalid, 2 I/O errors. Files are read
// through core's byte sources (compressed ones decompressed, unless --decompress=never) in 256 KiB blocks that stay
// in cache; lines are counted only once an error is found (a second pass over the prefix; pipes and decompressed
// input count as they go).
#include <fmt/core.h>
#include <sys/types.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "cli/check_report.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "core/byte_source.hpp"
#include "core/decompress_source.hpp"
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

// Up to n bytes of src into buf (a whole source's from memory at `*at`); the count, or -1 on a read error
// (reported), and `eof` once the input has ended.
ssize_t read_block(jview::byte_source& src, std::uint64_t& whole_at, char* buf, std::size_t n, bool& eof) {
  if (src.type() == jview::byte_source::kind::whole) {
    const std::string_view all = src.whole();
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, all.size() - whole_at));
    std::memcpy(buf, all.data() + whole_at, k);
    whole_at += k;
    eof = whole_at == all.size();
    return static_cast<ssize_t>(k);
  }
  std::size_t got = 0;
  while (got < n) {
    std::size_t k = 0;
    const jview::byte_source::result r = src.read(buf + got, n - got, k);
    got += k;
    if (r == jview::byte_source::result::error) return -1;
    if (r == jview::byte_source::result::end) {
      eof = true;
      break;
    }
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

// Validates one source (a file, stdin, either decompressed); a bad sequence or a read error goes to the report.
// Returns the bytes read. Lines are counted as the blocks go only when the bytes cannot be read again.
std::uint64_t check_source(jview::byte_source& src, char* buf, check_report& report) {
  const std::string& name = src.name();
  const bool again = src.can_reread() || src.type() == jview::byte_source::kind::whole;
  std::uint64_t consumed = 0;  // bytes validated before buf[0]
  std::uint64_t whole_at = 0;
  std::size_t carry = 0;
  line_counter lc;
  for (;;) {
    bool eof = false;
    ssize_t r = read_block(src, whole_at, buf + carry, k_block, eof);
    if (r < 0) {
      report.unreadable(name, src.error_text());
      return consumed;
    }
    const std::size_t n = carry + static_cast<std::size_t>(r);
    const std::size_t cut = eof ? n : safe_cut(buf, n);
    const std::size_t bad = jview::first_invalid_utf8(buf, cut);
    if (bad < cut) {
      const std::uint64_t offset = consumed + bad;
      if (again) {
        // Count lines over the prefix again (errors are rare; valid files never pay for counting).
        lc = line_counter{};
        std::unique_ptr<char[]> tmp(new char[k_block]);
        std::uint64_t at = 0;
        const std::string_view all = src.whole();
        while (at < offset) {
          const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(k_block, offset - at));
          std::size_t g = 0;
          if (src.type() == jview::byte_source::kind::whole) {
            lc.add(all.data() + at, want);
            g = want;
          } else if (!src.reread(at, tmp.get(), want, g) || g == 0) {
            break;
          } else {
            lc.add(tmp.get(), g);
          }
          at += g;
        }
      } else {
        lc.add(buf, bad);
      }
      report.problem(name, lc.lines + 1, lc.column + 1, offset, fmt::format("invalid UTF-8 (byte offset {})", offset));
      return consumed + n;
    }
    if (!again) lc.add(buf, cut);
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
    std::string why;
    std::unique_ptr<jview::byte_source> src = jview::open_source(f, why);
    if (!src) {
      report.unreadable(f, why);
      progress_file_done(0);
      continue;
    }
    if (o.parse.decompress) src = jview::decompressing(std::move(src));
    progress_file_done(check_source(*src, buf.get(), report));
  }
  meter.stop();
  return report.finish();
}

}  // namespace jview::cli
