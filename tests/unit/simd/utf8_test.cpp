// tests/unit/simd/utf8_test.cpp: UTF-8 validation. The portable validator against hand-written cases and an
// independent code-point decoder (exhaustive over 1..3-byte sequences); then every kernel this CPU runs against the
// portable one: all short lengths and alignments, every bad sequence across 16/32/64-byte block boundaries, random
// mutated buffers, buffers touching an inaccessible page, and every file of JSONTestSuite and the corpus.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "tests/unit/simd/test_support.hpp"
#include "tests/unit/test_data.hpp"

namespace jview::simd {
namespace {

using test::rng;

std::size_t portable(std::string_view s) { return validate_utf8_portable(s.data(), s.size()); }

// Decodes code points by arithmetic, the way the standard states the rules, sharing no code with simd/.
std::size_t oracle(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t len = s.size();
  std::size_t i = 0;
  while (i < len) {
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n;
    std::uint32_t cp;
    if ((c & 0xe0) == 0xc0) {
      n = 2;
      cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 3;
      cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (len - i < n) return i;
    for (std::size_t k = 1; k < n; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    static constexpr std::uint32_t k_min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < k_min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n;
  }
  return len;
}

// One read of the whole file (istreambuf_iterator goes a byte at a time: seconds for the corpus in a debug build).
std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::string data(ec ? 0 : static_cast<std::size_t>(size), '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

// Checks every runnable kernel against the portable answer; returns the number of disagreements (and reports them).
int compare_kernels(const std::vector<kernel_set>& kernels, const char* p, std::size_t len, const char* what) {
  const std::size_t want = validate_utf8_portable(p, len);
  int bad = 0;
  for (const kernel_set& k : kernels) {
    const std::size_t got = k.validate_utf8(p, len);
    if (got != want) {
      ++bad;
      std::string hex;
      for (std::size_t i = 0; i < len && i < 96; ++i) {
        static constexpr char digits[] = "0123456789abcdef";
        hex += digits[static_cast<unsigned char>(p[i]) >> 4];
        hex += digits[static_cast<unsigned char>(p[i]) & 15];
      }
      INFO(what, ": kernel ", k.name, " len ", len, " bytes ", hex);
      CHECK(got == want);
    }
  }
  return bad;
}

TEST_CASE("utf8_portable: hand-written cases") {
  struct tc {
    std::string_view in;
    std::size_t want;
  };
  const tc cases[] = {
      {"", 0},
      {"abc", 3},
      {"\xc2\x80", 2},
      {"\xdf\xbf", 2},
      {"\xc0\x80", 0},
      {"\xc1\xbf", 0},
      {"\xe0\xa0\x80", 3},
      {"\xe0\x9f\xbf", 0},
      {"\xed\x9f\xbf", 3},          // U+D7FF
      {"\xed\xa0\x80", 0},          // U+D800
      {"\xed\xbf\xbf", 0},          // U+DFFF
      {"\xee\x80\x80", 3},          // U+E000
      {"\xef\xbf\xbf", 3},          // U+FFFF
      {"\xf0\x90\x80\x80", 4},      // U+10000
      {"\xf0\x8f\xbf\xbf", 0},      // overlong U+FFFF
      {"\xf4\x8f\xbf\xbf", 4},      // U+10FFFF
      {"\xf4\x90\x80\x80", 0},      // U+110000
      {"\xf5\x80\x80\x80", 0},
      {"\xff", 0},
      {"a\x80", 1},
      {"ab\xe2\x82", 2},            // truncated by the end
      {"\xe2\x82" "a", 0},          // truncated by a non-continuation
      {"\xf0\x9f\x98", 0},
      {"a\xc3", 1},
      {"\xc3\xa9\xc3", 2},
      {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z", 10},
      {"12345678\xc3\xa9", 10},     // after the 8-byte ASCII step
      {"1234567\x80", 7},
      {"12345678\x80", 8},
  };
  for (const tc& c : cases) {
    INFO("case of length ", c.in.size());
    CHECK(portable(c.in) == c.want);
    CHECK(oracle(c.in) == c.want);
  }
}

TEST_CASE("utf8_portable: agrees with a code-point decoder on every 1-, 2- and 3-byte sequence") {
  char buf[5];
  const auto same = [&buf](std::size_t from, std::size_t len) {
    const std::string_view s(buf + from, len);
    return portable(s) == oracle(s);
  };
  std::size_t checked = 0;
  int mismatches = 0;
  for (unsigned b0 = 0; b0 < 256; ++b0) {
    for (unsigned b1 = 0; b1 < 256; ++b1) {
      // Two bytes alone (often cut short by the end), and after an ASCII byte.
      buf[0] = 'x';
      buf[1] = static_cast<char>(b0);
      buf[2] = static_cast<char>(b1);
      mismatches += !same(1, 2) + !same(0, 3);
      checked += 2;
      // A third byte matters only after a lead of a 3- or 4-byte sequence; E0..FF covers every such lead and the
      // never-valid F5..FF.
      if (b0 < 0xe0) continue;
      for (unsigned b2 = 0; b2 < 256; ++b2) {
        buf[0] = static_cast<char>(b0);
        buf[1] = static_cast<char>(b1);
        buf[2] = static_cast<char>(b2);
        buf[3] = 'y';
        mismatches += !same(0, 4) + !same(0, 3);
        checked += 2;
      }
    }
  }
  // Four bytes: every lead F0..F7 and second byte, with continuation / non-continuation edges after them.
  const unsigned edges[] = {0x00, 0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0, 0xff};
  for (unsigned b0 = 0xf0; b0 < 0xf8; ++b0)
    for (unsigned b1 = 0; b1 < 256; ++b1)
      for (unsigned b2 : edges)
        for (unsigned b3 : edges) {
          buf[0] = static_cast<char>(b0);
          buf[1] = static_cast<char>(b1);
          buf[2] = static_cast<char>(b2);
          buf[3] = static_cast<char>(b3);
          mismatches += !same(0, 4);
          ++checked;
        }
  MESSAGE("sequences checked: ", checked);
  CHECK(mismatches == 0);
}

TEST_CASE("utf8 kernels: the table") {
  const auto all = all_utf8_kernels();
  REQUIRE(!all.empty());
  CHECK(std::string_view(all.back().name) == "portable");
  CHECK(all.back().level == isa::portable);
  CHECK(cpu_supports(isa::portable));
#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
  CHECK(all.size() >= 4);
  CHECK(cpu_supports(isa::sse2));
#endif
#if defined(__aarch64__) && !defined(JVIEW_PORTABLE_ONLY)
  CHECK(std::string_view(all.front().name) == "neon");
  CHECK(cpu_supports(isa::neon));
#endif
  std::string names;
  for (const kernel_set& k : test::runnable_kernels()) {
    names += ' ';
    names += k.name;
  }
  MESSAGE("kernels compared with portable on this CPU:", names);
}

TEST_CASE("utf8 kernels: every length 0..80 at every alignment") {
  const auto kernels = test::runnable_kernels();
  rng r(1);
  alignas(64) static char buf[64 + 128];
  int bad = 0;
  std::size_t calls = 0;
  for (std::size_t len = 0; len <= 80; ++len) {
    for (int kind = 0; kind < 6; ++kind) {
      std::string s;
      switch (kind) {
        case 0: s = std::string(len, 'a'); break;                 // ASCII
        case 1: s = test::random_utf8(r, len, 4); break;          // mixed
        case 2: s = test::random_utf8(r, len, 0); break;          // no ASCII at all
        case 3:                                                   // one random byte changed
          s = test::random_utf8(r, len, 2);
          if (len) s[r.below(static_cast<std::uint32_t>(len))] = static_cast<char>(r.byte());
          break;
        case 4:                                                   // random bytes
          for (std::size_t i = 0; i < len; ++i) s += static_cast<char>(r.byte());
          break;
        default:                                                  // valid, cut anywhere (often mid-sequence)
          s = test::random_utf8(r, len + 3, 0).substr(0, len);
          break;
      }
      for (std::size_t align = 0; align < 64; ++align) {
        std::memcpy(buf + align, s.data(), s.size());
        bad += compare_kernels(kernels, buf + align, s.size(), "short");
        ++calls;
        if (bad > 20) FAIL("too many mismatches");
      }
    }
  }
  MESSAGE("inputs: ", calls, " x ", kernels.size(), " kernels");
  CHECK(bad == 0);
}

TEST_CASE("utf8 kernels: every bad sequence across 16/32/64-byte block boundaries") {
  const auto kernels = test::runnable_kernels();
  rng r(2);
  int bad = 0;
  std::size_t cases = 0;
  const std::size_t boundaries[] = {16, 32, 48, 64, 96, 128, 192};
  for (const std::string& seq : test::bad_sequences()) {
    for (std::size_t boundary : boundaries) {
      // Put the sequence's first byte from 4 before to 4 after the boundary, so it straddles it in every way.
      for (std::size_t pos = boundary - 4; pos <= boundary + 4; ++pos) {
        for (int background = 0; background < 3; ++background) {
          for (int end = 0; end < 2; ++end) {
            const unsigned ascii_weight = background == 0 ? 8 : background == 1 ? 4 : 0;
            std::string s = test::random_utf8(r, pos, ascii_weight) + seq;
            if (end == 0) s += test::random_utf8(r, r.below(80), ascii_weight);
            const std::size_t want = pos;
            CHECK(oracle(s) == want);
            for (const kernel_set& k : kernels) {
              const std::size_t got = k.validate_utf8(s.data(), s.size());
              if (got != want) {
                ++bad;
                INFO("kernel ", k.name, " seq length ", seq.size(), " pos ", pos, " len ", s.size());
                CHECK(got == want);
              }
            }
            ++cases;
          }
        }
      }
    }
  }
  // Valid text that ends exactly at a block boundary with an open sequence (the end-of-input check).
  for (std::size_t len : {16u, 32u, 64u, 128u, 256u}) {
    for (const std::string& cut : {std::string("\xc3"), std::string("\xe2\x82"), std::string("\xf0\x9f\x98")}) {
      std::string s = test::random_utf8(r, len - cut.size(), 4) + cut;
      for (const kernel_set& k : kernels) CHECK(k.validate_utf8(s.data(), s.size()) == len - cut.size());
      ++cases;
    }
  }
  MESSAGE("placements: ", cases, " x ", kernels.size(), " kernels");
  CHECK(bad == 0);
}

TEST_CASE("utf8 kernels: random mutated buffers") {
  const auto kernels = test::runnable_kernels();
  rng r(3);
  const std::size_t n = test::scaled(2'000'000);
  // A pool of valid text to cut buffers from, so generation costs little next to validation.
  const std::string pool = test::random_utf8(r, 1 << 20, 3);
  std::string s;
  int bad = 0;
  std::size_t invalid = 0;
  for (std::size_t iter = 0; iter < n; ++iter) {
    // Mostly short buffers (the parser validates strings), sometimes a few blocks.
    const std::uint32_t len = r.below(8) == 0 ? r.below(600) : r.below(100);
    const std::size_t from = r.below(static_cast<std::uint32_t>(pool.size() - len));
    std::size_t at_start = from;
    // Usually start on a sequence boundary; otherwise the cut start is itself the mutation.
    if (r.below(4) != 0)
      while (at_start > 0 && (static_cast<unsigned char>(pool[at_start]) & 0xc0) == 0x80) --at_start;
    s.assign(pool, at_start, len);  // the end may cut a sequence: another kind of mutation
    const std::uint32_t mutations = r.below(2) == 0 ? 0 : 1 + r.below(3);
    if (mutations == 0 && r.below(2) == 0)  // and half of those end on a boundary: valid text of every length
      s.resize(portable(s));  // the text before the first error is valid
    for (std::uint32_t m = 0; m < mutations && !s.empty(); ++m) {
      const std::size_t at = r.below(static_cast<std::uint32_t>(s.size()));
      switch (r.below(4)) {
        case 0: s[at] = static_cast<char>(r.byte()); break;
        case 1: s[at] = static_cast<char>(s[at] ^ (1 << r.below(8))); break;
        case 2: {
          const auto& seqs = test::bad_sequences();
          s.insert(at, seqs[r.below(static_cast<std::uint32_t>(seqs.size()))]);
          break;
        }
        default: s.erase(at, 1 + r.below(3)); break;
      }
    }
    const std::size_t want = portable(s);
    if (want != s.size()) ++invalid;
    for (const kernel_set& k : kernels) {
      const std::size_t got = k.validate_utf8(s.data(), s.size());
      if (got != want) {
        ++bad;
        INFO("kernel ", k.name, " iteration ", iter, " len ", s.size());
        CHECK(got == want);
        if (bad > 20) FAIL("too many mismatches");
      }
    }
  }
  MESSAGE("buffers: ", n, " (", invalid, " invalid) x ", kernels.size(), " kernels");
  CHECK(bad == 0);
}

TEST_CASE("utf8 kernels: loads stay inside the buffer") {
  const auto kernels = test::runnable_kernels();
  test::guarded_buffer g(512);
  REQUIRE(g.ok());
  rng r(4);
  int bad = 0;
  for (std::size_t len = 0; len <= 300; ++len) {
    for (int kind = 0; kind < 3; ++kind) {
      std::string s = test::random_utf8(r, len, kind == 0 ? 8 : 3);
      if (kind == 2 && len) s[len - 1] = static_cast<char>(0xe2);  // open sequence at the very end
      bad += compare_kernels(kernels, g.place_end(s), s.size(), "end at guard page");
      bad += compare_kernels(kernels, g.place_start(s), s.size(), "start at guard page");
    }
  }
  CHECK(bad == 0);
}

// Every file of a directory tree, validated whole and from a few odd offsets (different alignments, and starts
// inside a sequence).
void check_tree(const std::filesystem::path& root, std::size_t& files, std::size_t& bytes, int& bad) {
  const auto kernels = test::runnable_kernels();
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const std::string data = file_bytes(it->path());
    const std::string name = it->path().filename().string();
    for (std::size_t skip = 0; skip < std::min<std::size_t>(test::scaled(4), 4) && skip <= data.size(); ++skip)
      bad += compare_kernels(kernels, data.data() + skip, data.size() - skip, name.c_str());
    ++files;
    bytes += data.size();
  }
}

TEST_CASE("utf8 kernels: JSONTestSuite test_parsing, the corpus and the own cases") {
  std::size_t files = 0, bytes = 0;
  int bad = 0;
  const auto suite =
      jview::test::shared_subdir("conformance/JSONTestSuite/test_parsing", "utf8 kernels on JSONTestSuite");
  if (!suite.empty()) check_tree(suite, files, bytes, bad);
  const std::size_t suite_files = files;
  const auto corpus = jview::test::shared_subdir("corpus", "utf8 kernels on the benchmark corpus");
  if (!corpus.empty()) check_tree(corpus, files, bytes, bad);
  const std::size_t shared_files = files;
#ifdef JVIEW_SOURCE_DIR
  check_tree(std::filesystem::path(JVIEW_SOURCE_DIR) / "tests/conformance/cases", files, bytes, bad);
#endif
#ifdef JVIEW_OWN_CORPUS_DIR
  check_tree(JVIEW_OWN_CORPUS_DIR, files, bytes, bad);
#endif
  MESSAGE("files: ", files, " (", suite_files, " from JSONTestSuite), bytes: ", bytes);
  if (!suite.empty()) CHECK(suite_files >= 300);
  if (!corpus.empty()) CHECK(shared_files > suite_files);
  CHECK(files > shared_files + 100);  // the own cases (at least)
  CHECK(bad == 0);
}

TEST_CASE("utf8 kernels: exactly the JSONTestSuite files that are not UTF-8, at the offsets Python's decoder gives") {
  // Expected offsets from Python's strict decoder (bytes.decode("utf-8"): UnicodeDecodeError.start), an independent
  // implementation of the same rules; every other file of the suite is valid UTF-8.
  struct expect {
    const char* file;
    std::size_t offset;
  };
  const expect invalid[] = {
      {"i_string_UTF-16LE_with_BOM.json", 0},
      {"i_string_UTF-8_invalid_sequence.json", 7},
      {"i_string_UTF8_surrogate_U+D800.json", 2},
      {"i_string_invalid_utf-8.json", 2},
      {"i_string_iso_latin_1.json", 2},
      {"i_string_lone_utf8_continuation_byte.json", 2},
      {"i_string_not_in_unicode_range.json", 2},
      {"i_string_overlong_sequence_2_bytes.json", 2},
      {"i_string_overlong_sequence_6_bytes.json", 2},
      {"i_string_overlong_sequence_6_bytes_null.json", 2},
      {"i_string_truncated-utf-8.json", 2},
      {"i_string_utf16BE_no_BOM.json", 5},
      {"i_string_utf16LE_no_BOM.json", 4},
      {"n_array_a_invalid_utf8.json", 2},
      {"n_array_invalid_utf8.json", 1},
      {"n_number_invalid-utf-8-in-bigger-int.json", 4},
      {"n_number_invalid-utf-8-in-exponent.json", 4},
      {"n_number_invalid-utf-8-in-int.json", 2},
      {"n_number_real_with_invalid_utf8_after_e.json", 3},
      {"n_object_lone_continuation_byte_in_key_and_trailing_comma.json", 2},
      {"n_string_invalid-utf-8-in-escape.json", 4},
      {"n_string_invalid_utf8_after_escape.json", 3},
      {"n_structure_incomplete_UTF8_BOM.json", 0},
      {"n_structure_lone-invalid-utf-8.json", 0},
      {"n_structure_single_eacute.json", 0},
  };
  const std::filesystem::path dir =
      jview::test::shared_subdir("conformance/JSONTestSuite/test_parsing", "utf8 offsets of JSONTestSuite's files");
  if (dir.empty()) return;
  const auto kernels = test::runnable_kernels();
  std::size_t files = 0, found_invalid = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string data = file_bytes(entry.path());
    std::size_t want = data.size();
    for (const expect& e : invalid)
      if (name == e.file) want = e.offset;
    if (want != data.size()) ++found_invalid;
    CHECK(portable(data) == want);
    for (const kernel_set& k : kernels) {
      INFO(name, " kernel ", k.name);
      CHECK(k.validate_utf8(data.data(), data.size()) == want);
    }
    ++files;
  }
  CHECK(files >= 300);
  CHECK(found_invalid == std::size(invalid));
}

#ifdef JVIEW_SOURCE_DIR
TEST_CASE("utf8 kernels: exactly the own conformance cases that are not UTF-8, at the offsets Python's decoder gives") {
  struct expect {
    const char* file;
    std::size_t offset;
  };
  const expect invalid[] = {
      {"i_string_invalid_utf8.json", 11},          {"i_string_overlong_utf8.json", 8},
      {"i_string_truncated_utf8.json", 2},         {"i_string_utf8_beyond_last_codepoint.json", 2},
      {"i_string_utf8_surrogate.json", 6},         {"i_structure_utf16le_bom.json", 0},
      {"n_structure_invalid_byte_outside_string.json", 4},
  };
  const auto kernels = test::runnable_kernels();
  std::size_t files = 0, found_invalid = 0;
  const std::filesystem::path cases = std::filesystem::path(JVIEW_SOURCE_DIR) / "tests/conformance/cases";
  for (const auto& path : jview::test::json_files_in(cases)) {
    const std::string name = path.filename().string();
    const std::string data = file_bytes(path);
    std::size_t want = data.size();
    for (const expect& e : invalid)
      if (name == e.file) want = e.offset;
    if (want != data.size()) ++found_invalid;
    CHECK(portable(data) == want);
    for (const kernel_set& k : kernels) {
      INFO(name, " kernel ", k.name);
      CHECK(k.validate_utf8(data.data(), data.size()) == want);
    }
    ++files;
  }
  CHECK(files >= 100);
  CHECK(found_invalid == std::size(invalid));
}
#endif

}  // namespace
}  // namespace jview::simd
