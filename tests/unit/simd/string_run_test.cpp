// tests/unit/simd/string_run_test.cpp: the non-ASCII run finders of simd/string_run.hpp (where the parser's UTF-8
// run ends: '"', '\\', a control byte or DEL). Each vector finder must stop where the portable one does, from every
// start of random buffers of every length and alignment, and never load past the end.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "simd/string_run.hpp"
#include "tests/unit/simd/test_support.hpp"

namespace jview::simd {
namespace {

using test::rng;

template <class Run>
int compare_run(const char* p, std::size_t len) {
  int bad = 0;
  for (std::size_t start = 0; start <= len; ++start) {
    const char* want = portable_run::find_end(p + start, p + len);
    const char* got = Run::find_end(p + start, p + len);
    if (got != want) {
      ++bad;
      INFO("len ", len, " start ", start, " want ", want - p, " got ", got - p);
      CHECK(got == want);
    }
  }
  return bad;
}

template <class Run>
void check_run_against_portable() {
  rng r(31);
  alignas(64) static char buf[64 + 96];
  int bad = 0;
  for (std::size_t len = 0; len <= 80; ++len)
    for (int density = 0; density <= 16; density += 4)
      for (std::size_t align = 0; align < 64; ++align) {
        const std::string s = test::random_scan_buffer(r, len, density);
        std::memcpy(buf + align, s.data(), s.size());
        bad += compare_run<Run>(buf + align, len);
        if (bad > 20) FAIL("too many mismatches");
      }
  test::guarded_buffer g(256);
  REQUIRE(g.ok());
  for (std::size_t len = 0; len <= 200; ++len) {
    bad += compare_run<Run>(g.place_end(test::random_scan_buffer(r, len, 2)), len);
    bad += compare_run<Run>(g.place_end(test::random_utf8(r, len, 0)), len);  // non-ASCII text up to the guard
  }
  CHECK(bad == 0);
}

TEST_CASE("string_run: portable run ends at quote, backslash, control and DEL, not at non-ASCII bytes") {
  for (int c = 0; c < 256; ++c) {
    INFO("byte ", c);
    const char buf[3] = {'\xc3', static_cast<char>(c), 'b'};
    const bool stop = c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
    CHECK(portable_run::find_end(buf, buf + 3) == buf + (stop ? 1 : 3));
  }
}

#if JVIEW_HAVE_SSE2
TEST_CASE("string_run: sse2_run agrees with portable") { check_run_against_portable<sse2_run>(); }
#endif

#if JVIEW_HAVE_NEON
TEST_CASE("string_run: neon_run agrees with portable") { check_run_against_portable<neon_run>(); }
#endif

}  // namespace
}  // namespace jview::simd

#include "simd/boundary_scan.hpp"

TEST_CASE("boundary scan: vector searches agree with portable at every start") {
  std::mt19937 rng(7);
  const char alphabet[] = "ab \"\\[]{}xyz,:_Y\x5f\x59";
  for (int round = 0; round < 2000; ++round) {
    std::string s(static_cast<std::size_t>(rng() % 80), ' ');
    for (char& c : s) c = alphabet[rng() % (sizeof alphabet - 1)];
    const char* b = s.data();
    const char* e = b + s.size();
    for (const char* p = b; p <= e; ++p) {
#if JVIEW_HAVE_SSE2
      REQUIRE(jview::simd::sse2_boundary::quote_or_bracket(p, e) ==
              jview::simd::portable_boundary::quote_or_bracket(p, e));
      REQUIRE(jview::simd::sse2_boundary::quote_or_backslash(p, e) ==
              jview::simd::portable_boundary::quote_or_backslash(p, e));
#endif
    }
  }
}
