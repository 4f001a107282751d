// tests/unit/simd/minify_test.cpp: the minify kernels (simd/minify.hpp) against a byte-at-a-time reference, on
// random texts of every length 0..200 (strings holding whitespace, escaped quotes and backslash runs, quotes at
// every position of a block), fed in random splits of blocks so the state crosses calls. (The writer's use of them
// is tested in tests/unit/core/writer_minify_test.cpp.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "simd/minify.hpp"
#include "test_support.hpp"

using namespace jview;
using jview::simd::test::rng;

namespace {

// Whitespace outside strings dropped; inside strings a backslash escapes the next byte.
std::string reference(const std::string& s) {
  std::string r;
  bool in = false, escaped = false;
  for (const char c : s) {
    if (in && !escaped && c == '"') {
      in = false;
    } else if (!in && c == '"') {
      in = true;
    } else {
      escaped = in && !escaped && c == '\\';
      if (!in && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) continue;
      r += c;
      continue;
    }
    escaped = false;
    r += c;
  }
  return r;
}

// Bytes that matter to the kernels: quotes, backslash runs (inside strings only, as in valid JSON; runs of odd and
// even length, escaping quotes, spaces and backslashes), the four whitespace bytes, other bytes below and above
// 0x20 inside strings (a control byte cannot be outside one in valid JSON, but the kernels must keep it), non-ASCII.
std::string random_text(rng& r, std::size_t len) {
  static const char alphabet[] = {'"', '"', '"', ' ', ' ', ' ', '\n', '\t', '\r', '{', '}', '[', ']', ':', ',',
                                  'a', '1', '\x7e', '\x80', '\xff', '\x21', '\\', '\\'};
  std::string s;
  bool in = false;
  while (s.size() < len) {
    char c = alphabet[r.below(sizeof alphabet)];
    if (in && r.below(8) == 0) c = static_cast<char>(r.below(0x20));  // control bytes only inside strings
    if (!in && static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') c = ' ';
    if (c == '\\') {
      if (!in) continue;
      const std::size_t run = 1 + r.below(4);
      s.append(run, '\\');
      if (run % 2 == 1) s += "\" n\\"[r.below(4)];  // the escaped byte
      continue;
    }
    if (c == '"') in = !in;
    s += c;
  }
  return s;
}

// Runs kernel k over s (padded with spaces to whole blocks) in random splits of whole blocks.
std::string run(const simd::minify_kernel& k, const std::string& s, rng& r) {
  std::string padded = s;
  padded.append((64 - s.size() % 64) % 64, ' ');
  std::string out(padded.size() + 64, '\0');
  const auto* p = reinterpret_cast<const unsigned char*>(padded.data());
  std::size_t blocks = padded.size() / 64;
  char* o = out.data();
  simd::minify_state st;
  while (blocks != 0) {
    const std::size_t step = 1 + r.below(static_cast<std::uint32_t>(blocks));
    o = k.run(p, step, o, st);
    p += step * 64;
    blocks -= step;
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
  // Padding spaces after an unterminated string are kept: cut them (the reference has none).
  if (st.in_string != 0) out.resize(out.size() - (padded.size() - s.size()));
  return out;
}

std::vector<const simd::minify_kernel*> kernels() {
  const simd::minify_kernel* ks[8];
  const std::size_t n = simd::minify_kernels(ks, 8);
  return {ks, ks + n};
}

}  // namespace

TEST_CASE("minify: every kernel equals the reference on random texts of every length") {
  const auto ks = kernels();
  REQUIRE_FALSE(ks.empty());
  CHECK(std::string_view(ks.back()->name) == "portable");
  rng r(0x6d696e6966ull);
  std::size_t compared = 0;
  for (std::size_t len = 0; len <= 200; ++len) {
    for (int rep = 0; rep < 40; ++rep) {
      const std::string s = random_text(r, len);
      const std::string want = reference(s);
      for (const simd::minify_kernel* k : ks) {
        INFO("kernel ", k->name, " length ", len);
        CHECK(run(*k, s, r) == want);
        ++compared;
      }
    }
  }
  CHECK(compared >= 201 * 40);
}

TEST_CASE("minify: a string open across many blocks keeps its whitespace") {
  std::string s = "[\"" + std::string(300, ' ') + "x" + std::string(70, '\n') + "\" , 1 ]";
  rng r(7);
  for (const simd::minify_kernel* k : kernels()) {
    INFO("kernel ", k->name);
    CHECK(run(*k, s, r) == reference(s));
  }
}
