// core/utf8.hpp: scalar UTF-8 helpers shared by the parser, the document and the writer: strict decoding of one
// sequence (no overlongs, no surrogates, nothing above U+10FFFF), encoding of a code point, and jq 1.8's rule for
// replacing invalid sequences by U+FFFD (jq_step, replace_invalid).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jview::utf8 {

inline constexpr std::uint32_t k_replacement = 0xfffd;

// Decodes the sequence at p (p < end, *p >= 0x80). Returns its length (2..4) and sets cp, or 0 when invalid.
[[gnu::always_inline]] inline std::size_t decode(const unsigned char* p, const unsigned char* end,
                                                 std::uint32_t& cp) noexcept {
  const unsigned c = p[0];
  const std::size_t avail = static_cast<std::size_t>(end - p);
  if (c >= 0xc2 && c <= 0xdf) {
    if (avail < 2 || (p[1] & 0xc0) != 0x80) return 0;
    cp = ((c & 0x1fu) << 6) | (p[1] & 0x3fu);
    return 2;
  }
  if (c >= 0xe0 && c <= 0xef) {
    if (avail < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80) return 0;
    cp = ((c & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (avail < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80) return 0;
    cp = ((c & 0x07u) << 18) | ((p[1] & 0x3fu) << 12) | ((p[2] & 0x3fu) << 6) | (p[3] & 0x3fu);
    if (cp < 0x10000 || cp > 0x10ffff) return 0;
    return 4;
  }
  return 0;
}

// Length of the valid sequence at p, or 0.
[[gnu::always_inline]] inline std::size_t sequence_length(const unsigned char* p, const unsigned char* end) noexcept {
  std::uint32_t cp;
  return decode(p, end, cp);
}

// Writes the UTF-8 encoding of cp (cp <= 0x10FFFF, not a surrogate) at o, which has room for 4 bytes; returns
// the end.
[[gnu::always_inline]] inline char* encode(char* o, std::uint32_t cp) noexcept {
  if (cp < 0x80) {
    *o++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *o++ = static_cast<char>(0xc0 | (cp >> 6));
    *o++ = static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *o++ = static_cast<char>(0xe0 | (cp >> 12));
    *o++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *o++ = static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    *o++ = static_cast<char>(0xf0 | (cp >> 18));
    *o++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    *o++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *o++ = static_cast<char>(0x80 | (cp & 0x3f));
  }
  return o;
}

// Appends the UTF-8 encoding of cp (cp <= 0x10FFFF, not a surrogate).
inline void append(std::string& out, std::uint32_t cp) {
  char bytes[4];
  out.append(bytes, static_cast<std::size_t>(encode(bytes, cp) - bytes));
}

// One step of jq 1.8's decoder (its jvp_utf8_next) at p < end, *p >= 0x80: the number of bytes it takes; `valid`
// says whether they were one well-formed sequence. A byte that starts no sequence (continuation bytes, C0, C1,
// F5-FF) is one bad byte; a sequence cut by a byte that is not a continuation ends before that byte; a sequence cut
// by the end of the text takes the rest of it. Overlongs, surrogates and code points above U+10FFFF are one bad
// sequence of their full length. Each bad step becomes one U+FFFD.
inline std::size_t jq_step(const unsigned char* p, const unsigned char* end, bool& valid) noexcept {
  const unsigned c = p[0];
  const std::size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  valid = false;
  if (len == 0) return 1;
  const std::size_t avail = static_cast<std::size_t>(end - p);
  if (len > avail) return avail;
  for (std::size_t i = 1; i < len; ++i)
    if ((p[i] & 0xc0) != 0x80) return i;
  std::uint32_t cp;
  valid = decode(p, end, cp) == len;
  return len;
}

// The text with each bad step of jq_step replaced by U+FFFD, as jq 1.8 makes every string that enters it from
// outside the JSON parser (arguments, raw input lines, files, the environment, program literals). False, and `out`
// untouched, when the text is valid UTF-8 already.
inline bool replace_invalid(std::string_view s, std::string& out) {
  const unsigned char* const begin = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* const end = begin + s.size();
  const unsigned char* p = begin;
  bool valid = true;
  while (p < end && valid) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const std::size_t k = jq_step(p, end, valid);
    if (valid) p += k;
  }
  if (valid) return false;
  std::string r(s.substr(0, static_cast<std::size_t>(p - begin)));
  while (p < end) {
    if (*p < 0x80) {
      r.push_back(static_cast<char>(*p++));
      continue;
    }
    bool ok;
    const std::size_t k = jq_step(p, end, ok);
    if (ok)
      r.append(reinterpret_cast<const char*>(p), k);
    else
      append(r, k_replacement);
    p += k;
  }
  out = std::move(r);
  return true;
}

// s as valid UTF-8 (replace_invalid's rule); s itself when it is valid.
inline std::string valid_or_replaced(std::string s) {
  std::string r;
  return replace_invalid(s, r) ? r : s;
}

// Value of one hex digit, or -1.
inline int hex_value(char ch) noexcept {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f') return (ch | 0x20) - 'a' + 10;
  return -1;
}

// Reads four hex digits at p (needs 4 bytes before end); false if any is not hex.
inline bool read_hex4(const char* p, const char* end, std::uint32_t& v) noexcept {
  if (end - p < 4) return false;
  v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = hex_value(p[i]);
    if (h < 0) return false;
    v = (v << 4) | static_cast<std::uint32_t>(h);
  }
  return true;
}

// The code point of the \uXXXX escape at p (p[0] == '\\', p[1] == 'u', four hex digits: a string the parser
// accepted), joined with the low-surrogate escape after it when it is a high surrogate. A surrogate left alone
// (only in strings read with --replace-invalid-utf8) gives U+FFFD, as jq does. Advances p past what it read.
inline std::uint32_t decode_u_escape(const char*& p, const char* end) noexcept {
  std::uint32_t cp = 0;
  read_hex4(p + 2, end, cp);
  p += 6;
  if (cp >= 0xd800 && cp <= 0xdbff) {
    std::uint32_t lo = 0;
    if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' && read_hex4(p + 2, end, lo) && lo >= 0xdc00 && lo <= 0xdfff) {
      p += 6;
      return 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    return k_replacement;
  }
  return cp >= 0xdc00 && cp <= 0xdfff ? k_replacement : cp;
}

}  // namespace jview::utf8
