// simd/utf8_detail.hpp: internals shared by the UTF-8 kernels (not for use outside simd/ and its tests).
// The scalar step that checks one multi-byte sequence (used by the portable and SSE2 kernels), the cold path that
// turns "a vector block failed" into the exact offset, and the per-ISA kernel entry points the dispatch table names.
#pragma once
#include <cstddef>

namespace jview::simd::detail {

// Length (2..4) of the well-formed UTF-8 sequence whose lead byte p[0] >= 0x80 is followed by avail-1 readable
// bytes, or 0 if it is ill-formed: a stray continuation, C0/C1/F5..FF, an overlong form, a surrogate
// (U+D800..DFFF), a code point above U+10FFFF, or a sequence cut short by a non-continuation byte or by the end.
// (A branch-free, table-driven form measured 2-10x slower: its loop-carried chain of dependent loads costs more
// than the mispredictions it saves, even on mixed-script text.)
[[gnu::always_inline]] inline std::size_t utf8_sequence_length(const unsigned char* p, std::size_t avail) noexcept {
  const unsigned c = p[0];
  std::size_t need;
  // Bounds of the second byte: they carry every overlong/surrogate/range rule (Unicode 15, table 3-7).
  unsigned lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    need = 1;
  } else if (c >= 0xe0 && c <= 0xef) {
    need = 2;
    if (c == 0xe0) lo = 0xa0;       // E0 80..9F would be overlong
    else if (c == 0xed) hi = 0x9f;  // ED A0..BF would be a surrogate
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3;
    if (c == 0xf0) lo = 0x90;       // F0 80..8F would be overlong
    else if (c == 0xf4) hi = 0x8f;  // F4 90.. would be above U+10FFFF
  } else {
    return 0;  // 80..BF stray continuation, C0/C1 always overlong, F5..FF never valid
  }
  if (avail <= need) return 0;  // truncated by the end of input
  if (p[1] < lo || p[1] > hi) return 0;
  for (std::size_t k = 2; k <= need; ++k)
    if ((p[k] & 0xc0) != 0x80) return 0;
  return need + 1;
}

// Cold path of the vector kernels: a check failed in the block starting at `block` (0 <= block <= len) after every
// earlier block passed, so [0, block) is valid UTF-8 except possibly for a sequence cut off at `block`. Restarts the
// portable validator at the start of that sequence and returns its answer, so every kernel reports exactly the
// portable offset.
std::size_t utf8_locate_error(const unsigned char* p, std::size_t len, std::size_t block) noexcept;

// Vector kernels (each in its own file, compiled with a target attribute; present only where the ISA exists).
std::size_t validate_utf8_sse2(const char* p, std::size_t len) noexcept;
std::size_t validate_utf8_ssse3(const char* p, std::size_t len) noexcept;
std::size_t validate_utf8_avx2(const char* p, std::size_t len) noexcept;
std::size_t validate_utf8_avx512(const char* p, std::size_t len) noexcept;
std::size_t validate_utf8_neon(const char* p, std::size_t len) noexcept;

}  // namespace jview::simd::detail
