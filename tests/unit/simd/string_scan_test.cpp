// tests/unit/simd/string_scan_test.cpp: the string-run scanners of simd/string_scan.hpp. Each vector scanner must
// stop at exactly the byte the portable one stops at, from every start of random buffers of every length and
// alignment, and never load past the end (buffers end at an inaccessible page).
#include <doctest/doctest.h>

#include <string>

#include "simd/string_scan.hpp"
#include "tests/unit/simd/test_support.hpp"

namespace jview::simd {
namespace {

using test::rng;

template <class Scanner>
int compare_scanner(const char* p, std::size_t len) {
  int bad = 0;
  for (std::size_t start = 0; start <= len; ++start) {
    const char* want = portable_scanner::scan(p + start, p + len);
    const char* got = Scanner::scan(p + start, p + len);
    if (got != want) {
      ++bad;
      INFO("len ", len, " start ", start, " want ", want - p, " got ", got - p);
      CHECK(got == want);
    }
  }
  return bad;
}

template <class Scanner>
void check_scanner_against_portable() {
  rng r(11);
  alignas(64) static char buf[64 + 96];
  int bad = 0;
  for (std::size_t len = 0; len <= 80; ++len)
    for (int density = 0; density <= 16; density += 4)
      for (std::size_t align = 0; align < 64; ++align) {
        const std::string s = test::random_scan_buffer(r, len, density);
        std::memcpy(buf + align, s.data(), s.size());
        bad += compare_scanner<Scanner>(buf + align, len);
        if (bad > 20) FAIL("too many mismatches");
      }
  test::guarded_buffer g(256);
  REQUIRE(g.ok());
  for (std::size_t len = 0; len <= 200; ++len)
    for (int density = 0; density <= 4; density += 1) {
      const std::string s = test::random_scan_buffer(r, len, density);
      bad += compare_scanner<Scanner>(g.place_end(s), len);
    }
  CHECK(bad == 0);
}

TEST_CASE("string_scan: portable scanner stops at quote, backslash, control, DEL and non-ASCII bytes") {
  for (int c = 0; c < 256; ++c) {
    INFO("byte ", c);
    const char buf[3] = {'a', static_cast<char>(c), 'b'};
    const bool stop = c < 0x20 || c == '"' || c == '\\' || c == 0x7f || c >= 0x80;
    CHECK(portable_scanner::scan(buf, buf + 3) == buf + (stop ? 1 : 3));
  }
  const char* empty = "";
  CHECK(portable_scanner::scan(empty, empty) == empty);
}

#if JVIEW_HAVE_SSE2
TEST_CASE("string_scan: sse2_scanner agrees with portable") { check_scanner_against_portable<sse2_scanner>(); }
#endif

#if JVIEW_HAVE_NEON
TEST_CASE("string_scan: neon_scanner agrees with portable") { check_scanner_against_portable<neon_scanner>(); }
#endif

}  // namespace
}  // namespace jview::simd
