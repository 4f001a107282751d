// core/json_lexer.hpp: the lexical rules of strict JSON, shared by the parser (core/parser.cpp) and the --stream
// event producer (core/stream_events.cpp), so that both accept and reject the same tokens with the same error
// code at the same byte: string bodies (escapes, control characters, UTF-8), numbers (RFC 8259's grammar),
// literals, and which bytes may follow a top-level number or literal. Each rule works on a contiguous run of
// bytes [p, end); what the bytes after `end` could change is the caller's concern.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/document.hpp"
#include "core/error.hpp"
#include "core/utf8.hpp"
#include "simd/kernels.hpp"
#include "simd/string_run.hpp"
#include "simd/string_scan.hpp"
#include "simd/whitespace.hpp"

namespace jview::lexer {

// The kernels one instantiation of a scanner uses: string scanning, whitespace skipping, non-ASCII runs.
struct portable_kernels {
  using scan = simd::portable_scanner;
  using ws = simd::portable_ws;
  using run = simd::portable_run;
};
#if JVIEW_HAVE_SSE2
struct vector_kernels {
  using scan = simd::sse2_scanner;
  using ws = simd::sse2_ws;
  using run = simd::sse2_run;
};
#elif JVIEW_HAVE_NEON
struct vector_kernels {
  using scan = simd::neon_scanner;
  using ws = simd::neon_ws;
  using run = simd::neon_run;
};
#endif

[[gnu::always_inline]] inline bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }

// Bytes that may not directly follow a top-level number or literal (they would continue the token).
[[gnu::always_inline]] inline bool continues_token(char c) noexcept {
  return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '.' || c == '+' || c == '-';
}

// True when jq writes the (valid) escape at p exactly as it is: \" \\ \b \f \n \r \t, and \u00xx in lowercase for
// the control characters without a short form and for DEL (jq's "\\u%04x").
[[gnu::always_inline]] inline bool canonical_escape(const char* p) noexcept {
  switch (p[1]) {
    case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
      return true;
    case 'u': {
      if (p[2] != '0' || p[3] != '0') return false;
      const char h = p[4], l = p[5];
      if (!((l >= '0' && l <= '9') || (l >= 'a' && l <= 'f'))) return false;
      if (h == '0') return l != '8' && l != '9' && l != 'a' && l != 'c' && l != 'd';  // \b \t \n \f \r
      return h == '1' || (h == '7' && l == 'f');
    }
    default:
      return false;
  }
}

// Scans a string body from p (the byte after the opening quote) to its closing quote, validating escapes and
// UTF-8 (replace: invalid UTF-8 and lone surrogates are kept, flagged node_flag::bad_utf8, for U+FFFD when decoded).
// On success p points at the closing quote and flags has the node_flag bits of the string. Otherwise returns the
// error with p at the offending byte (an escape's backslash); unterminated_string leaves p at the end or at a
// backslash the end cuts (the parser reports it at the opening quote).
template <class K>
[[gnu::always_inline]] inline error_code scan_string(const char*& p, const char* end, bool replace,
                                                     std::size_t (*validate)(const char*, std::size_t) noexcept,
                                                     std::uint8_t& flags) noexcept {
  for (;;) {
    p = K::scan::scan(p, end);
    if (p == end) [[unlikely]]
      return error_code::unterminated_string;
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') [[likely]]
      return error_code::ok;
    if (c == '\\') {
      flags |= node_flag::escapes;
      const char* esc = p;
      ++p;
      if (p == end) return error_code::unterminated_string;
      switch (*p) {
        case '/':
          flags |= node_flag::recoded;
          [[fallthrough]];
        case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
          ++p;
          continue;
        case 'u': {
          std::uint32_t cp;
          if (!utf8::read_hex4(p + 1, end, cp)) {
            p = esc;
            return error_code::bad_unicode_escape;
          }
          if (!canonical_escape(esc)) flags |= node_flag::recoded;
          p += 5;
          if (cp >= 0xd800 && cp <= 0xdbff) {
            std::uint32_t lo;
            if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' && utf8::read_hex4(p + 2, end, lo) && lo >= 0xdc00 &&
                lo <= 0xdfff) {
              p += 6;
              continue;
            }
          } else if (cp < 0xdc00 || cp > 0xdfff) {
            continue;
          }
          if (replace) {  // decoded as U+FFFD, as jq does
            flags |= node_flag::bad_utf8;
            continue;
          }
          p = esc;
          return error_code::lone_surrogate;
        }
        default:
          p = esc;
          return error_code::bad_escape;
      }
    }
    if (c < 0x20) return error_code::control_in_string;
    if (c == 0x7f) {  // legal, but jq writes it as \u007f: take the slow writer path
      flags |= node_flag::escapes | node_flag::recoded;
      ++p;
      continue;
    }
    // Non-ASCII: find where this run of text ends and validate all of it with the UTF-8 kernel in one call.
    const char* q = K::run::find_end(p, end);
    const std::size_t n = static_cast<std::size_t>(q - p);
    const std::size_t bad = validate(p, n);
    if (bad != n) [[unlikely]] {
      if (!replace) {
        p += bad;
        return error_code::invalid_utf8;
      }
      flags |= node_flag::bad_utf8;  // decoded with U+FFFD replacements when used
    }
    p = q;
  }
}

// A number from p (at '-' or a digit), by RFC 8259's grammar. On success p is past it and flags has
// node_flag::integer (no fraction, no exponent) and node_flag::negative as they apply. Otherwise returns the error
// with p where it is reported: the number's first byte for a leading zero ("01"), else the byte that does not fit
// the grammar (or end).
[[gnu::always_inline]] inline error_code scan_number(const char*& p, const char* end, std::uint8_t& flags) noexcept {
  const char* s = p;
  flags = node_flag::integer;
  if (*p == '-') {
    flags |= node_flag::negative;
    ++p;
    if (p == end || !is_digit(*p)) return error_code::bad_number;
  }
  if (*p == '0') {
    ++p;
    if (p < end && is_digit(*p)) {
      p = s;
      return error_code::leading_zero;
    }
  } else {
    do ++p;
    while (p < end && is_digit(*p));
  }
  if (p < end && *p == '.') {
    flags &= static_cast<std::uint8_t>(~node_flag::integer);
    ++p;
    if (p == end || !is_digit(*p)) return error_code::bad_number;
    do ++p;
    while (p < end && is_digit(*p));
  }
  if (p < end && (*p | 0x20) == 'e') {
    flags &= static_cast<std::uint8_t>(~node_flag::integer);
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !is_digit(*p)) return error_code::bad_number;
    do ++p;
    while (p < end && is_digit(*p));
  }
  return error_code::ok;
}

// The literal (true, false, null) at p (at 't', 'f' or 'n'): its length, with its kind in k; 0 when the bytes
// are not that literal (bad_literal, reported at p).
[[gnu::always_inline]] inline std::size_t match_literal(const char* p, const char* end, kind& k) noexcept {
  switch (*p) {
    case 't':
      k = kind::true_;
      return end - p >= 4 && p[1] == 'r' && p[2] == 'u' && p[3] == 'e' ? 4 : 0;
    case 'f':
      k = kind::false_;
      return end - p >= 5 && p[1] == 'a' && p[2] == 'l' && p[3] == 's' && p[4] == 'e' ? 5 : 0;
    default:
      k = kind::null_;
      return end - p >= 4 && p[1] == 'u' && p[2] == 'l' && p[3] == 'l' ? 4 : 0;
  }
}

// The decoded text of a string body [p, p + n) that scan_string accepted with these flags (escapes resolved;
// with node_flag::bad_utf8, invalid UTF-8 replaced by U+FFFD by jq's rule), appended to out (core/document.cpp).
void decode_string(const char* p, std::size_t n, std::uint8_t flags, std::string& out);

}  // namespace jview::lexer
