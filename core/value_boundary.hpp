// core/value_boundary.hpp: where a value ends, found without parsing it, for a stream whose producer is slow: a
// value cut by the end of the bytes that have arrived is parsed again only once its end is there (otherwise a large
// value trickling in would be parsed again at every pause). Resumable: it picks up where the last call stopped.
// Only the brackets and strings are followed; the parser judges the value afterwards.
#pragma once
#include <cstddef>

#include "simd/boundary_scan.hpp"

namespace jview {

class value_boundary {
 public:
  // Starts at a value's first byte (not whitespace).
  void reset() noexcept { *this = value_boundary{}; }
  // Scans buf[i, len) on from the state of the last call; true when the value ends (or what starts is no value),
  // with i then past its last byte; false when more bytes are needed (i == len). vector: the kernel choice's
  // `boundary` family.
  bool scan(const char* buf, std::size_t& i, std::size_t len, bool rs, bool vector) noexcept {
#if JVIEW_HAVE_SSE2
    if (vector) return run<simd::sse2_boundary>(buf, i, len, rs);
#endif
    (void)vector;
    return run<simd::portable_boundary>(buf, i, len, rs);
  }

 private:
  static bool is_ws(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  // A top-level number or literal runs over these bytes (the parser's continues_token): any other byte ends it, so
  // a scalar followed by junk (NUL bytes: `1` then /dev/zero) is complete at once and the parser judges the rest.
  static bool continues_scalar(char c) noexcept {
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '.' || c == '+' || c == '-';
  }
  // Only these bytes can start a value. Any other is "complete" at once: the parser reports it where it is
  // instead of the reader waiting for the "scalar" to end (a stream of NUL bytes would never end).
  static bool starts_value(char c) noexcept {
    return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
  }

  template <class B>
  bool run(const char* b, std::size_t& i, std::size_t len, bool rs) noexcept {
    while (i < len) {
      const char c = b[i];
      if (!started_) {
        if (is_ws(c) || (c == '\x1e' && rs)) {
          ++i;
          continue;
        }
        started_ = true;
        ++i;
        if (!starts_value(c)) return true;
        if (c == '{' || c == '[') {
          depth_ = 1;
        } else if (c == '"') {
          in_string_ = true;
        } else {
          in_scalar_ = true;
        }
        continue;
      }
      if (in_string_) {
        if (escape_) {  // the byte after a backslash that ended the previous call's bytes
          escape_ = false;
          ++i;
          continue;
        }
        i = static_cast<std::size_t>(B::quote_or_backslash(b + i, b + len) - b);
        if (i == len) break;
        if (b[i] == '\\') {
          if (i + 1 == len) {
            escape_ = true;
            i = len;
            break;
          }
          i += 2;
          continue;
        }
        in_string_ = false;
        ++i;
        if (depth_ == 0) return true;
        continue;
      }
      if (in_scalar_) {
        if (!continues_scalar(c)) return true;
        ++i;
        continue;
      }
      if (c != '"' && c != '{' && c != '[' && c != '}' && c != ']') {
        i = static_cast<std::size_t>(B::quote_or_bracket(b + i, b + len) - b);
        continue;
      }
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        ++depth_;
      } else if (--depth_ == 0) {
        ++i;
        return true;
      }
      ++i;
    }
    return false;
  }

  long depth_ = 0;
  bool started_ = false, in_string_ = false, escape_ = false, in_scalar_ = false;
};

}  // namespace jview
