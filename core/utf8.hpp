// core/utf8.hpp: scalar UTF-8 helpers shared by the parser, the document and the writer: strict decoding of one
// sequence (no overlongs, no surrogates, nothing above U+10FFFF), encoding of a code point, and jq 1.8's rule for
// replacing invalid sequences by U+FFFD (invalid_length, append_replacing, valid_or_replaced).
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

// jq's rule for invalid UTF-8 (its decoder, jvp_utf8_next, which every string entering jq goes through): at a byte
// p where decode() fails, the bytes that become one U+FFFD. A byte that cannot start a sequence (a continuation
// byte, C0, C1, F5..FF) is one; a sequence cut short by the end of the text takes the rest of the text; a lead byte
// followed too soon by a byte that is no continuation takes the bytes before that one; a complete sequence that is
// overlong, a surrogate or above U+10FFFF is one U+FFFD for all its bytes. (jq 1.8: "\xc0\x80" is two,
// "\xed\xa0\x80" one, "\xe2\x82x" one and an x.)
inline std::size_t invalid_length(const unsigned char* p, const unsigned char* end) noexcept {
  const unsigned c = p[0];
  const std::size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
  const std::size_t avail = static_cast<std::size_t>(end - p);
  if (len > avail) return avail;
  for (std::size_t i = 1; i < len; ++i)
    if ((p[i] & 0xc0) != 0x80) return i;
  return len;
}

// Appends s with every invalid sequence replaced by U+FFFD by jq's rule (invalid_length): the one replacer for
// text that is not yet known to be UTF-8.
inline void append_replacing(std::string& out, std::string_view s) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* end = p + s.size();
  while (p < end) {
    const unsigned char* run = p;
    std::uint32_t cp;
    std::size_t k = 0;
    while (p < end && (*p < 0x80 || (k = decode(p, end, cp)) != 0)) p += *p < 0x80 ? 1 : k;
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p == end) break;
    append(out, k_replacement);
    p += invalid_length(p, end);
  }
}

// s as valid UTF-8: invalid sequences replaced as append_replacing does, as jq 1.8 makes every string that enters it
// from outside the JSON parser (arguments, raw input lines, files, the environment, program literals); s itself
// when it is valid already.
inline std::string valid_or_replaced(std::string s) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* const end = p + s.size();
  std::uint32_t cp;
  std::size_t k = 0;
  while (p < end && (*p < 0x80 || (k = decode(p, end, cp)) != 0)) p += *p < 0x80 ? 1 : k;
  if (p == end) return s;
  std::string r;
  r.reserve(s.size() + 8);
  append_replacing(r, s);
  return r;
}

// Value of one hex digit, or -1.
inline int hex_value(char ch) noexcept {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f') return (ch | 0x20) - 'a' + 10;
  return -1;
}

// Reads four hex digits at p (needs 4 bytes before end); false if any is not hex.
// The four bytes at once (SWAR), without a branch per digit: a byte loop with two range tests per digit was a third
// of the parse of \u-escaped text (twitterescaped.json). Byte i of x is p[i].
inline bool read_hex4(const char* p, const char* end, std::uint32_t& v) noexcept {
  if (end - p < 4) return false;
  std::uint32_t x;
  std::memcpy(&x, p, 4);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap32(x);
  constexpr std::uint32_t k_ones = 0x01010101u, k_high = 0x80808080u, k_low7 = 0x7f7f7f7fu;
  // Bit 7 of each byte: its low seven bits are at least m (exact: the sum stays within the byte).
  const auto at_least = [](std::uint32_t low7, std::uint32_t m) { return (low7 + (0x80 - m) * k_ones) & k_high; };
  const std::uint32_t low7 = x & k_low7, folded = (x | 0x20202020u) & k_low7;  // (folded: 'A'-'F' as 'a'-'f')
  const std::uint32_t digit = at_least(low7, '0') & ~at_least(low7, '9' + 1);
  const std::uint32_t letter = at_least(folded, 'a') & ~at_least(folded, 'f' + 1);
  if (((digit | letter) & ~x & k_high) != k_high) return false;  // (a byte from 0x80 is no digit)
  // Each byte's value: its low nibble, plus 9 for a letter (bit 6); then the four nibbles, p[0]'s highest.
  const std::uint32_t nib = (x & 0x0f0f0f0fu) + 9 * ((x >> 6) & k_ones);
  const std::uint32_t pairs = (nib << 4) | (nib >> 8);  // byte 0: p[0]p[1], byte 2: p[2]p[3]
  v = ((pairs & 0xff) << 8) | ((pairs >> 16) & 0xff);
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
