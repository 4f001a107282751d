// tests/unit/simd/structural_test.cpp: stage 1 of the two-stage parser (simd/structural.hpp) against a scalar
// reference: token positions (structural characters and both quotes outside strings, scalar starts), the closing
// quotes of strings holding a backslash or DEL (and which of them hold DEL or escapes the parser must check), escape runs across 64-byte blocks and batches, and the early end
// at a control byte inside a string. Every stage-1 kernel this CPU can run is checked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "simd/structural.hpp"
#include "test_support.hpp"

using namespace jview::simd;

namespace {

struct listing {
  std::vector<std::uint64_t> tokens;
  std::vector<std::uint64_t> specials;
  std::vector<std::uint64_t> checked;  // the specials flagged k_special_checked
  bool failed = false;
};

bool is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_op(unsigned char c) { return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','; }
bool simple_escape(unsigned char c) {
  return c == '"' || c == '\\' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't';
}

// The definitions of simd/structural.hpp, a byte at a time (ASCII input without 0x0c and 0x1a, which the AVX-512
// kernel may count as structural). Backslashes escape the next byte everywhere, also outside strings (where they
// are errors anyway): stage 1 does not know where strings are before it knows which quotes are escaped.
listing reference(const std::string& s) {
  listing r;
  bool in_string = false, escaped = false, special = false, checked = false, prev_scalar = false;
  std::uint64_t fail = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool esc = escaped;
    escaped = c == '\\' && !esc;
    if (in_string) {
      if (c == '\\' || c == 0x7f) special = true;
      if (c == 0x7f || (esc && !simple_escape(c))) checked = true;
      if (c == '"' && !esc) {
        in_string = false;
        r.tokens.push_back(i);
        if (special) r.specials.push_back(i);
        if (checked) r.checked.push_back(i);
        prev_scalar = false;
        continue;
      }
      if (c < 0x20 && fail == s.size()) fail = i;
      continue;
    }
    if (c == '"' && !esc) {
      in_string = true;
      special = checked = false;
      r.tokens.push_back(i);
      prev_scalar = false;
    } else if (is_op(c)) {
      r.tokens.push_back(i);
      prev_scalar = false;
    } else if (is_ws(c)) {
      prev_scalar = false;
    } else {
      if (!prev_scalar) r.tokens.push_back(i);
      prev_scalar = true;
    }
  }
  if (fail != s.size()) {
    r.failed = true;
    while (!r.tokens.empty() && r.tokens.back() >= fail) r.tokens.pop_back();
    while (!r.specials.empty() && r.specials.back() >= fail) r.specials.pop_back();
    while (!r.checked.empty() && r.checked.back() >= fail) r.checked.pop_back();
  }
  return r;
}

listing run(const stage1_kernel* k, const std::string& s, std::uint64_t fail_hint) {
  listing r;
  structural_index ix;
  const char* b = s.data();
  if (!ix.start(k, &validate_utf8_portable, b, b + s.size())) return r;
  do {
    const auto base = static_cast<std::uint64_t>(ix.base() - b);
    for (const std::uint32_t* t = ix.cursor(); t != ix.pos_end(); ++t) r.tokens.push_back(base + *t);
    for (const std::uint32_t* t = ix.special_cursor(); *t != 0xffffffffu; ++t) {
      const std::uint64_t at = base + (*t & ~k_special_checked);
      if (at >= fail_hint) continue;
      r.specials.push_back(at);
      if ((*t & k_special_checked) != 0) r.checked.push_back(at);
    }
  } while (ix.next_batch());
  return r;
}

std::string random_text(test::rng& g, std::size_t len, bool with_ctrl) {
  static const char alphabet[] = "\"\"\"\\\\\\\\{}[],: \n\tax1-\x7f" "bnu/";
  std::string s;
  for (std::size_t i = 0; i < len; ++i) {
    if (with_ctrl && g.below(400) == 0) {
      s += '\x01';
      continue;
    }
    s += alphabet[g.below(sizeof alphabet - 1)];
  }
  return s;
}

void check_all_kernels(const std::string& s) {
  const listing want = reference(s);
  const stage1_kernel* ks[8];
  const std::size_t nk = structural_kernels(ks, 8);
  const std::uint64_t fail_hint = want.failed ? (want.tokens.empty() ? 0 : want.tokens.back() + 1) : s.size();
  for (std::size_t k = 0; k < nk; ++k) {
    listing got = run(ks[k], s, want.failed ? fail_hint : s.size() + 1);
    INFO("kernel " << std::string(ks[k]->name) << " size " << s.size());
    if (got.tokens != want.tokens) {
      std::size_t i = 0;
      while (i < got.tokens.size() && i < want.tokens.size() && got.tokens[i] == want.tokens[i]) ++i;
      INFO("first difference at token " << i << ": got " << (i < got.tokens.size() ? got.tokens[i] : 0) << " want "
                                        << (i < want.tokens.size() ? want.tokens[i] : 0) << " of " << got.tokens.size()
                                        << "/" << want.tokens.size() << " failed " << want.failed);
      if (s.size() < 600) {
        std::string dump;
        for (std::size_t j = 0; j < s.size(); ++j) {
          const auto ch = static_cast<unsigned char>(s[j]);
          dump += std::to_string(j) + ":" + (ch < 0x20 || ch == 0x7f ? std::string("^") + std::to_string(ch) : std::string(1, static_cast<char>(ch))) + " ";
        }
        std::string gt, wt;
        for (auto t : got.tokens) gt += std::to_string(t) + " ";
        for (auto t : want.tokens) wt += std::to_string(t) + " ";
        INFO("text " << dump << "\ngot " << gt << "\nwant " << wt);
        REQUIRE(got.tokens == want.tokens);
      }
      REQUIRE(got.tokens == want.tokens);
    }
    if (want.failed) {
      // Specials are listed up to the failing block; compare those before the last kept token.
      for (auto* v : {&got.specials, &got.checked})
        while (!v->empty() && v->back() >= fail_hint) v->pop_back();
      std::vector<std::uint64_t> w = want.specials, wc = want.checked;
      for (auto* v : {&w, &wc})
        while (!v->empty() && v->back() >= fail_hint) v->pop_back();
      REQUIRE(got.specials == w);
      REQUIRE(got.checked == wc);
    } else {
      REQUIRE(got.specials == want.specials);
      REQUIRE(got.checked == want.checked);
    }
  }
}

}  // namespace

TEST_CASE("stage 1: a vector kernel runs on x86-64 and AArch64, and the portable one everywhere") {
  const stage1_kernel* ks[8];
  const std::size_t nk = structural_kernels(ks, 8);
  REQUIRE(nk >= 1);
  CHECK(std::string(ks[nk - 1]->name) == "portable");
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(JVIEW_PORTABLE_ONLY)
  CHECK(nk >= 2);
#endif
#if defined(__aarch64__) && !defined(JVIEW_PORTABLE_ONLY)
  CHECK(std::string(ks[0]->name) == "neon");
  CHECK(active_kernels().structure == ks[0]);  // the two-stage parser's kernel on AArch64
#endif
  for (std::size_t k = 0; k < nk; ++k) MESSAGE("stage-1 kernel: " << std::string(ks[k]->name));
}

TEST_CASE("stage 1: tokens and special strings match the scalar reference on random blocks") {
  test::rng g(2019);
  for (int round = 0; round < 4000; ++round) {
    const std::size_t len = 1 + g.below(round % 10 == 0 ? 700 : 200);
    check_all_kernels(random_text(g, len, round % 3 == 0));
  }
}

TEST_CASE("stage 1: usual blocks (no backslash, DEL or non-ASCII byte), alone or two a step, and the switch to others") {
  // The kernels take blocks without a backslash, DEL or non-ASCII byte on a path of their own, two at a time when
  // the next is one too (stage1.inl); random_text's backslashes put nearly every block on the other path. Half the
  // rounds have control bytes (newlines and tabs too, an error inside a string), half non-ASCII bytes: a block with
  // both may end its tokens where its non-ASCII bytes start, before the exact failure the reference gives.
  test::rng g(2026);
  static const char with_ctrl[] = "\"\"{}[],: \n\tax1-e.";
  static const char without_ctrl[] = "\"\"{}[],:  ax1-e.";
  static const char* rare_ctrl[] = {"\x01", "\\", "\\\"", "\x7f", "\x1f"};
  static const char* rare_utf8[] = {"\xc3\xa9", "\\", "\\\"", "\x7f", "\xe2\x82\xac"};
  for (int round = 0; round < 4000; ++round) {
    const bool ctrl = round % 2 == 0;
    const char* alphabet = ctrl ? with_ctrl : without_ctrl;
    const std::size_t letters = ctrl ? sizeof with_ctrl - 1 : sizeof without_ctrl - 1;
    const std::size_t len = 1 + g.below(round % 10 == 0 ? 2000 : 400);
    std::string s;
    for (std::size_t i = 0; i < len; ++i) {
      if (g.below(round % 3 == 0 ? 60 : 600) == 0)
        s += (ctrl ? rare_ctrl : rare_utf8)[g.below(5)];
      else
        s += alphabet[g.below(static_cast<std::uint32_t>(letters))];
    }
    check_all_kernels(s);
  }
}

TEST_CASE("stage 1: backslash runs of every length at every offset across a block boundary") {
  for (std::size_t run = 0; run <= 70; ++run)
    for (std::size_t at = 0; at < 130; at += (run > 8 ? 7 : 1)) {
      std::string s(at, ' ');
      s += "\"";
      s += std::string(run, '\\');
      s += "\" ,1 \"x\" ";
      s += std::string(70, ' ');
      check_all_kernels(s);
    }
}

TEST_CASE("stage 1: batch boundaries (strings, escapes and scalars across them)") {
  test::rng g(7);
  // Batches: k_first_batch bytes, then doubling up to k_batch.
  const std::size_t batch = structural_index::k_batch;
  std::size_t boundary = 0;
  for (std::size_t size = structural_index::k_first_batch; boundary < 3 * batch; size = std::min(size * 2, batch)) {
    boundary += size;
    for (std::size_t at = boundary - 70; at <= boundary + 70; at += (boundary > batch ? 3 : 1)) {
      std::string s(at, ' ');
      s += "\"ab\\\"c\" 123 [\"\\\\\"]";
      s += random_text(g, 200, false);
      check_all_kernels(s);
    }
  }
  // Long random text over several batches.
  check_all_kernels(random_text(g, 3 * batch + 17, false));
}

TEST_CASE("stage 1: long strings (their plain blocks skipped) with an escape, quote, control byte, DEL or UTF-8 inside") {
  test::rng g(11);
  static const char* inserts[] = {"\\n", "\\\"", "\\u0041", "\\\\", "\x01", "\x7f", "\xc3\xa9", "\\"};
  for (int round = 0; round < 600; ++round) {
    std::string body(64 + g.below(round % 20 == 0 ? 40000 : 3000), 'a');
    for (std::size_t i = 0; i < body.size(); i += 1 + g.below(50)) body[i] = static_cast<char>('a' + g.below(26));
    const int n = static_cast<int>(g.below(4));
    for (int k = 0; k < n; ++k) body.insert(g.below(static_cast<std::uint32_t>(body.size())), inserts[g.below(8)]);
    std::string s = std::string(g.below(130), ' ') + "[\"" + body + "\", 1, \"" + body.substr(0, g.below(300)) + "\"]";
    check_all_kernels(s);
  }
}

TEST_CASE("stage 1: UTF-8 sequences complete or cut off at a block's end, then an ASCII block") {
  // The block after a non-ASCII one, when it is ASCII, is only tested for a sequence cut off by its start.
  static const char* whole[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f", "a"};
  static const char* cut[] = {"\xc3", "\xe2", "\xe2\x82", "\xf0", "\xf0\x9f", "\xf0\x9f\x98"};
  const stage1_kernel* ks[8];
  const std::size_t nk = structural_kernels(ks, 8);
  for (std::size_t block_end : {64u, 128u, 192u}) {
    for (int shift = 0; shift < 3; ++shift) {  // the sequence ends 0-2 bytes before the block's end
      for (const bool complete : {true, false}) {
        for (const char* piece : complete ? std::vector<const char*>(std::begin(whole), std::end(whole))
                                          : std::vector<const char*>(std::begin(cut), std::end(cut))) {
          std::string s = "[\"";
          s += "\xc3\xa9";  // a non-ASCII block before, whatever the piece
          s.append(block_end - shift - std::strlen(piece) - s.size(), 'x');
          s += piece;
          s.append(static_cast<std::size_t>(shift), 'y');
          REQUIRE(s.size() == block_end);
          s += std::string(100, 'z') + "\", 1]";
          const std::size_t f = validate_utf8_portable(s.data(), s.size());
          CHECK((f == s.size()) == complete);
          const listing want = reference(s);
          for (std::size_t k = 0; k < nk; ++k) {
            INFO("kernel " << std::string(ks[k]->name) << " block end " << block_end << " shift " << shift);
            const listing got = run(ks[k], s, s.size() + 1);
            if (complete) {
              CHECK(got.tokens == want.tokens);
            } else {  // the string's closing quote and what follows it are not listed
              CHECK(got.tokens.size() < want.tokens.size());
              if (!got.tokens.empty()) CHECK(got.tokens.back() < f);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("stage 1: UTF-8 is validated: no token at or after the first invalid sequence survives") {
  test::rng g(8);
  static const char* pieces[] = {"\"", "\"", "\\", "{", "}", "[", "]", ",", ":", " ", "a", "1", "\xc3\xa9",
                                 "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"};
  static const char* bad[] = {"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\x80"};
  const stage1_kernel* ks[8];
  const std::size_t nk = structural_kernels(ks, 8);
  std::size_t invalid = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string s;
    const std::size_t len = 1 + g.below(round % 10 == 0 ? 3000 : 300);
    while (s.size() < len) s += pieces[g.below(sizeof pieces / sizeof *pieces)];
    if (round % 2 == 1) s.insert(g.below(static_cast<std::uint32_t>(s.size()) + 1), bad[g.below(sizeof bad / sizeof *bad)]);
    const listing want = reference(s);
    const std::size_t f = validate_utf8_portable(s.data(), s.size());
    invalid += f != s.size();
    for (std::size_t k = 0; k < nk; ++k) {
      INFO("kernel " << std::string(ks[k]->name) << " size " << s.size() << " invalid at " << f);
      const listing got = run(ks[k], s, s.size() + 1);
      if (f == s.size()) {
        REQUIRE(got.tokens == want.tokens);
        continue;
      }
      // A prefix of the reference list, ending before the invalid sequence and not before the block holding it
      // (less three bytes: the per-block check blames a sequence from the block's first byte).
      REQUIRE(got.tokens.size() <= want.tokens.size());
      REQUIRE(std::equal(got.tokens.begin(), got.tokens.end(), want.tokens.begin()));
      if (!got.tokens.empty()) REQUIRE(got.tokens.back() < f);
      const std::size_t lo = f / 64 * 64 >= 3 ? f / 64 * 64 - 3 : 0;
      for (std::uint64_t t : want.tokens)
        if (t < lo) REQUIRE(std::find(got.tokens.begin(), got.tokens.end(), t) != got.tokens.end());
    }
  }
  CHECK(invalid > 1000);
}
