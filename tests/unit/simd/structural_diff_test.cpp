// tests/unit/simd/structural_diff_test.cpp: every stage-1 kernel this CPU runs against the portable stage-1 kernel
// (simd/structural_portable.cpp): the same token index byte for byte (every token position, every special-string
// position, the same early end) over the corpus and JSONTestSuite (../shared; skipped with a message when absent),
// each at several alignments, and over random and generated inputs (escape runs, UTF-8, control bytes, every byte
// value, sizes around blocks and batches). tests/arm/run.sh runs it under qemu for the NEON kernel.
// Two documented differences are not compared: the x86 AVX2 and AVX-512 kernels count 0x0c and 0x1a as structural
// (one table lookup; stage 2 rejects those bytes wherever they are), and the AVX-512 kernel checks UTF-8 per block,
// so where the index ends early it may end elsewhere: invalid UTF-8 (up to a block earlier), or a control byte in a
// string after non-ASCII bytes (the others move that failure back to the start of the unchecked non-ASCII run).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "simd/kernels.hpp"
#include "simd/structural.hpp"
#include "test_support.hpp"

namespace jview::simd {
namespace {

struct index_listing {
  std::vector<std::uint64_t> tokens;    // absolute offsets from the start of the input
  std::vector<std::uint64_t> specials;  // the same, times 2, plus 1 when flagged k_special_checked
  std::vector<std::uint64_t> batches;   // offset of each batch and its token count, alternately
  bool operator==(const index_listing&) const = default;
};

index_listing run_index(const stage1_kernel* k, const char* b, std::size_t n) {
  index_listing r;
  structural_index ix;
  if (!ix.start(k, &validate_utf8_portable, b, b + n)) return r;
  do {
    const auto base = static_cast<std::uint64_t>(ix.base() - b);
    r.batches.push_back(base);
    r.batches.push_back(static_cast<std::uint64_t>(ix.pos_end() - ix.cursor()));
    for (const std::uint32_t* t = ix.cursor(); t != ix.pos_end(); ++t) r.tokens.push_back(base + *t);
    for (const std::uint32_t* t = ix.special_cursor(); *t != 0xffffffffu; ++t)  // position, then the flag
      r.specials.push_back((base + (*t & ~k_special_checked)) << 1 | ((*t & k_special_checked) != 0 ? 1 : 0));
  } while (ix.next_batch());
  return r;
}

const stage1_kernel* portable_stage1() {
  const stage1_kernel* ks[8];
  const std::size_t n = structural_kernels(ks, 8);
  for (std::size_t i = 0; i < n; ++i)
    if (std::string(ks[i]->name) == "portable") return ks[i];
  return nullptr;
}

// The kernels compared with the portable one.
std::vector<const stage1_kernel*> vector_stage1() {
  const stage1_kernel* ks[8];
  const std::size_t n = structural_kernels(ks, 8);
  std::vector<const stage1_kernel*> out;
  for (std::size_t i = 0; i < n; ++i)
    if (std::string(ks[i]->name) != "portable") out.push_back(ks[i]);
  return out;
}

bool counts_ff_and_sub(const stage1_kernel* k) {
  const std::string n = k->name;
  return n == "avx2" || n == "avx512";
}
bool utf8_per_block(const stage1_kernel* k) { return std::string(k->name) == "avx512"; }

struct tally {
  std::size_t inputs = 0, compared = 0, skipped = 0, bytes = 0;
};

// Compares every vector kernel with the portable one on s (a copy at `shift` bytes past a 64-byte boundary).
void compare(const std::string& s, const char* what, tally& t, std::size_t shift = 0) {
  static const stage1_kernel* const ref = portable_stage1();
  static const std::vector<const stage1_kernel*> ks = vector_stage1();
  REQUIRE(ref != nullptr);
  std::vector<char> buf(s.size() + 64 + shift);
  const std::size_t lead = (64 - reinterpret_cast<std::uintptr_t>(buf.data()) % 64) % 64 + shift;
  char* b = buf.data() + (lead + s.size() <= buf.size() ? lead : 0);
  std::copy(s.begin(), s.end(), b);
  ++t.inputs;
  t.bytes += s.size();
  const index_listing want = run_index(ref, b, s.size());
  const bool ff_sub = s.find('\x0c') != std::string::npos || s.find('\x1a') != std::string::npos;
  const bool bad_utf8 = validate_utf8_portable(s.data(), s.size()) != s.size();
  const bool ctrl_and_high = std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }) &&
                             std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  for (const stage1_kernel* k : ks) {
    if ((ff_sub && counts_ff_and_sub(k)) || ((bad_utf8 || ctrl_and_high) && utf8_per_block(k))) {
      ++t.skipped;
      continue;
    }
    ++t.compared;
    const index_listing got = run_index(k, b, s.size());
    if (got == want) continue;
    std::size_t i = 0;
    while (i < got.tokens.size() && i < want.tokens.size() && got.tokens[i] == want.tokens[i]) ++i;
    FAIL_CHECK("kernel " << std::string(k->name) << " differs from portable on " << std::string(what) << " (" << s.size() << " bytes, shift "
                         << shift << "): tokens " << got.tokens.size() << " vs " << want.tokens.size()
                         << ", first difference at token " << i << " (offset "
                         << (i < want.tokens.size() ? want.tokens[i] : 0) << "), specials " << got.specials.size()
                         << " vs " << want.specials.size());
  }
}

std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Every *.json / *.ndjson under dir; false when dir is absent.
bool compare_tree(const std::filesystem::path& dir, tally& t) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && (it->path().extension() == ".json" || it->path().extension() == ".ndjson"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    const std::string data = file_bytes(f);
    const std::string name = f.filename().string();
    for (const std::size_t shift : {0, 1, 37}) compare(data, name.c_str(), t, shift);
  }
  return true;
}

// A random text of JSON's pieces and the bytes that trouble stage 1.
std::string random_json_text(test::rng& g, std::size_t len) {
  static const char* const pieces[] = {
      "\"", "\"", "\"", "\\", "\\\\", "\\\"", "\\\\\\", "{", "}", "[", "]", ",", ":", " ", "\n", "\t", "\r", "a",
      "1", "-2.5e+3", "true", "null", "\"key\":", "\"x\\u00e9y\"", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
      "\x7f", "\x01", "\x1f", "\x0c", "\x1a", "\xff", "\x80", "\xc3", "\xed\xa0\x80", "\"\"", "[]", "{}"};
  std::string s;
  while (s.size() < len) {
    if (g.below(50) == 0) {
      s += static_cast<char>(g.byte());  // any byte at all
      continue;
    }
    const std::uint32_t r = g.below(100);
    const std::size_t n = sizeof pieces / sizeof *pieces;
    // Mostly the first 24 pieces (well-formed text), sometimes the rarer bytes.
    s += pieces[r < 85 ? g.below(24) : g.below(static_cast<std::uint32_t>(n))];
  }
  return s;
}

// Valid JSON-like text: strings of random UTF-8 with escapes, numbers, containers.
std::string generated_document(test::rng& g, std::size_t len) {
  std::string s = "[";
  while (s.size() < len) {
    switch (g.below(6)) {
      case 0: s += "\"" + test::random_utf8(g, g.below(80), 6) + "\","; break;
      case 1: s += std::to_string(g.next() % 100000) + "." + std::to_string(g.below(1000)) + ","; break;
      case 2: s += "{\"k\\\\\": [true, false, null], \"v\": \"" + std::string(g.below(70), '\\') + "\"},"; break;
      case 3: s += "\"" + std::string(g.below(200), 'x') + "\\n\\\"\","; break;
      case 4: s += std::string(g.below(100), ' ') + "\n"; break;
      default: s += "[[{\"a\":1}],{}],"; break;
    }
  }
  s += "0]";
  // Some strings from the UTF-8 generator contain '"' or '\\': the text need not be valid JSON for stage 1.
  return s;
}

}  // namespace

TEST_CASE("stage-1 kernels equal the portable kernel: the corpus and JSONTestSuite") {
  const std::filesystem::path shared = JVIEW_SHARED_DIR;
  tally t;
  const bool suite = compare_tree(shared / "conformance" / "JSONTestSuite" / "test_parsing", t);
  const std::size_t suite_inputs = t.inputs;
  const bool corpus = compare_tree(shared / "corpus", t);
  if (!suite) MESSAGE("skipped: no JSONTestSuite under " << (shared / "conformance").string());
  if (!corpus) MESSAGE("skipped: no corpus under " << (shared / "corpus").string());
  MESSAGE("stage 1 vs portable: " << t.inputs << " inputs (" << suite_inputs << " from JSONTestSuite, 3 alignments each), "
                                  << t.bytes << " bytes, " << t.compared << " kernel runs compared, " << t.skipped
                                  << " skipped (see the file header), kernels:"
                                  << [] {
                                       std::string n;
                                       for (const stage1_kernel* k : vector_stage1()) n += std::string(" ") + k->name;
                                       return n;
                                     }());
  if (suite) CHECK(suite_inputs >= 3 * 300);
}

TEST_CASE("stage-1 kernels equal the portable kernel: random text") {
  test::rng g(24);
  tally t;
  const std::size_t rounds = test::scaled(3000);
  for (std::size_t round = 0; round < rounds; ++round) {
    const std::size_t len = 1 + g.below(round % 10 == 0 ? 5000 : 300);
    compare(random_json_text(g, len), "random text", t, round % 64);
  }
  // Every byte value, alone and in runs, at every offset of a block.
  for (int v = 0; v < 256; ++v)
    for (std::size_t at = 0; at < 130; at += 13) {
      std::string s(at, ' ');
      s += "\"a";
      s += static_cast<char>(v);
      s += "\" ";
      s += static_cast<char>(v);
      s += std::string(3, static_cast<char>(v));
      s += " [1] ";
      compare(s, "byte values", t);
    }
  CHECK(t.compared > 0);
}

TEST_CASE("stage-1 kernels equal the portable kernel: generated documents across batches") {
  test::rng g(2024);
  tally t;
  const std::size_t sizes[] = {63, 64, 65, 127, 128, 1023, 1024, 1025, 3071, 3072, 3073,
                               structural_index::k_batch - 1, structural_index::k_batch,
                               structural_index::k_batch + 1, 3 * structural_index::k_batch + 100};
  for (const std::size_t n : sizes)
    for (int rep = 0; rep < 3; ++rep) {
      std::string s = generated_document(g, n);
      s.resize(n, ' ');
      compare(s, "generated document", t, static_cast<std::size_t>(rep) * 21);
    }
  // Escape runs of every length ending at every offset around a block and a batch boundary.
  for (const std::size_t edge : {std::size_t{64}, structural_index::k_first_batch})
    for (std::size_t run = 1; run <= 66; run += 5)
      for (std::size_t end = edge - 3; end <= edge + 3; ++end) {
        std::string s(end > run + 1 ? end - run - 1 : 0, ' ');
        s += "\"" + std::string(run, '\\') + "\"] \"x\" 1";
        compare(s, "escape runs", t);
      }
  CHECK(t.compared > 0);
}

TEST_CASE("stage-1 kernels read nothing past the input") {
  test::rng g(5);
  test::guarded_buffer buf(4 * structural_index::k_batch);
  REQUIRE(buf.ok());
  const stage1_kernel* ks[8];
  const std::size_t nk = structural_kernels(ks, 8);
  for (int round = 0; round < 200; ++round) {
    const std::string s = random_json_text(g, 1 + g.below(round % 20 == 0 ? 3 * structural_index::k_batch : 700));
    const char* at_end = buf.place_end(s);
    const index_listing want = run_index(ks[nk - 1], at_end, s.size());
    for (std::size_t k = 0; k < nk; ++k) {
      const index_listing end_run = run_index(ks[k], at_end, s.size());
      const char* at_start = buf.place_start(s);
      const index_listing start_run = run_index(ks[k], at_start, s.size());
      CHECK(end_run == start_run);
      if (std::string(ks[k]->name) == "portable") CHECK(end_run == want);
      buf.place_end(s);
    }
  }
}

}  // namespace jview::simd
