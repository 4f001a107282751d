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
  return d;  // beyond the double range: +/-infinity, as jq 1.8 (printed as +/-DBL_MAX)
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

// ---- long plain literals: write_number_shortest's text taken from the literal (detail::write_long_literal_shortest)
// against write_double_shortest(fast_float(literal)), on millions of literals of that shape and around it ----

namespace {

// Plain text of 0.d1d2...dn * 10^point10 (digits without a point; point10 = digits before the point, may be <= 0
// for leading zeros after "0.", or >= n for an integer), with an optional sign.
std::string plain_literal(bool neg, const std::string& digits, int point10) {
  std::string s = neg ? "-" : "";
  if (point10 <= 0) {
    s += "0." + std::string(static_cast<std::size_t>(-point10), '0') + digits;
  } else if (point10 >= static_cast<int>(digits.size())) {
    s += digits + std::string(static_cast<std::size_t>(point10 - static_cast<int>(digits.size())), '0');
  } else {
    s += digits.substr(0, static_cast<std::size_t>(point10)) + "." + digits.substr(static_cast<std::size_t>(point10));
  }
  return s;
}

// The significant digits and decimal exponent of printf's "%.*e" text ("6.5613616999999977e+01" -> "65613616999999977",
// point10 = 2).
void split_sci(const char* text, std::string& digits, int& point10) {
  digits.clear();
  const char* p = text;
  while (*p != 'e') {
    if (*p >= '0' && *p <= '9') digits += *p;
    ++p;
  }
  point10 = std::atoi(p + 1) + 1;
}

struct long_literal_stats {
  long checked = 0;
  long taken = 0;  // written by the literal path (not nullptr)
  long failures = 0;
  std::string first;
};

void check_long_literal(const std::string& lit, long_literal_stats& st) {
  const double want = reference_double(lit);
  char a[jview::k_max_double_chars], b[jview::k_max_double_chars], c[jview::k_max_double_chars];
  const std::string_view got(a, static_cast<std::size_t>(jview::write_number_shortest(lit, a) - a));
  const std::string_view ref(b, static_cast<std::size_t>(jview::write_double_shortest(want, b) - b));
  const char* end = jview::detail::write_long_literal_shortest(lit, c);
  ++st.checked;
  bool ok = got == ref;
  if (end != nullptr) {
    ++st.taken;
    ok = ok && std::string_view(c, static_cast<std::size_t>(end - c)) == ref;
  }
  if (!ok && st.failures++ == 0)
    st.first = "literal '" + lit + "' wrote '" + std::string(got) + "' want '" + std::string(ref) + "'";
}

// A run of n digits, random or (one time in four) with long runs of '0' or '9' (trailing zeros, carries).
std::string pattern_digits(std::mt19937_64& rng, int n) {
  std::string s = random_digits(rng, n, true);
  const unsigned kind = static_cast<unsigned>(rng() % 8);
  if (kind < 2 && n > 2) {
    const int from = 1 + static_cast<int>(rng() % static_cast<unsigned>(n - 1));
    for (int i = from; i < n; ++i) s[static_cast<std::size_t>(i)] = kind == 0 ? '0' : '9';
    if (rng() % 2 != 0 && from < n - 1) s[static_cast<std::size_t>(n - 1)] = static_cast<char>('0' + rng() % 10);
  }
  return s;
}

}  // namespace

TEST_CASE("long_literal_shortest_random_shapes") {
  // [-]I.F with 15 to 20 significant digits, 0 to 8 integer digits (0: "0.", with up to 4 zeros after the point):
  // the literal path's shape and its edges (lengths 16 to 23, the point beyond the first word, 20 digits).
  std::mt19937_64 rng(2024);
  long_literal_stats st;
  for (int i = 0; i < 3000000 / k_samples_divisor; ++i) {
    const int nd = 15 + static_cast<int>(rng() % 6);
    const int int_digits = static_cast<int>(rng() % 9);
    const int point10 = int_digits == 0 ? -static_cast<int>(rng() % 5) : int_digits;
    check_long_literal(plain_literal(rng() % 2 != 0, pattern_digits(rng, nd), point10), st);
  }
  INFO(st.first);
  CHECK(st.failures == 0);
  CHECK(st.taken > st.checked / 4);
}

TEST_CASE("long_literal_shortest_printed_doubles") {
  // Doubles from 1e-5 to 1e8 printed plainly with 15 to 20 significant digits (canada.json's literals are %.17g),
  // and their shortest forms padded with zeros; most of them take the literal path.
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> log10v(-5.0, 8.0);
  long_literal_stats st, st17;
  char buf[64];
  std::string digits;
  int point10 = 0;
  for (int i = 0; i < 1500000 / k_samples_divisor; ++i) {
    double v = std::pow(10.0, log10v(rng));
    if (rng() % 4 == 0) v = std::nextafter(v, rng() % 2 != 0 ? HUGE_VAL : 0.0);
    const bool neg = rng() % 2 != 0;
    const int precision = 15 + static_cast<int>(rng() % 6);
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
    split_sci(buf, digits, point10);
    // 17 digits from 0.01 to 10^5 (the point within the first 8 bytes; canada.json's range): nearly all taken.
    check_long_literal(plain_literal(neg, digits, point10), precision == 17 && v >= 0.01 && v < 1e5 ? st17 : st);
    // The shortest digits, padded with zeros to 16..19 digits.
    const jview::detail::decimal_fp d = jview::detail::to_decimal_shortest(v);
    std::string sd = std::to_string(d.digits);
    const int p10 = d.exponent + static_cast<int>(sd.size());
    sd += std::string(static_cast<std::size_t>(rng() % 4 + (sd.size() < 16 ? 16 - sd.size() : 0)), '0');
    check_long_literal(plain_literal(neg, sd, p10), st);
  }
  INFO(st.first);
  INFO(st17.first);
  CHECK(st.failures == 0);
  CHECK(st17.failures == 0);
  CHECK(st17.taken > st17.checked * 9 / 10);
}

TEST_CASE("long_literal_shortest_near_rounding_boundaries") {
  // The midpoint between a double and its successor (the edge of both rounding intervals), printed with 16 to 20
  // digits, rounded down, up and to nearest, and one unit of the last digit either way: the literals whose double
  // is decided by the last bits of the product, and whose shortest form sits at an interval edge.
  std::mt19937_64 rng(5150);
  std::uniform_real_distribution<double> log10v(-4.5, 7.5);
  long_literal_stats st;
  char buf[80];
  std::string digits;
  int point10 = 0;
  for (int i = 0; i < 400000 / k_samples_divisor; ++i) {
    const double v = std::pow(10.0, log10v(rng));
    const double next = std::nextafter(v, HUGE_VAL);
    const long double mid = (static_cast<long double>(v) + static_cast<long double>(next)) / 2;
    const int precision = 16 + static_cast<int>(rng() % 5);
    std::snprintf(buf, sizeof buf, "%.*Le", precision - 1, mid);
    split_sci(buf, digits, point10);
    const bool neg = rng() % 2 != 0;
    check_long_literal(plain_literal(neg, digits, point10), st);
    // One unit of the last digit below and above (carries and borrows through the digits included).
    std::string down = digits, up = digits;
    for (std::size_t k = down.size(); k-- > 0;) {
      if (down[k] != '0') { --down[k]; break; }
      down[k] = '9';
    }
    for (std::size_t k = up.size(); k-- > 0;) {
      if (up[k] != '9') { ++up[k]; break; }
      up[k] = '0';
    }
    if (down[0] != '0') check_long_literal(plain_literal(neg, down, point10), st);
    if (up[0] != '0') check_long_literal(plain_literal(neg, up, point10), st);
    // The exact midpoint's digits cut (not rounded) at 19 and 20 digits.
    std::snprintf(buf, sizeof buf, "%.*Le", 29, mid);
    split_sci(buf, digits, point10);
    check_long_literal(plain_literal(neg, digits.substr(0, 19), point10), st);
    check_long_literal(plain_literal(neg, digits.substr(0, 18), point10), st);
  }
  INFO(st.first);
  CHECK(st.failures == 0);
}

TEST_CASE("long_literal_shortest_exact_and_special_values") {
  std::mt19937_64 rng(31337);
  long_literal_stats st;
  char buf[80];
  std::string digits;
  int point10 = 0;
  // Dyadic values with short exact expansions (the double is the literal itself: ties at every digit),
  // written with trailing zeros to 16..20 digits.
  for (int i = 0; i < 300000 / k_samples_divisor; ++i) {
    const int k = static_cast<int>(rng() % 14);
    const double v = std::ldexp(static_cast<double>(rng() % (std::uint64_t{1} << (10 + rng() % 30))) + 1, -k);
    if (v >= 1e7) continue;
    std::snprintf(buf, sizeof buf, "%.*e", 15 + static_cast<int>(rng() % 5), v);
    split_sci(buf, digits, point10);
    check_long_literal(plain_literal(rng() % 2 != 0, digits, point10), st);
  }
  // Around powers of two (c = 2^52 and 2^53 - 1: uneven intervals) and of ten, 16 to 20 digits.
  for (int e = -14; e <= 23; ++e) {
    for (int d = -40; d <= 40; ++d) {
      const double p = std::ldexp(1.0, e);
      double v = p;
      for (int s = 0; s < (d < 0 ? -d : d); ++s) v = std::nextafter(v, d < 0 ? 0.0 : HUGE_VAL);
      for (int precision = 16; precision <= 20; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
        split_sci(buf, digits, point10);
        check_long_literal(plain_literal(false, digits, point10), st);
        check_long_literal(plain_literal(true, digits, point10), st);
      }
    }
  }
  for (int e = -4; e <= 6; ++e) {
    for (int nd = 16; nd <= 20; ++nd) {
      // 0.99..9, 1.00..01, 9.99..9, 10.0..0 and neighbours of 10^e.
      const auto run = [](int k, char ch) { return std::string(static_cast<std::size_t>(k), ch); };
      check_long_literal(plain_literal(false, run(nd, '9'), e), st);
      check_long_literal(plain_literal(true, "1" + run(nd - 2, '0') + "1", e + 1), st);
      check_long_literal(plain_literal(false, "1" + run(nd - 1, '0'), e + 1), st);
      check_long_literal(plain_literal(false, run(nd - 1, '9') + "5", e), st);
      check_long_literal(plain_literal(true, "1" + run(nd - 2, '0') + "5", e + 1), st);
    }
  }
  // Odd shapes of the right length: not taken (or taken only when they mean the same number).
  for (const char* lit :
       {"1.0000000000000000",     "0.10000000000000000",     "-0.12345678901234567",   "00.123456789012345678",
        "-00.12345678901234567",  "1.2345678901234567e1",    "12345678901234567890",   "123456789.123456789",
        "1234567.1234567890123",  "0.0001234567890123456",   "0.00001234567890123456", ".12345678901234567890",
        "1.234567890123456789.",  "1..34567890123456789",    "1.23456789012345678x",   "-.123456789012345678",
        "+1.2345678901234567",    "1.2345678901234567 ",     "1.23456789O12345678",    "0.00000000000000000000",
        "-0.000000000000000000",  "9999999.999999999999",    "0.99999999999999999999", "4.9406564584124654e-324",
        "1797693134862315.7081",  "179769313486231570.81",   "0.30000000000000004441", "2.2250738585072014e-308"})
    check_long_literal(lit, st);
  INFO(st.first);
  CHECK(st.failures == 0);
}

TEST_CASE("long_literal_shortest_hard_cases") {
  // Doubles whose rounding-interval edge (the midpoint (2c +- 1) 2^(e-1)) or whose center c 2^e lies within
  // 2^-N units of 10^-s of a multiple (or a half multiple) of 10^-s, N up to 53, for every binade from 2^-14 to 2^23
  // and the 10^-s around the 15th to 18th significant digit: the comparisons the literal path makes in fixed point
  // are then as close as they can be (it must fall back, or decide right). Chosen with 5^-s modulo 2^N:
  // (2c + 1) 5^s = t (mod 2^N) for small odd t, c 5^s = 2^(N-1) + t (mod 2^N) for small t.
  std::mt19937_64 rng(4242);
  long_literal_stats st;
  char buf[80];
  std::string digits;
  int point10 = 0;
  const auto print_all = [&](long double x, bool neg) {
    for (int precision = 16; precision <= 20; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*Le", precision - 1, x);
      split_sci(buf, digits, point10);
      check_long_literal(plain_literal(neg, digits, point10), st);
    }
  };
  for (int e = -66; e <= -29; ++e) {        // v = c 2^e, 2^52 <= c < 2^53: v from 2^-14 to 2^24
    const int x10 = static_cast<int>(std::floor((e + 52) * 0.30103));  // about floor(log10 v)
    for (int s = 14 - x10; s <= 19 - x10; ++s) {
      std::uint64_t p5 = 1;
      for (int k = 0; k < s; ++k) p5 *= 5;
      std::uint64_t inv = p5;  // 5^s * inv = 1 (mod 2^64), by Newton's iteration
      for (int k = 0; k < 6; ++k) inv *= 2 - p5 * inv;
      for (const int n : {1 - e - s, -e - s}) {  // modulus bits for the edges, for the center
        if (n < 2 || n > 53) continue;
        const std::uint64_t mask = (std::uint64_t{1} << n) - 1;
        for (const std::int64_t t : {1, 3, 5, -1, -3, -5, 0, 2, -2}) {
          std::uint64_t c0;
          if (n == 1 - e - s) {
            if (t % 2 == 0) continue;
            const std::uint64_t odd = (static_cast<std::uint64_t>(t) * inv) & mask;  // 2c + 1 (mod 2^n)
            c0 = (odd >> 1) & (mask >> 1);                                         // c (mod 2^(n-1))
            for (int k = 0; k < 3; ++k) {
              const std::uint64_t step = std::uint64_t{1} << (n - 1);
              std::uint64_t c = c0 + ((std::uint64_t{1} << 52) - c0 + step - 1) / step * step;
              c += step * (rng() % 4);
              if (c >= (std::uint64_t{1} << 53)) continue;
              const double v = std::ldexp(static_cast<double>(c), e);
              const long double mid =
                  (static_cast<long double>(v) + static_cast<long double>(std::nextafter(v, HUGE_VAL))) / 2;
              print_all(mid, k == 1);
              print_all(v, k == 2);
            }
          } else {
            const std::uint64_t c_mod = (((std::uint64_t{1} << (n - 1)) + static_cast<std::uint64_t>(t)) * inv) & mask;
            const std::uint64_t step = std::uint64_t{1} << n;
            for (int k = 0; k < 3; ++k) {
              std::uint64_t c = c_mod + ((std::uint64_t{1} << 52) - c_mod + step - 1) / step * step;
              c += step * (rng() % 4);
              if (c >= (std::uint64_t{1} << 53)) continue;
              print_all(std::ldexp(static_cast<long double>(c), e), k == 1);
            }
          }
        }
      }
    }
  }
  INFO(st.first);
  CHECK(st.failures == 0);
  CHECK(st.checked > 10000);
}
