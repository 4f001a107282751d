// tests/unit/core/parser_two_stage_test.cpp: the two-stage parser (stage-1 token index + walk) against the one-pass
// parser: for every input, the same error code and offset, or the same nodes, stop position and duplicate-key
// flag, value after value (NDJSON and concatenated streams reuse the index). Inputs: the corpus, JSONTestSuite,
// random mutations, strings straddling 64-byte blocks and batch boundaries, long strings, deep nesting.
#include <doctest/doctest.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/parser.hpp"
#include "tests/unit/test_data.hpp"

using namespace jview;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Every value of a buffer as text records; counts the values the two-stage path took.
// The stage-1 kernels this CPU runs (the parser's default first).
const std::vector<const simd::stage1_kernel*>& kernels() {
  static const std::vector<const simd::stage1_kernel*> list = [] {
    const simd::stage1_kernel* ks[8];
    return std::vector<const simd::stage1_kernel*>(ks, ks + simd::structural_kernels(ks, 8));
  }();
  return list;
}

// One parser per configuration, reused with one document (a fresh arena and index per input would make this test
// mostly mmap and page faults); each input starts with a fresh index, as the input reader does on a refill.
parser& parser_for(parse_path path, std::uint32_t max_depth, const simd::stage1_kernel* k) {
  struct entry {
    parse_path path;
    std::uint32_t max_depth;
    const simd::stage1_kernel* k;
    std::unique_ptr<simd::kernels> kernels;  // the process's choice with stage 1 by k (when k is not null)
    std::unique_ptr<parser> p;
  };
  static std::vector<entry> cache;
  for (entry& e : cache)
    if (e.path == path && e.max_depth == max_depth && e.k == k) return *e.p;
  parse_options opts;
  opts.path = path;
  opts.max_depth = max_depth;
  auto kernels = std::make_unique<simd::kernels>(simd::active_kernels());
  if (k != nullptr) {
    kernels->structure = k;
    opts.kernels = kernels.get();
  }
  cache.push_back(entry{path, max_depth, k, std::move(kernels), std::make_unique<parser>(opts)});
  return *cache.back().p;
}

// doc: the document to parse into (default: one reused by every call, whose arena has long grown).
std::vector<std::string> parse_all(const std::string& text, parse_path path, std::uint64_t* two_stage = nullptr,
                                   std::uint32_t max_depth = 10000, const simd::stage1_kernel* k = nullptr,
                                   document* fresh = nullptr) {
  static document reused;
  document& doc = fresh != nullptr ? *fresh : reused;
  parser& p = parser_for(path, max_depth, k);
  p.invalidate_index();
  const std::uint64_t fast_before = p.two_stage_values();
  std::vector<std::string> out;
  const char* b = text.data();
  const char* e = b + text.size();
  while (!parser::at_end(b, e)) {
    const char* stop = nullptr;
    parse_error err = p.parse(b, e, doc, stop);
    std::string rec = std::to_string(static_cast<int>(err.code)) + "@" + std::to_string(err.offset);
    if (!err) {
      rec += " stop " + std::to_string(stop - text.data()) + (doc.has_duplicate_keys() ? " dup:" : ":");
      rec += std::to_string(doc.source() - text.data()) + ":";
      rec.append(reinterpret_cast<const char*>(doc.nodes()), doc.size() * sizeof(node));
    }
    out.push_back(std::move(rec));
    if (err) break;
    b = stop;
  }
  if (two_stage != nullptr) *two_stage += p.two_stage_values() - fast_before;
  return out;
}

std::uint64_t g_compared = 0;

void check_same(const std::string& text, std::uint32_t max_depth = 10000) {
  const auto want = parse_all(text, parse_path::one_pass, nullptr, max_depth);
  for (const simd::stage1_kernel* kernel : kernels()) {
    const auto got = parse_all(text, parse_path::two_stage, nullptr, max_depth, kernel);
    ++g_compared;
    if (want == got) continue;
    // Keep the report short: the first differing record.
    std::size_t i = 0;
    while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
    const auto head = [](const std::vector<std::string>& v, std::size_t k) {
      return k < v.size() ? v[k].substr(0, v[k].find(':')) : std::string("(none)");
    };
    std::string hex;
    for (std::size_t k = 0; k < text.size() && k < 120; ++k) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(text[k]));
      hex += buf;
    }
    FAIL("two-stage (" << kernel->name << ") differs on a " << text.size() << "-byte input (value " << i
                       << ": one-pass " << head(want, i)
                                   << ", two-stage " << head(got, i) << ") hex " << hex << ": "
                                   << (text.size() < 300 ? text : text.substr(0, 300)));
  }
}

std::vector<std::string> load_inputs() {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs;
  for (const char* dir : {"corpus", "corpus/small", "conformance/JSONTestSuite/test_parsing"})
    for (const fs::path& f : test::json_files_in(test::shared_subdir(dir, "two-stage parser on the shared data")))
      inputs.push_back(read_file(f));
  for (const fs::path& f : test::own_json_files()) inputs.push_back(read_file(f));
  return inputs;
}

}  // namespace

TEST_CASE("two-stage parser: corpus and JSONTestSuite give the one-pass result") {
  const auto inputs = load_inputs();
  REQUIRE(inputs.size() > (test::have_shared() ? 400u : 100u));
  std::uint64_t fast = 0;
  for (const std::string& in : inputs) {
    check_same(in);
    parse_all(in, parse_path::two_stage, &fast);
  }
  // The corpus is valid JSON: its containers must take the fast path (not fall back every time).
  if (simd::active_kernels().structure != nullptr) CHECK(fast > 100);
  MESSAGE("two-stage values: " << fast);
}

TEST_CASE("two-stage parser: the automatic path takes the fast path for big documents") {
  std::string doc = "[";
  for (int i = 0; i < 200; ++i) doc += "{\"id\": " + std::to_string(i) + ", \"name\": \"n\\u00e9\xc3\xa9\"},";
  doc += "null]";
  std::uint64_t fast = 0;
  const auto a = parse_all(doc, parse_path::automatic, &fast);
  CHECK(fast == (simd::active_kernels().structure != nullptr ? 1u : 0u));
  CHECK(a == parse_all(doc, parse_path::one_pass));
}

TEST_CASE("two-stage parser: the automatic path parses inputs under the kernel's min_bytes one-pass") {
  // An array of `size` bytes in all, trailing spaces included (what the parser is handed reaches the buffer's end).
  const auto sized = [](std::size_t size) {
    std::string t = "[0";
    while (t.size() + 3 <= size) t += ",0";
    t += "]";
    t.resize(size, ' ');
    return t;
  };
  for (const simd::stage1_kernel* k : kernels()) {
    INFO("kernel " << k->name << ", min_bytes " << k->min_bytes);
    std::uint64_t fast = 0;
    CHECK(parse_all(sized(k->min_bytes - 1), parse_path::automatic, &fast, 10000, k) ==
          parse_all(sized(k->min_bytes - 1), parse_path::one_pass));
    CHECK(fast == 0);
    CHECK(parse_all(sized(k->min_bytes), parse_path::automatic, &fast, 10000, k) ==
          parse_all(sized(k->min_bytes), parse_path::one_pass));
    CHECK(fast == 1);
    // Short lines of one buffer: the first starts the index, and the rest of the buffer continues it however
    // little of it is left.
    std::string lines;
    for (int i = 0; i < 40; ++i) lines += "{\"id\": " + std::to_string(i) + "}\n";
    REQUIRE(lines.size() >= k->min_bytes);
    fast = 0;
    CHECK(parse_all(lines, parse_path::automatic, &fast, 10000, k) == parse_all(lines, parse_path::one_pass));
    CHECK(fast == 40);
    // Asked for, the two-stage path runs on any size.
    fast = 0;
    CHECK(parse_all("[1, 2]", parse_path::two_stage, &fast, 10000, k) == parse_all("[1, 2]", parse_path::one_pass));
    CHECK(fast == 1);
  }
}

TEST_CASE("two-stage parser: a kernel's one_pass_share sends inputs of long strings one-pass") {
  // Strings of 200 plain ASCII bytes: most blocks lie inside long strings.
  std::string text = "[";
  for (int i = 0; i < 300; ++i) text += "{\"id\": " + std::to_string(i) + ", \"text\": \"" + std::string(200, 'x') + "\"},\n";
  text += "null]\n";
  std::string ndjson;
  for (int i = 0; i < 300; ++i) ndjson += "{\"id\": " + std::to_string(i) + ", \"text\": \"" + std::string(200, 'x') + "\"}\n";
  std::string dense = "[";
  for (int i = 0; i < 3000; ++i) dense += "{\"id\": " + std::to_string(i) + ", \"v\": [true, null, 1.5]},";
  dense += "null]";
  for (const simd::stage1_kernel* k : kernels()) {
    INFO("kernel " << k->name << ", one_pass_share " << k->one_pass_share);
    const bool gated = k->one_pass_share != 0;
    std::uint64_t fast = 0;
    CHECK(parse_all(text, parse_path::automatic, &fast, 10000, k) == parse_all(text, parse_path::one_pass));
    CHECK(fast == (gated ? 0u : 1u));
    fast = 0;
    CHECK(parse_all(ndjson, parse_path::automatic, &fast, 10000, k) == parse_all(ndjson, parse_path::one_pass));
    if (gated)  // the values of the first 16 KB (or up to the batch after it), then none
      CHECK(fast < 100);
    else
      CHECK(fast == 300);
    // Asked for, the two-stage path runs all the same.
    fast = 0;
    CHECK(parse_all(text, parse_path::two_stage, &fast, 10000, k) == parse_all(text, parse_path::one_pass));
    CHECK(fast == 1);
    // Documents of short tokens stay two-stage, also after an input that went one-pass (invalidate_index).
    fast = 0;
    CHECK(parse_all(dense, parse_path::automatic, &fast, 10000, k) == parse_all(dense, parse_path::one_pass));
    CHECK(fast == 1);
  }
}

TEST_CASE("two-stage parser: mutations of small documents") {
  const auto inputs = load_inputs();
  std::vector<std::string> small;
  for (const std::string& in : inputs)
    if (in.size() < 4096 && in.size() > 2) small.push_back(in);
  REQUIRE(!small.empty());
  std::mt19937_64 rng(1234);
  const char* dict[] = {"\"", "\\", "\\\\", "\\\"", "\\u", "\\ud83d", "\xc3", "\xe2\x82", "\xff", "\x01", "\x7f",
                        "]",  "}",  ",",    ":",    "1e", "-0",     "tru",  "null",     "[",    "{",    " ",
                        "\n", "0",  "01",   "1.",   "\t", "{\"a\":1,\"a\":2}"};
  const int rounds = 150000;
  for (int round = 0; round < rounds; ++round) {
    std::string s = small[rng() % small.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !s.empty(); ++k) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0: s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8))); break;
        case 1: s.resize(at); break;
        default: s.insert(at, dict[rng() % (sizeof dict / sizeof *dict)]); break;
      }
    }
    s.insert(0, rng() % 70, ' ');  // shift alignment against the 64-byte blocks
    check_same(s);
  }
  MESSAGE("compared " << g_compared << " inputs");
}

TEST_CASE("two-stage parser: every truncation of documents") {
  const std::string docs[] = {
      R"({"a":[1,2.5e-3,-0,true,false,null,"x\"y\\"],"b":{"c":"\u00e9\ud83d\ude00","d":[]},"e":{}})",
      "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"a\x7f\", {\"k\" : \"v\" , \"k\" : 1 } , [ [ ] ] ]\n{\"n\":1}\n"};
  for (const std::string& d : docs)
    for (std::size_t cut = 0; cut <= d.size(); ++cut) {
      check_same(d.substr(0, cut));
      check_same(std::string(70, ' ') + d.substr(0, cut));
    }
}

TEST_CASE("two-stage parser: strings straddling blocks and batches, escapes at every offset") {
  const std::string bodies[] = {"abc", "a\\\"b", "\\\\", "\\u00e9x", "\xc3\xa9\xe2\x82\xac", "a\x7f", "\\n\\t",
                                "\\x", "a\x01", "\xc3", "\\ud800"};
  for (const std::string& body : bodies)
    for (std::size_t at = 0; at < 140; ++at) {
      std::string s = "[" + std::string(at, ' ') + "\"" + body + "\", {\"" + body + "\": 1}, \"z\"]";
      check_same(s);
    }
  // Batches after the start of the index: k_first_batch, then doubling up to k_batch.
  const std::size_t batch = simd::structural_index::k_batch;
  const std::size_t first = simd::structural_index::k_first_batch;
  std::vector<std::size_t> boundaries;
  for (std::size_t b = first, size = first; boundaries.size() < 8; size = std::min(size * 2, batch), b += size)
    boundaries.push_back(b);
  for (std::size_t boundary : {boundaries[0], boundaries[2], boundaries[5], boundaries[6]})
    for (const std::string& body : bodies)
      for (std::size_t at = boundary - 80; at < boundary + 80; ++at) {
        std::string s = "[" + std::string(at, ' ') + "\"" + body + "\", 12345, true, {\"" + body + "\": [1]}]";
        check_same(s);
      }
  // Long strings, across several batches, with and without escapes.
  std::string long_str(3 * batch + 11, 'x');
  check_same("[\"" + long_str + "\", 1]");
  long_str[batch + 5] = '\\';
  long_str[batch + 6] = 'n';
  check_same("{\"k\": \"" + long_str + "\"}");
  long_str[2 * batch] = '\x05';
  check_same("{\"k\": \"" + long_str + "\"}");
}

TEST_CASE("two-stage parser: deep nesting, depth limit, duplicate keys") {
  for (std::size_t depth : {1u, 15u, 16u, 17u, 100u, 3000u}) {
    check_same(std::string(depth, '[') + std::string(depth, ']'));
    check_same(std::string(depth, '[') + std::string(depth - 1, ']'));
    std::string o;
    for (std::size_t i = 0; i < depth; ++i) o += "{\"a\":1,\"a\":";
    o += "2" + std::string(depth, '}');
    check_same(o);
    check_same(std::string(depth, '[') + std::string(depth, ']'), 50);
  }
  check_same(R"({"a":1,"b":2,"a":3} {"x":{"y":1,"y":2},"z":[{"q":1,"q\u0000":2}]})");
}

TEST_CASE("two-stage parser: token-dense values in a fresh document (the arena grows as the walk goes)") {
  // The walk checks its room for nodes where its tokens end (refill), not at each value: values with the most
  // nodes per token, over many batches, each parsed into a new document whose arena starts small.
  std::string zeros = "[", nested, keys = "{", mixed = "[";
  for (int i = 0; i < 60000; ++i) zeros += i == 0 ? "0" : ",0";
  zeros += "]";
  nested = std::string(9000, '[') + std::string(9000, ']');
  for (int i = 0; i < 20000; ++i) keys += (i == 0 ? "\"" : ",\"") + std::to_string(i) + "\":[]";
  keys += "}";
  for (int i = 0; i < 30000; ++i) mixed += i == 0 ? "{}" : (i % 3 == 0 ? ",[]" : i % 3 == 1 ? ",\"\"" : ",true");
  mixed += "]";
  for (const std::string* text : {&zeros, &nested, &keys, &mixed}) {
    document one_pass_doc;
    const auto want = parse_all(*text, parse_path::one_pass, nullptr, 10000, nullptr, &one_pass_doc);
    REQUIRE(want.size() == 1);
    CHECK(want[0].rfind("0@0 stop", 0) == 0);
    for (const simd::stage1_kernel* kernel : kernels()) {
      document doc;
      std::uint64_t fast = 0;
      CHECK(parse_all(*text, parse_path::two_stage, &fast, 10000, kernel, &doc) == want);
      CHECK(fast == 1);
    }
  }
}

TEST_CASE("two-stage parser: NDJSON streams and concatenated values") {
  std::mt19937_64 rng(99);
  const std::string values[] = {R"({"a":1})", "[1,2,3]", R"({"s":"x\"y"})", "[]", "{}", "7", "\"str\"", "null",
                                "[\"\xc3\xa9\"]", "{\"k\":[{\"k\":{}}]}", "-1.5e3", "true"};
  for (int round = 0; round < 3000; ++round) {
    std::string s;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      s += values[rng() % (sizeof values / sizeof *values)];
      s += (rng() % 3 == 0) ? " " : "\n";
      if (rng() % 5 == 0) s += std::string(rng() % 100, ' ');
    }
    if (round % 4 == 1 && !s.empty()) s[rng() % s.size()] = static_cast<char>(rng());  // one bad byte somewhere
    if (round % 4 == 2) s.resize(rng() % (s.size() + 1));
    check_same(s);
  }
  // A long NDJSON stream: many batches, the index carried from value to value.
  std::string log;
  for (int i = 0; log.size() < 5 * simd::structural_index::k_batch; ++i)
    log += "{\"id\":" + std::to_string(i) + ",\"msg\":\"line \\\"" + std::to_string(i * 7) + "\\\" \xc3\xa9\"}\n";
  check_same(log);
  std::uint64_t fast = 0;
  parse_all(log, parse_path::automatic, &fast);
  if (simd::active_kernels().structure != nullptr) CHECK(fast > 1000);
}
