// core/utf8_check.cpp: `--utf8`'s check of one file: strict UTF-8 validation of any bytes, for CI over a whole tree.
// The first bad sequence of a file is its problem: `invalid UTF-8 (byte offset N)` at its line and column. Files are
// read through core's byte sources (compressed ones decompressed, unless parse.decompress is off) in 256 KiB blocks
// that stay in cache; lines are counted only once an error is found (a second pass over the prefix; pipes and
// decompressed input count as they go).
#include <sys/types.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/byte_source.hpp"
#include "core/decompress_source.hpp"
#include "core/file_check.hpp"
#include "core/kernel_choice.hpp"
#include "core/line_counter.hpp"
#include "core/text_format.hpp"

namespace jview {
namespace {

constexpr std::size_t k_block = 256u << 10;

// Up to n bytes of src into buf (a whole source's from memory at `whole_at`); the count, or -1 on a read error, and
// `eof` once the input has ended.
ssize_t read_block(byte_source& src, std::uint64_t& whole_at, char* buf, std::size_t n, bool& eof) {
  if (src.type() == byte_source::kind::whole) {
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
    const byte_source::result r = src.read(buf + got, n - got, k);
    got += k;
    if (r == byte_source::result::error) return -1;
    if (r == byte_source::result::end) {
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

// Counts the lines of src's first `offset` bytes again (errors are rare; valid files never pay for counting).
line_counter count_again(byte_source& src, std::uint64_t offset) {
  line_counter lc;
  std::unique_ptr<char[]> tmp(new char[k_block]);
  std::uint64_t at = 0;
  const std::string_view all = src.whole();
  while (at < offset) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(k_block, offset - at));
    std::size_t g = 0;
    if (src.type() == byte_source::kind::whole) {
      lc.count(all.data() + at, all.data() + at + want);
      g = want;
    } else if (!src.reread(at, tmp.get(), want, g) || g == 0) {
      break;
    } else {
      lc.count(tmp.get(), tmp.get() + g);
    }
    at += g;
  }
  return lc;
}

// Validates one source (a file, stdin, either decompressed); a bad sequence or a read error is its problem.
// Returns the bytes read. Lines are counted as the blocks go only when the bytes cannot be read again.
std::uint64_t check_source(byte_source& src, char* buf, const check_options& o, check_findings& found) {
  const std::string& name = src.name();
  const bool again = src.can_reread() || src.type() == byte_source::kind::whole;
  std::uint64_t consumed = 0;  // bytes validated before buf[0]
  std::uint64_t whole_at = 0;
  std::size_t carry = 0;
  line_counter lc;
  for (;;) {
    bool eof = false;
    const ssize_t r = read_block(src, whole_at, buf + carry, k_block, eof);
    if (r < 0) {
      found.unreadable(name, src.error_text());
      return consumed;
    }
    const std::size_t n = carry + static_cast<std::size_t>(r);
    const std::size_t cut = eof ? n : safe_cut(buf, n);
    const std::size_t bad = first_invalid_utf8(buf, cut);
    if (bad < cut) {
      const std::uint64_t offset = consumed + bad;
      if (again)
        lc = count_again(src, offset);
      else
        lc.count(buf, buf + bad);
      found.problem(name, lc.line(), lc.column(), offset, format_text("invalid UTF-8 (byte offset {})", offset));
      return consumed + n;
    }
    if (!again) lc.count(buf, buf + cut);
    consumed += cut;
    if (o.progress.consumed != nullptr) o.progress.consumed(consumed);
    carry = n - cut;
    std::memmove(buf, buf + cut, carry);
    if (eof) return consumed;
  }
}

}  // namespace

std::uint64_t check_utf8_file(const std::string& file, const check_options& o, check_findings& found) {
  std::string why;
  std::unique_ptr<byte_source> src = open_source(file, why);
  if (!src) {
    found.unreadable(file, why);
    return 0;
  }
  if (o.parse.decompress) src = decompressing(std::move(src));
  const std::unique_ptr<char[]> buf(new char[k_block + 4]);
  return check_source(*src, buf.get(), o, found);
}

}  // namespace jview
