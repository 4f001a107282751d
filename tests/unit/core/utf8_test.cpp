// tests/unit/core/utf8_test.cpp: core/utf8.hpp's read_hex4 (four hex digits read at once, SWAR) against a byte at a
// time reference: every byte value at each of the four places, random words, and the end bound. (The whole 2^32
// inputs were compared once, outside the suite: 13 s.)
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "../simd/test_support.hpp"
#include "core/utf8.hpp"

using namespace jview;

namespace {

bool reference_hex4(const char* p, std::uint32_t& v) {
  v = 0;
  for (int i = 0; i < 4; ++i) {
    const int h = utf8::hex_value(p[i]);
    if (h < 0) return false;
    v = v << 4 | static_cast<std::uint32_t>(h);
  }
  return true;
}

void check_hex4(const char (&p)[4]) {
  std::uint32_t got = 0, want = 0;
  const bool ok = utf8::read_hex4(p, p + 4, got);
  const bool want_ok = reference_hex4(p, want);
  INFO("bytes " << int(static_cast<unsigned char>(p[0])) << " " << int(static_cast<unsigned char>(p[1])) << " "
                << int(static_cast<unsigned char>(p[2])) << " " << int(static_cast<unsigned char>(p[3])));
  REQUIRE(ok == want_ok);
  if (ok) REQUIRE(got == want);
}

}  // namespace

TEST_CASE("read_hex4: digits, both cases of letters, and every other byte in each place") {
  static const char hex[] = "0123456789abcdefABCDEF";
  simd::test::rng g(4);
  for (int place = 0; place < 4; ++place) {
    for (int b = 0; b < 256; ++b) {
      for (int round = 0; round < 8; ++round) {
        char p[4];
        for (char& c : p) c = round < 6 ? hex[g.below(sizeof hex - 1)] : static_cast<char>(g.byte());
        p[place] = static_cast<char>(b);
        check_hex4(p);
      }
    }
  }
  for (int round = 0; round < 1000000; ++round) {
    const auto w = static_cast<std::uint32_t>(g.next());
    char p[4];
    std::memcpy(p, &w, 4);
    check_hex4(p);
  }
  std::uint32_t v = 0;
  const std::string s = "D83d";
  CHECK(utf8::read_hex4(s.data(), s.data() + 4, v));
  CHECK(v == 0xd83d);
  CHECK_FALSE(utf8::read_hex4(s.data(), s.data() + 3, v));
  const std::string t = "fFf/";  // '/' sits just below '0', '@' and '`' just below 'A' and 'a', 'G' and 'g' above
  CHECK_FALSE(utf8::read_hex4(t.data(), t.data() + 4, v));
  for (const char* bad : {"@000", "`000", "G000", "g000", ":000", "\x80" "000", "\xb0" "000", "\xe1" "000"})
    CHECK_FALSE(utf8::read_hex4(bad, bad + 4, v));
}
