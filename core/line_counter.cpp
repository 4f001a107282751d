// core/line_counter.cpp: see line_counter.hpp.
#include "core/line_counter.hpp"

#include <cstring>

#include "simd/byte_count.hpp"

namespace jview {

void line_counter::count(const char* from, const char* to) noexcept {
  // Newlines by vector compares (a pretty-printed file has a line every 30-40 bytes); characters only on the last
  // line, the one the column is on.
  const char* line = from;
  if (const std::size_t n = simd::count_byte(from, to, '\n', vector_); n != 0) {
    newlines_ += n;
    column_ = bytes_ = 0;
    line = static_cast<const char*>(memrchr(from, '\n', static_cast<std::size_t>(to - from))) + 1;
  }
  bytes_ += static_cast<std::uint64_t>(to - line);
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
  column_ += chars;
}

}  // namespace jview
