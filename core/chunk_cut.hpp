// core/chunk_cut.hpp: where a parallel run (core/parallel_run.hpp) cuts its input into pieces: just after a newline
// that is followed by a byte that can begin a value at the top level. NDJSON's lines all begin so; the inner lines of
// jq's pretty output begin with spaces, and its closing brackets with `}` or `]`, so a stream of pretty values is cut
// only between them. Still a guess: the run checks every cut (a piece must begin where the one before it ended).
#pragma once
#include <cstddef>
#include <cstring>

namespace jview {

// Whether a cut may come before byte c (the first byte of a line).
inline bool may_start_piece(char c) noexcept {
  return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

// The first cut at or after `from` in b[0, len): the offset just after a newline whose next byte may start a piece
// (a newline at the very end counts when `end_counts`: what comes next is not known yet); 0 when there is none.
inline std::size_t cut_forward(const char* b, std::size_t len, std::size_t from, bool end_counts) noexcept {
  std::size_t i = from == 0 ? 0 : from - 1;
  while (i < len) {
    const void* nl = std::memchr(b + i, '\n', len - i);
    if (nl == nullptr) return 0;
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nl) - b) + 1;
    if (at == len) return end_counts ? at : 0;
    if (at >= from && may_start_piece(b[at])) return at;
    i = at;
  }
  return 0;
}

// The last cut in b[0, len) after byte `after` (0 when there is none), a newline at the end counting as in
// cut_forward.
inline std::size_t cut_backward(const char* b, std::size_t len, std::size_t after, bool end_counts) noexcept {
  std::size_t hi = len;
  while (hi > after) {
    const void* nl = memrchr(b + after, '\n', hi - after);
    if (nl == nullptr) return 0;
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nl) - b) + 1;
    if (at == len ? end_counts : may_start_piece(b[at])) return at;
    hi = at - 1;
  }
  return 0;
}

}  // namespace jview
