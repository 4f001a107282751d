// simd/minify_portable.cpp: the portable minify kernel (every platform; the reference of the vector ones). One
// byte at a time without a branch: every byte is stored, and the output advances past it unless it is whitespace
// outside a string.
#include "simd/minify.hpp"

namespace jview::simd {

char* detail::minify_portable(const unsigned char* p, std::size_t blocks, char* out, std::uint64_t& in_string) noexcept {
  unsigned in = static_cast<unsigned>(in_string & 1);
  const unsigned char* const end = p + blocks * 64;
  for (; p < end; ++p) {
    const unsigned char c = *p;
    in ^= c == '"';
    *out = static_cast<char>(c);
    out += (c > ' ') | in;  // valid JSON has no other byte below 0x21 outside strings than whitespace
  }
  in_string = 0 - static_cast<std::uint64_t>(in);
  return out;
}

}  // namespace jview::simd
