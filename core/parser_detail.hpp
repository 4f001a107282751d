// core/parser_detail.hpp: what the one-pass parser (core/parser.cpp) and the two-stage walk
// (core/parser_two_stage.cpp) share. Internal to those two files.
#pragma once
#include <cstdint>

#include "core/document.hpp"

namespace jview::parse_detail {

[[gnu::always_inline]] inline bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }

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

// Closing an object that the key table flagged as a candidate (parser::note_key): the exact test, now that its
// members are all there. Clears the flag when no key repeats; true when one does.
bool confirm_duplicate_keys(document& doc, const char* base, node* nodes, std::uint32_t n, std::uint32_t cur,
                            std::uint32_t count);

}  // namespace jview::parse_detail
