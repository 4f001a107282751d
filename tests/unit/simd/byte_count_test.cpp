// tests/unit/simd/byte_count_test.cpp: simd::count_byte (newlines for diagnostics' line numbers), vector and
// portable, against a byte loop: every length 0..600 at every start offset 0..15, bytes dense and sparse in the
// needle, and runs longer than the 255 blocks a byte counter holds.
#include <doctest/doctest.h>

#include <string>

#include "simd/byte_count.hpp"
#include "test_support.hpp"

using jview::simd::count_byte;
using jview::simd::count_byte_portable;
using jview::simd::test::rng;

namespace {

std::size_t reference(const char* p, const char* end, char c) {
  std::size_t n = 0;
  for (; p < end; ++p) n += *p == c;
  return n;
}

}  // namespace

TEST_CASE("byte_count: vector and portable agree with a byte loop") {
  rng g(20261203);
  for (const unsigned density : {1u, 8u, 64u, 256u}) {  // one byte in `density` is the needle, on average
    std::string s(640, '\0');
    for (char& c : s) c = g.below(density) == 0 ? '\n' : static_cast<char>(g.byte() | 1);  // '\n' only as chosen
    s[7] = '\x8a';  // a byte above 0x7f that differs from '\n' only in its top bit
    for (std::size_t start = 0; start < 16; ++start) {
      for (std::size_t len = 0; start + len <= 616; ++len) {
        const char* p = s.data() + start;
        const std::size_t want = reference(p, p + len, '\n');
        REQUIRE(count_byte(p, p + len, '\n') == want);
        REQUIRE(count_byte(p, p + len, '\n', false) == want);
        REQUIRE(count_byte_portable(p, p + len, '\n') == want);
      }
    }
  }
}

TEST_CASE("byte_count: counters summed before they overflow") {
  // 1 MiB of newlines: every byte counter would wrap after 255 blocks; and every other needle a 0xff byte.
  std::string all(std::size_t{1} << 20, '\n');
  CHECK(count_byte(all.data(), all.data() + all.size(), '\n') == all.size());
  CHECK(count_byte(all.data() + 3, all.data() + all.size(), '\n', false) == all.size() - 3);
  std::string mixed(100003, '\xff');
  for (std::size_t i = 0; i < mixed.size(); i += 2) mixed[i] = '\n';
  CHECK(count_byte(mixed.data(), mixed.data() + mixed.size(), '\n') == 50002);
  CHECK(count_byte(mixed.data(), mixed.data() + mixed.size(), '\xff') == 50001);
}
