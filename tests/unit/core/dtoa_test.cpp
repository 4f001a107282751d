// Tests for core/dtoa: shortest digits and exponent against std::to_chars, strtod round trip, vector vs portable
// digit paths, jq 1.8's text layout (tests/unit/core/data/dtoa_jq_expected.txt, made by gen_dtoa_jq_expected.py with
// jq 1.8), integers against std::to_string, and number literals (number_to_double, write_number_shortest) against
// fast_float. A few million doubles; the 100M run is tests/unit_long/dtoa_long.cpp.
#include "core/dtoa.hpp"
#include "core/number.hpp"

#include <doctest/doctest.h>
#include <fast_float/fast_float.h>

#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <string_view>

namespace {

// Significant digits (no leading or trailing zeros) and the decimal exponent of the first one.
struct sci {
  std::string digits;
  int exponent = 0;
  bool operator==(const sci&) const = default;
};

// Reads jq-style or to_chars-style text ("-12.5", "0.00012", "1.5e+300", "12000") into sci form.
sci parse_text(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  int exp = 0;
  const std::size_t e_at = s.find('e');
  if (e_at != std::string_view::npos) {
    std::from_chars(s.data() + e_at + (s[e_at + 1] == '+' ? 2 : 1), s.data() + s.size(), exp);
    s = s.substr(0, e_at);
  }
  std::string all;
  int point = -1;
  for (char ch : s) {
    if (ch == '.') {
      point = static_cast<int>(all.size());
    } else {
      all += ch;
    }
  }
  if (point < 0) point = static_cast<int>(all.size());
  const std::size_t first = all.find_first_not_of('0');
  if (first == std::string::npos) return {"0", 0};
  const std::size_t last = all.find_last_not_of('0');
  return {all.substr(first, last - first + 1), exp + point - static_cast<int>(first) - 1};
}

sci reference(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  return parse_text(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

// Everything checked for one finite double; returns false (and records the first failure) on a mismatch.
std::string g_first_failure;
bool check_double(double v) {
  if (!std::isfinite(v)) return true;  // NaN and infinities: dtoa_special_values
  char out[jview::k_max_double_chars];
  char port[jview::k_max_double_chars];
  const std::string text(out, static_cast<std::size_t>(jview::write_double_shortest(v, out) - out));
  const std::string ptext(port, static_cast<std::size_t>(jview::detail::write_double_portable(v, port) - port));
  const sci want = reference(v);
  bool ok = text == ptext && parse_text(text) == want && std::strtod(text.c_str(), nullptr) == v &&
            std::signbit(std::strtod(text.c_str(), nullptr)) == std::signbit(v);
  if (ok && v != 0) {
    const jview::detail::decimal_fp d = jview::detail::to_decimal_shortest(v);
    const std::string digits = std::to_string(d.digits);
    ok = digits == want.digits && d.exponent + static_cast<int>(digits.size()) - 1 == want.exponent;
  }
  if (!ok && g_first_failure.empty()) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    g_first_failure = "value " + std::string(buf, r.ptr) + " wrote '" + text + "' portable '" + ptext + "'";
  }
  return ok;
}

double from_bits(std::uint64_t b) { return std::bit_cast<double>(b); }

// The unoptimised sanitizer build (make test runs it too) checks a tenth of the random samples, to stay a few seconds;
// so does the AArch64 build run under qemu (tests/arm/run.sh sets JVIEW_TEST_SAMPLE_DIVISOR).
#if defined(JVIEW_TEST_SAMPLE_DIVISOR)
constexpr int k_samples_divisor = JVIEW_TEST_SAMPLE_DIVISOR;
#elif defined(__OPTIMIZE__)
constexpr int k_samples_divisor = 1;
#else
constexpr int k_samples_divisor = 10;
#endif

}  // namespace

TEST_CASE("dtoa_special_values") {
  char out[jview::k_max_double_chars];
  const auto w = [&](double v) { return std::string(out, jview::write_double_shortest(v, out)); };
  CHECK(w(0.0) == "0");
  CHECK(w(-0.0) == "-0");
  CHECK(w(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(w(-std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(w(std::numeric_limits<double>::infinity()) == "1.7976931348623157e+308");
  CHECK(w(-std::numeric_limits<double>::infinity()) == "-1.7976931348623157e+308");
  CHECK(w(DBL_MAX) == "1.7976931348623157e+308");
  CHECK(w(DBL_MIN) == "2.2250738585072014e-308");
  CHECK(w(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(w(-12345678901234567e15) == "-12345678901234567000000000000000");  // the longest text: 33 bytes
  CHECK(w(1.5) == "1.5");
  CHECK(w(100) == "100");
  CHECK(w(1e20) == "1e+20");
  CHECK(w(1e-5) == "1e-05");
  CHECK(w(1e17) == "1e+17");
  CHECK(w(1e16) == "1e+16");
  CHECK(w(1e15) == "1000000000000000");
  CHECK(w(123456789012) == "123456789012");
  CHECK(w(0.0001) == "0.0001");
  CHECK(w(0.1) == "0.1");
  CHECK(w(1.2345678901234567e-4) == "0.00012345678901234567");
  CHECK(w(12345678901234567e15) == "12345678901234567000000000000000");
  CHECK(w(123456789012345678.0) == "123456789012345680");
  CHECK(w(-1e-7) == "-1e-07");
  CHECK(w(1e100) == "1e+100");
  CHECK(w(2.5e-310) == "2.5e-310");
}

TEST_CASE("dtoa_random_bits_against_to_chars") {
  std::mt19937_64 rng(20240601);
  g_first_failure.clear();
  long failures = 0;
  for (int i = 0; i < 1500000 / k_samples_divisor; ++i) {
    const double v = from_bits(rng());
    if (!std::isfinite(v)) continue;
    failures += !check_double(v);
  }
  CHECK_MESSAGE(failures == 0, g_first_failure);
}

TEST_CASE("dtoa_subnormals") {
  std::mt19937_64 rng(7);
  g_first_failure.clear();
  long failures = 0;
  for (std::uint64_t m = 1; m < 4096; ++m) failures += !check_double(from_bits(m));
  for (std::uint64_t m = (std::uint64_t{1} << 52) - 4096; m < (std::uint64_t{1} << 52) + 4096; ++m) {
    failures += !check_double(from_bits(m));
  }
  for (int i = 0; i < 200000 / k_samples_divisor; ++i) {
    failures += !check_double(from_bits((rng() & ((std::uint64_t{1} << 52) - 1)) | (rng() & (std::uint64_t{1} << 63))));
  }
  CHECK_MESSAGE(failures == 0, g_first_failure);
}

TEST_CASE("dtoa_powers_of_two_and_boundaries") {
  g_first_failure.clear();
  long failures = 0;
  for (std::uint64_t e = 0; e < 2047; ++e) {
    const std::uint64_t base = e << 52;
    for (std::uint64_t d = 0; d < 8; ++d) {
      failures += !check_double(from_bits(base + d));            // 2^e and just above
      if (base >= 8) failures += !check_double(from_bits(base - 1 - d));  // just below
    }
    failures += !check_double(from_bits(base | ((std::uint64_t{1} << 52) - 1)));
  }
  for (double v : {DBL_MAX, DBL_MIN, std::numeric_limits<double>::denorm_min(), DBL_EPSILON, 1.0, 9007199254740992.0,
                   9007199254740993.0, 4503599627370496.0, 4503599627370495.5, 1e15, 1e16, 1e17, 1e-5, 1e-4}) {
    failures += !check_double(v);
    failures += !check_double(-v);
    failures += !check_double(std::nextafter(v, 0.0));
    failures += !check_double(std::nextafter(v, HUGE_VAL));
  }
  CHECK_MESSAGE(failures == 0, g_first_failure);
}

TEST_CASE("dtoa_short_decimals") {
  // 0.1 .. 0.999 and all one- to three-digit decimals at every decimal exponent, plus random 1..17 digit ones.
  g_first_failure.clear();
  long failures = 0;
  char buf[64];
  for (int digits = 1; digits < 1000; ++digits) {
    for (int e = -326; e <= 308; e += (digits % 10 == 0) ? 1 : 3 * k_samples_divisor) {
      const auto r = std::to_chars(buf, buf + sizeof buf - 1, digits);
      *r.ptr = 'e';
      const auto r2 = std::to_chars(r.ptr + 1, buf + sizeof buf - 1, e);
      *r2.ptr = '\0';
      const double v = std::strtod(buf, nullptr);
      if (std::isfinite(v)) failures += !check_double(v);
    }
  }
  std::mt19937_64 rng(99);
  for (int i = 0; i < 300000 / k_samples_divisor; ++i) {
    const int ndig = 1 + static_cast<int>(rng() % 17);
    std::uint64_t p = 1;
    for (int k = 0; k < ndig; ++k) p *= 10;
    const std::uint64_t digits = rng() % p;
    const int e = static_cast<int>(rng() % 640) - 330;
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, digits);
    *r.ptr = 'e';
    const auto r2 = std::to_chars(r.ptr + 1, buf + sizeof buf - 1, e);
    *r2.ptr = '\0';
    const double v = std::strtod(buf, nullptr);
    if (std::isfinite(v)) failures += !check_double(v);
  }
  CHECK_MESSAGE(failures == 0, g_first_failure);
}

TEST_CASE("dtoa_integral_doubles") {
  std::mt19937_64 rng(5);
  g_first_failure.clear();
  long failures = 0;
  for (int i = 0; i < 200000 / k_samples_divisor; ++i) {
    const int bits = 1 + static_cast<int>(rng() % 64);
    const std::uint64_t x = rng() >> (64 - bits);
    failures += !check_double(static_cast<double>(x));
    failures += !check_double(-static_cast<double>(x));
  }
  CHECK_MESSAGE(failures == 0, g_first_failure);
}

TEST_CASE("dtoa_jq_format_expected_file") {
  // Each line: the input number as jq read it, a tab, and jq 1.8's output for `. * 1`.
  std::ifstream in(JVIEW_SOURCE_DIR "/tests/unit/core/data/dtoa_jq_expected.txt");
  REQUIRE(in.good());
  std::string line;
  int lines = 0;
  int mismatches = 0;
  std::string first;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    const std::string input = line.substr(0, tab);
    const std::string expected = line.substr(tab + 1);
    char out[jview::k_max_double_chars];
    char port[jview::k_max_double_chars];
    const double v = std::strtod(input.c_str(), nullptr);
    const std::string got(out, jview::write_double_shortest(v, out));
    const std::string pgot(port, jview::detail::write_double_portable(v, port));
    ++lines;
    if (got != expected || pgot != expected) {
      if (mismatches++ == 0) first = input + " -> " + got + " / " + pgot + ", jq: " + expected;
    }
  }
  CHECK(lines > 1000);
  CHECK_MESSAGE(mismatches == 0, first);
}

TEST_CASE("dtoa_buffer_bound") {
  // No write past k_max_double_chars, whatever the value: guard bytes after the buffer stay untouched.
  std::mt19937_64 rng(11);
  char buf[jview::k_max_double_chars + 16];
  bool ok = true;
  for (int i = 0; i < 100000 && ok; ++i) {
    double v = from_bits(rng());
    if (i % 3 == 0) v = -12345678901234567e15 * std::ldexp(1.0, -static_cast<int>(rng() % 8));
    std::memset(buf, 0x55, sizeof buf);
    const char* end = jview::write_double_shortest(v, buf);
    ok = end <= buf + jview::k_max_double_chars;
    for (std::size_t k = jview::k_max_double_chars; k < sizeof buf; ++k) ok = ok && buf[k] == 0x55;
    std::memset(buf, 0x55, sizeof buf);
    jview::detail::write_double_portable(v, buf);
    for (std::size_t k = jview::k_max_double_chars; k < sizeof buf; ++k) ok = ok && buf[k] == 0x55;
  }
  CHECK(ok);
}

namespace {

bool check_int(std::int64_t v) {
  char out[jview::k_max_int_chars];
  return std::string(out, jview::write_int64(v, out)) == std::to_string(v);
}
bool check_uint(std::uint64_t v) {
  char out[jview::k_max_int_chars];
  return std::string(out, jview::write_uint64(v, out)) == std::to_string(v);
}

}  // namespace

// 10M random values (2 x 10M checks; about 1 s in the release build) plus every power-of-ten boundary.
TEST_CASE("itoa_against_to_string") {
  std::mt19937_64 rng(3);
  long failures = 0;
  for (int i = 0; i < 10000000 / k_samples_divisor; ++i) {
    const std::uint64_t x = rng() >> (rng() % 64);
    failures += !check_uint(x);
    failures += !check_int(static_cast<std::int64_t>(x));
  }
  std::uint64_t p = 1;
  for (int k = 0; k <= 19; ++k, p *= 10) {
    for (std::uint64_t d : {p - 1, p, p + 1}) {
      failures += !check_uint(d);
      failures += !check_int(static_cast<std::int64_t>(d));
      failures += !check_int(-static_cast<std::int64_t>(d));
    }
  }
  for (std::uint64_t x = 0; x < 100000; ++x) failures += !check_int(static_cast<std::int64_t>(x) - 50000);
  failures += !check_int(std::numeric_limits<std::int64_t>::min());
  failures += !check_int(std::numeric_limits<std::int64_t>::max());
  failures += !check_uint(std::numeric_limits<std::uint64_t>::max());
  failures += !check_uint(std::numeric_limits<std::uint64_t>::max() - 1);
  CHECK(failures == 0);

  // The buffer bound holds for the widest values.
  char buf[jview::k_max_int_chars + 8];
  std::memset(buf, 0x55, sizeof buf);
  jview::write_int64(std::numeric_limits<std::int64_t>::min(), buf);
  jview::write_int64(-1844674407370955161, buf);
  jview::write_uint64(std::numeric_limits<std::uint64_t>::max(), buf);
  bool untouched = true;
  for (std::size_t k = jview::k_max_int_chars; k < sizeof buf; ++k) untouched = untouched && buf[k] == 0x55;
  CHECK(untouched);
}

// ---- literals: write_number_shortest (splitter, digits or Eisel-Lemire) and decimal_to_double against fast_float ----

namespace {

double reference_double(const std::string& lit) {
  double d = 0;
  const auto r = fast_float::from_chars(lit.data(), lit.data() + lit.size(), d);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return 0;
  if (std::isinf(d)) d = d > 0 ? DBL_MAX : -DBL_MAX;
  return d;
}

std::string g_first_literal_failure;
bool check_literal(const std::string& lit) {
  const double want = reference_double(lit);
  const double got = jview::number_to_double(lit);
  char a[jview::k_max_double_chars], b[jview::k_max_double_chars];
  const std::string_view fast(a, static_cast<std::size_t>(jview::write_number_shortest(lit, a) - a));
  const std::string_view slow(b, static_cast<std::size_t>(jview::write_double_shortest(want, b) - b));
  bool ok = std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(want) && fast == slow;
  // Eisel-Lemire on every literal that splits (write_number_shortest uses it for short ones only).
  jview::detail::decimal_literal d;
  double v;
  if (jview::detail::split_decimal(lit, d) && d.w != 0 && jview::detail::decimal_to_double(d.w, d.q, v))
    ok = ok && (d.neg ? -v : v) == want;
  if (!ok && g_first_literal_failure.empty())
    g_first_literal_failure = "literal '" + lit + "' wrote '" + std::string(fast) + "' want '" + std::string(slow) + "'";
  return ok;
}

std::string random_digits(std::mt19937_64& rng, int n, bool nonzero_first) {
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>('0' + (i == 0 && nonzero_first ? 1 + rng() % 9 : rng() % 10));
  return s;
}

}  // namespace

TEST_CASE("literal_to_double_and_shortest_against_fast_float") {
  std::mt19937_64 rng(11);
  long failures = 0;
  for (int i = 0; i < 2000000 / k_samples_divisor; ++i) {
    std::string lit = rng() % 2 ? "-" : "";
    const int int_digits = static_cast<int>(rng() % 4 == 0 ? 0 : 1 + rng() % 20);
    lit += int_digits == 0 ? "0" : random_digits(rng, int_digits, true);
    if (rng() % 4 != 0) {
      const int lead_zeros = rng() % 3 == 0 ? static_cast<int>(rng() % 8) : 0;
      lit += "." + std::string(static_cast<std::size_t>(lead_zeros), '0') +
             random_digits(rng, static_cast<int>(1 + rng() % 20), false);
    }
    if (rng() % 2 == 0) {
      const int e = static_cast<int>(rng() % 700) - 350;
      lit += (rng() % 2 ? "e" : "E") + std::string(e >= 0 && rng() % 2 ? "+" : "") + std::to_string(e);
    }
    failures += !check_literal(lit);
  }
  // Every double's 17-digit and shortest texts (Eisel-Lemire's hard cases are near halfway points).
  for (int i = 0; i < 300000 / k_samples_divisor; ++i) {
    const double v = from_bits(rng() & ~(std::uint64_t{1} << 63));
    if (!std::isfinite(v)) continue;
    char buf[64];
    failures += !check_literal(std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr));
    failures += !check_literal(
        std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 16).ptr));
    // Halfway between v and its successor, 17+ digits: rounds to even.
    const double next = std::nextafter(v, INFINITY);
    if (std::isfinite(next) && v >= 1e-300) {
      failures += !check_literal(std::string(
          buf, std::to_chars(buf, buf + sizeof buf, v / 2 + next / 2, std::chars_format::scientific, 18).ptr));
    }
  }
  // Exact halfway integers (2^53 + 1, ...), the normal-range edges of the 15-digit path, and odd shapes.
  for (std::uint64_t m = (std::uint64_t{1} << 53) - 3; m < (std::uint64_t{1} << 53) + 40; ++m)
    failures += !check_literal(std::to_string(m)) + !check_literal(std::to_string(m) + "e3");
  for (int e = -330; e <= 330; ++e) {
    for (const char* m : {"1", "9.99999999999999", "123456789012345", "2.2250738585072014", "4.9", "1.7976931348623157",
                          "1.7976931348623158", "0.000001", "100"})
      failures += !check_literal(std::string(m) + "e" + std::to_string(e));
  }
  for (const char* lit : {"0", "-0", "0.0", "-0.0", "0e99999", "-0e-5", "1.", ".5", "-.5", "1.e5", "1e", "1e+", "-",
                          "", ".", "x", "1x", "+1", "00012", "1e0000001", "1e1000000", "123456789012345678901234567890",
                          "0.00000000000000000000000000001", "1E5", "1e-5", "1e+17", "1e16", "100000000000000000000"})
    failures += !check_literal(lit);
  INFO(g_first_literal_failure);
  CHECK(failures == 0);
}
