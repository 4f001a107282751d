// tests/fuzz/fuzz_chunks.cpp: libFuzzer target: the cuts of a parallel run (core/chunk_cut.hpp) against a byte-by-byte
// model. A cut lies just after a newline whose next byte may begin a value (or at the end, when asked); cut_forward
// gives the first at or after `from`, cut_backward the last after `after`; each reads only the bytes it is given
// (the input is copied to an exact-size buffer, so AddressSanitizer sees a read past it).
#include <cstdint>
#include <cstring>
#include <memory>

#include "core/chunk_cut.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace {

bool is_cut(const char* b, std::size_t len, std::size_t at, bool end_counts) {
  if (at == 0 || at > len || b[at - 1] != '\n') return false;
  return at == len ? end_counts : jview::may_start_piece(b[at]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first two bytes choose `from` / `after` and end_counts; the rest is the text.
  const std::size_t len = size - 2;
  std::unique_ptr<char[]> b(new char[len == 0 ? 1 : len]);
  std::memcpy(b.get(), data + 2, len);
  const std::size_t pick = len == 0 ? 0 : data[0] % (len + 1);
  const bool end_counts = (data[1] & 1) != 0;
  std::size_t forward = 0;
  for (std::size_t at = pick == 0 ? 1 : pick; at <= len; ++at)
    if (is_cut(b.get(), len, at, end_counts)) {
      forward = at;
      break;
    }
  if (jview::cut_forward(b.get(), len, pick, end_counts) != forward) jview::fuzz::fail("cut_forward");
  std::size_t backward = 0;
  for (std::size_t at = len; at > pick; --at)
    if (is_cut(b.get(), len, at, end_counts)) {
      backward = at;
      break;
    }
  if (jview::cut_backward(b.get(), len, pick, end_counts) != backward) jview::fuzz::fail("cut_backward");
  return 0;
}
