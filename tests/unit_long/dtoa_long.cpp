// Long test for core/dtoa (`make test-numbers`): 100M doubles (random bit patterns, subnormals, powers of two and
// their neighbours, short decimals, integers) through jview::write_double_shortest, each checked against
// std::to_chars (same significant digits and decimal exponent), strtod round trip (same bits) and the portable digit
// path (same bytes). Prints the pass count; exit status 1 on any failure. Usage: dtoa_long [--count N] [--seed S]
#include "core/dtoa.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string_view>

namespace {

// Significant digits (no leading or trailing zeros, NUL-terminated) and the decimal exponent of the first digit.
struct sci {
  char digits[40];
  int exponent;
};

// Reads "-12.5", "0.00012", "1.5e+300", "12000" (jq layout) or to_chars' scientific text into sci form.
sci parse_text(std::string_view s) {
  sci r{};
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  int exp = 0;
  const std::size_t e_at = s.find('e');
  if (e_at != std::string_view::npos) {
    std::from_chars(s.data() + e_at + (s[e_at + 1] == '+' ? 2 : 1), s.data() + s.size(), exp);
    s = s.substr(0, e_at);
  }
  char all[40];
  int len = 0;
  int point = -1;
  for (char ch : s) {
    if (ch == '.') {
      point = len;
    } else if (len < 39) {
      all[len++] = ch;
    }
  }
  if (point < 0) point = len;
  int first = 0;
  while (first < len && all[first] == '0') ++first;
  if (first == len) {
    std::memcpy(r.digits, "0", 2);
    return r;
  }
  int last = len - 1;
  while (all[last] == '0') --last;
  std::memcpy(r.digits, all + first, static_cast<std::size_t>(last - first + 1));
  r.digits[last - first + 1] = '\0';
  r.exponent = exp + point - first - 1;
  return r;
}

long g_failures = 0;

void check(double v) {
  if (!std::isfinite(v)) return;
  char out[jview::k_max_double_chars + 1];
  char port[jview::k_max_double_chars + 1];
  char ref[64];
  char* end = jview::write_double_shortest(v, out);
  char* pend = jview::detail::write_double_portable(v, port);
  const auto rr = std::to_chars(ref, ref + sizeof ref, v, std::chars_format::scientific);
  const std::string_view text(out, static_cast<std::size_t>(end - out));
  const sci got = parse_text(text);
  const sci want = parse_text(std::string_view(ref, static_cast<std::size_t>(rr.ptr - ref)));
  *end = '\0';
  const double back = std::strtod(out, nullptr);
  const bool ok = text == std::string_view(port, static_cast<std::size_t>(pend - port)) &&
                  std::strcmp(got.digits, want.digits) == 0 && got.exponent == want.exponent &&
                  std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(v);
  if (!ok && g_failures++ < 20) {
    std::fprintf(stderr, "FAIL %.17g (bits %016llx): wrote '%s', to_chars %.*s\n", v,
                 static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v)), out,
                 static_cast<int>(rr.ptr - ref), ref);
  }
}

}  // namespace

int main(int argc, char** argv) {
  long long count = 100000000;
  std::uint64_t seed = 20240601;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--count") == 0) count = std::atoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::mt19937_64 rng(seed);
  long long done = 0;
  const auto report = [&](const char* what, long long n) {
    done += n;
    std::fprintf(stderr, "%-32s %12lld checked, %ld failures so far\n", what, n, g_failures);
  };
  // Powers of two, their neighbours and the ends of each binade: every exponent.
  long long n = 0;
  for (std::uint64_t sign = 0; sign < 2; ++sign) {
    for (std::uint64_t e = 0; e < 2047; ++e) {
      const std::uint64_t base = (sign << 63) | (e << 52);
      for (std::uint64_t d = 0; d < 64; ++d, n += 2) {
        check(std::bit_cast<double>(base + d));
        check(std::bit_cast<double>(base + ((std::uint64_t{1} << 52) - 1 - d)));
      }
    }
  }
  report("powers of two and binade ends", n);
  // Subnormals: 10% of the count.
  n = count / 10;
  for (long long i = 0; i < n; ++i) check(std::bit_cast<double>(rng() >> 12 >> (rng() % 52)));
  report("subnormals", n);
  // Short decimals: 20%: 1 to 17 random digits at a random decimal exponent, read with strtod.
  n = count / 5;
  for (long long i = 0; i < n; ++i) {
    char buf[48];
    const int ndig = 1 + static_cast<int>(rng() % 17);
    std::uint64_t p = 1;
    for (int k = 0; k < ndig; ++k) p *= 10;
    const auto r1 = std::to_chars(buf, buf + 40, rng() % p);
    *r1.ptr = 'e';
    const auto r2 = std::to_chars(r1.ptr + 1, buf + 47, static_cast<int>(rng() % 650) - 340);
    *r2.ptr = '\0';
    check(std::strtod(buf, nullptr));
  }
  report("short decimals", n);
  // Integers of every width: 10%.
  n = count / 10;
  for (long long i = 0; i < n; ++i) check(static_cast<double>(rng() >> (rng() % 64)));
  report("integers", n);
  // Random bit patterns: the rest.
  n = count - done;
  for (long long i = 0; i < n; ++i) check(std::bit_cast<double>(rng()));
  report("random bit patterns", n);
  std::printf("dtoa_long: %lld doubles, %lld passed, %ld failed\n", done, done - g_failures, g_failures);
  return g_failures == 0 ? 0 : 1;
}
