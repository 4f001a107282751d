// simd/minify.hpp: the minify kernels. They copy a valid JSON text without the whitespace that stands outside its
// strings, 64-byte block by block: the inside of strings is the prefix XOR of the unescaped quotes (escapes found
// from the backslash runs, as in stage 1). The writer uses them for `-c` of a value whose compact form is its text
// without that whitespace (document::verbatim(), core/writer.cpp); dispatch.cpp picks one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace jview::simd {

// What one block leaves to the next.
struct minify_state {
  std::uint64_t in_string = 0;  // all ones: the block ended inside a string
  std::uint64_t escaped = 0;    // 1: the next block's first byte is escaped by a backslash
};

// Copies the `blocks` 64-byte blocks from p to out, leaving out the whitespace bytes (space, tab, CR, LF) outside
// strings; returns the end of what it wrote. The blocks are (part of) valid JSON text, so the only bytes below 0x21
// outside strings are whitespace. out needs room for blocks * 64 bytes plus 64 (whole-vector stores).
using minify_fn = char* (*)(const unsigned char* p, std::size_t blocks, char* out, minify_state& st) noexcept;

// Minifies `len` bytes from p with fn: the whole blocks in place, the last partial one from a copy padded with spaces
// (which are dropped: the text ends outside a string). out needs room for len + 64 bytes. Returns the end.
inline char* minify_bytes(minify_fn fn, const unsigned char* p, std::size_t len, char* out, minify_state& st) noexcept {
  out = fn(p, len / 64, out, st);
  if (const std::size_t rest = len % 64) {
    alignas(64) unsigned char tail[64];
    std::memset(tail, ' ', sizeof tail);
    std::memcpy(tail, p + len - rest, rest);
    out = fn(tail, 1, out, st);
  }
  return out;
}

struct minify_kernel {
  const char* name;  // "avx512", "ssse3", "portable"
  minify_fn run;
};
// The one in use is *simd::active_kernels().minify (simd/kernels.hpp).
// Every minify kernel this CPU can run (for tests and benchmarks), best first; the last is the portable one.
std::size_t minify_kernels(const minify_kernel** out, std::size_t max) noexcept;

namespace detail {
char* minify_portable(const unsigned char*, std::size_t, char*, minify_state&) noexcept;
char* minify_ssse3(const unsigned char*, std::size_t, char*, minify_state&) noexcept;
char* minify_avx512(const unsigned char*, std::size_t, char*, minify_state&) noexcept;
}  // namespace detail

}  // namespace jview::simd
