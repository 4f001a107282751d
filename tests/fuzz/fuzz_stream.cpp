// tests/fuzz/fuzz_stream.cpp: libFuzzer target: the value reader over a pipe fed in random piece sizes must give
// the same values and the same error (code, byte offset, line, column) as over the same bytes as one mapped file;
// and --stream's events over such a pipe (core/input_stream, core/stream_events) must be those of the values parsed
// whole and walked, with the parser's error, whatever the piece sizes (tests/fuzz/stream_check.hpp).
// Single-threaded and deterministic: the reader's before-block hook (called when the pipe is empty and a read would
// block) writes the next piece, or closes the pipe at the end, so every read(2) returns exactly one piece.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/value_reader.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/fuzz/stream_check.hpp"

using namespace jview;

namespace {

struct feeder {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t pos = 0;
  std::uint64_t rng;
  unsigned max_piece;
  int fd;

  std::size_t next_piece() {
    rng += 0x9e3779b97f4a7c15ull;  // splitmix64
    std::uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return 1 + static_cast<std::size_t>(z % max_piece);
  }
  static void on_block(void* ctx) {
    auto* f = static_cast<feeder*>(ctx);
    if (f->fd < 0) return;
    if (f->pos == f->size) {
      ::close(f->fd);
      f->fd = -1;
      return;
    }
    const std::size_t n = std::min(f->next_piece(), f->size - f->pos);
    const ssize_t w = ::write(f->fd, f->data + f->pos, n);  // the pipe is empty and holds 64 KiB: never blocks
    JVIEW_FUZZ_CHECK(w > 0);
    f->pos += static_cast<std::size_t>(w);
  }
};

std::string read_all_values(value_reader& r) {
  std::string out;
  document doc;
  for (int values = 0;; ++values) {
    value_reader::status s = r.next(doc);
    if (s == value_reader::status::end) return out + "<end>";
    if (s == value_reader::status::error) {
      const source_location loc = r.location();
      return out + "<error " + error_message(r.error().code) + " at byte " + std::to_string(loc.byte_offset) +
             " line " + std::to_string(loc.line) + " column " + std::to_string(loc.column) + ">";
    }
    out += fuzz::dump(doc, fuzz::compact_options());
    out += '\n';
    JVIEW_FUZZ_CHECK(values < 100000);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 60000) return 0;  // a piece must fit in the pipe
  // Piece sizes come from a hash of the input (so JSON files are seeds as they are): the largest piece is 1 to
  // 4096 bytes (a power of two), each piece a pseudo-random size up to it.
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  // At most ~512 pieces: one-byte pieces of a 16 KB input cost 50k system calls and would slow the search tenfold.
  const unsigned max_piece = std::max<unsigned>(1u << (h % 13), static_cast<unsigned>(size / 256 + 1));
  feeder f{data, size, 0, h, max_piece, -1};

  // The reference: the same bytes as a mapped regular file (a memfd opened by path, as the CLI opens files).
  const int mfd = memfd_create("jview-fuzz", 0);
  JVIEW_FUZZ_CHECK(mfd >= 0);
  JVIEW_FUZZ_CHECK(::write(mfd, f.data, f.size) == static_cast<ssize_t>(f.size));
  std::string mapped_result;
  {
    value_reader r{parse_options{}};
    std::string why;
    const std::string path = "/proc/self/fd/" + std::to_string(mfd);
    JVIEW_FUZZ_CHECK(r.open(path, why));
    mapped_result = read_all_values(r);
  }
  ::close(mfd);

  int fds[2];
  JVIEW_FUZZ_CHECK(::pipe(fds) == 0);
  f.fd = fds[1];
  std::string piped_result;
  {
    value_reader r{parse_options{}};
    r.open_fd(fds[0], "<pipe>");
    r.set_before_block(&feeder::on_block, &f);
    piped_result = read_all_values(r);
  }
  if (f.fd >= 0) ::close(f.fd);
  ::close(fds[0]);
  if (mapped_result != piped_result) fuzz::fail("pipe and mapped file disagree", mapped_result, piped_result);

  // --stream's events carry their whole paths: n nested arrays make about n^2 path elements, and the three walks below
  // of 5,000 of them took 14 s under the sanitizers (a timeout, not a hang: 0.2 s in the release build). Their
  // events are checked up to a nesting of 1,000 (counted over every bracket byte, strings included: an upper bound).
  int depth = 0, deepest = 0;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '[' || data[i] == '{') deepest = std::max(deepest, ++depth);
    if ((data[i] == ']' || data[i] == '}') && depth > 0) --depth;
  }
  if (deepest > 1000) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string events = stream_check::piped(bytes, parse_options{}, h, max_piece);
  const std::string want = stream_check::reference(bytes, parse_options{});
  if (stream_check::without_failed_value(events) != want)
    fuzz::fail("--stream events differ from the parsed values' walk", stream_check::without_failed_value(events), want);
  const std::string in_one_piece = stream_check::piped(bytes, parse_options{}, h, 60000);
  if (events != in_one_piece) fuzz::fail("--stream events depend on the pieces", events, in_one_piece);
  return 0;
}
