// tests/unit/simd/whitespace_test.cpp: the whitespace scanners of simd/whitespace.hpp. Exact answers on the shapes
// pretty-printed JSON has, then each vector scanner against the portable one from every start of random buffers of
// every length and alignment, including buffers that end at an inaccessible page.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "simd/whitespace.hpp"
#include "tests/unit/simd/test_support.hpp"

namespace jview::simd {
namespace {

using test::rng;

template <class Ws>
std::size_t skipped(std::string_view s) {
  return static_cast<std::size_t>(Ws::skip(s.data(), s.data() + s.size()) - s.data());
}

template <class Ws>
void check_shapes() {
  CHECK(skipped<Ws>("") == 0);
  CHECK(skipped<Ws>("x") == 0);
  CHECK(skipped<Ws>(" x") == 1);
  CHECK(skipped<Ws>("\n") == 1);
  CHECK(skipped<Ws>(" ") == 1);
  CHECK(skipped<Ws>("\n  \"key\"") == 3);
  CHECK(skipped<Ws>("\r\n\t\t}") == 4);
  CHECK(skipped<Ws>(std::string("\n") + std::string(40, ' ') + "1") == 41);
  CHECK(skipped<Ws>(std::string(100, ' ')) == 100);
  CHECK(skipped<Ws>(std::string(31, '\t') + "\v") == 31);  // \v and \f are not JSON whitespace
  CHECK(skipped<Ws>(std::string(17, '\n') + "\f") == 17);
  CHECK(skipped<Ws>(std::string(16, ' ') + std::string(1, '\0')) == 16);
  CHECK(skipped<Ws>("  \xa0") == 2);  // nor is a non-ASCII byte
}

TEST_CASE("whitespace: is_json_ws is exactly space, tab, newline and carriage return") {
  for (int c = 0; c < 256; ++c) {
    INFO("byte ", c);
    CHECK(is_json_ws(static_cast<char>(c)) == (c == ' ' || c == '\t' || c == '\n' || c == '\r'));
  }
}

TEST_CASE("whitespace: portable_ws on pretty-printed shapes") { check_shapes<portable_ws>(); }

// Buffers of runs: whitespace runs of every length (the indentation case) separated by other bytes.
std::string random_ws_buffer(rng& r, std::size_t len) {
  static constexpr char k_ws[] = {' ', ' ', ' ', ' ', '\n', '\r', '\t'};
  static constexpr char k_other[] = {'x', '{', '"', '\v', '\f', '\0', '!', static_cast<char>(0xa0), 0x1f, 0x21};
  std::string s;
  while (s.size() < len) {
    const std::size_t run = r.below(4) == 0 ? r.below(70) : r.below(6);
    for (std::size_t i = 0; i < run && s.size() < len; ++i) s += k_ws[r.below(sizeof k_ws)];
    if (s.size() < len) s += k_other[r.below(sizeof k_other)];
  }
  return s;
}

template <class Ws>
int compare_ws(const char* p, std::size_t len) {
  int bad = 0;
  for (std::size_t start = 0; start <= len; ++start) {
    const char* want = portable_ws::skip(p + start, p + len);
    const char* got = Ws::skip(p + start, p + len);
    if (got != want) {
      ++bad;
      INFO("len ", len, " start ", start, " want ", want - p, " got ", got - p);
      CHECK(got == want);
    }
  }
  return bad;
}

template <class Ws>
void check_ws_against_portable() {
  check_shapes<Ws>();
  rng r(21);
  alignas(64) static char buf[64 + 96];
  int bad = 0;
  for (std::size_t len = 0; len <= 80; ++len)
    for (int rep = 0; rep < 4; ++rep)
      for (std::size_t align = 0; align < 64; ++align) {
        const std::string s = random_ws_buffer(r, len);
        std::memcpy(buf + align, s.data(), s.size());
        bad += compare_ws<Ws>(buf + align, len);
        if (bad > 20) FAIL("too many mismatches");
      }
  test::guarded_buffer g(256);
  REQUIRE(g.ok());
  for (std::size_t len = 0; len <= 200; ++len) {
    bad += compare_ws<Ws>(g.place_end(random_ws_buffer(r, len)), len);
    bad += compare_ws<Ws>(g.place_end(std::string(len, ' ')), len);  // all whitespace up to the guard page
  }
  CHECK(bad == 0);
}

#if JVIEW_HAVE_SSE2
TEST_CASE("whitespace: sse2_ws agrees with portable") { check_ws_against_portable<sse2_ws>(); }
#endif

#if JVIEW_HAVE_NEON
TEST_CASE("whitespace: neon_ws agrees with portable") { check_ws_against_portable<neon_ws>(); }
#endif

}  // namespace
}  // namespace jview::simd
