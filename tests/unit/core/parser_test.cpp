// tests/unit/core/parser_test.cpp: the parser's node index, its errors (code and exact offset), and the
// differential check that the portable and vector string scanners build identical documents.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
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

struct parsed {
  parse_error err;
  std::size_t stop = 0;
};

parsed parse_text(const std::string& text, document& doc, parse_options opts = {}) {
  parser p(opts);
  const char* stop = nullptr;
  parsed r;
  r.err = p.parse(text.data(), text.data() + text.size(), doc, stop);
  r.stop = static_cast<std::size_t>(stop - text.data());
  return r;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Every value of a buffer, as (error code, error offset, nodes) for comparison across scanners.
std::vector<std::string> parse_all(const std::string& text, bool portable) {
  parse_options opts;
  if (portable) opts.kernels = &simd::portable_kernels();
  parser p(opts);
  document doc;
  std::vector<std::string> out;
  const char* b = text.data();
  const char* e = b + text.size();
  while (!parser::at_end(b, e)) {
    const char* stop = nullptr;
    parse_error err = p.parse(b, e, doc, stop);
    std::string rec = std::to_string(static_cast<int>(err.code)) + "@" + std::to_string(err.offset) + ":";
    if (!err) rec.append(reinterpret_cast<const char*>(doc.nodes()), doc.size() * sizeof(node));
    out.push_back(std::move(rec));
    if (err) break;
    b = stop;
  }
  return out;
}

}  // namespace

TEST_CASE("parser: node index of a nested document") {
  document doc;
  std::string text = R"( {"a":[1,"x\n",null],"b":{"c":true},"d":-2.5e3} )";
  parsed r = parse_text(text, doc);
  REQUIRE_FALSE(r.err);
  CHECK(r.stop == text.size() - 1);
  REQUIRE(doc.size() == 12);
  CHECK(doc[0].k == kind::object);
  CHECK(doc[0].len == 3);
  CHECK(doc[0].next == 12);
  CHECK(doc.raw(1) == "a");
  CHECK(doc[2].k == kind::array);
  CHECK(doc[2].len == 3);
  CHECK(doc[2].next == 6);
  CHECK(doc[3].k == kind::number);
  CHECK((doc[3].flags & node_flag::integer) != 0);
  CHECK(doc[4].k == kind::string);
  CHECK((doc[4].flags & node_flag::escapes) != 0);
  CHECK(doc.string_value(4) == "x\n");
  CHECK(doc[5].k == kind::null_);
  CHECK(doc[7].k == kind::object);
  CHECK(doc[7].next == 10);
  CHECK(doc[9].k == kind::true_);
  CHECK(doc.raw(11) == "-2.5e3");
  CHECK((doc[11].flags & node_flag::integer) == 0);
  CHECK((doc[11].flags & node_flag::negative) != 0);
  CHECK(doc.find_member(0, "b") == 7);
  CHECK(doc.find_member(0, "zz") == document::npos);
  CHECK(doc.element(2, 2) == 5);
  CHECK(doc.element(2, 3) == document::npos);
}

TEST_CASE("parser: one value at a time, stop after it") {
  document doc;
  std::string text = "[1] 2\n{\"a\":3}";
  parser p;
  const char* b = text.data();
  const char* e = b + text.size();
  std::vector<kind> kinds;
  while (!parser::at_end(b, e)) {
    const char* stop = nullptr;
    REQUIRE_FALSE(p.parse(b, e, doc, stop));
    kinds.push_back(doc[0].k);
    b = stop;
  }
  CHECK(kinds == std::vector<kind>{kind::array, kind::number, kind::object});
}

TEST_CASE("parser: errors carry the code and the exact offset") {
  struct bad {
    const char* text;
    error_code code;
    std::size_t offset;
  };
  const bad cases[] = {
      {"[1,]", error_code::trailing_comma, 3},
      {"{\"a\":1,}", error_code::trailing_comma, 7},
      {"[1 2]", error_code::expected_comma_or_close_array, 3},
      {"{\"a\":1 \"b\":2}", error_code::expected_comma_or_close_object, 7},
      {"{\"a\" 1}", error_code::expected_colon, 5},
      {"{a:1}", error_code::expected_key, 1},
      {"[", error_code::unexpected_end, 1},
      {"  [1,", error_code::unexpected_end, 5},
      {"]", error_code::expected_value, 0},
      {"[,1]", error_code::expected_value, 1},
      {"@", error_code::unexpected_char, 0},
      {"tru", error_code::bad_literal, 0},
      {"nul", error_code::bad_literal, 0},
      {"falsy", error_code::bad_literal, 0},
      {"truex", error_code::bad_literal, 4},
      {"012", error_code::leading_zero, 0},
      {"[-012]", error_code::leading_zero, 1},
      {"-", error_code::bad_number, 1},
      {"1.", error_code::bad_number, 2},
      {"1.e5", error_code::bad_number, 2},
      {"1e", error_code::bad_number, 2},
      {"1e+", error_code::bad_number, 3},
      {"[.5]", error_code::unexpected_char, 1},
      {"1x", error_code::bad_number, 1},
      {"\"abc", error_code::unterminated_string, 0},
      {"[\"a\x01\"]", error_code::control_in_string, 3},
      {"\"a\\x\"", error_code::bad_escape, 2},
      {"\"\\u12g4\"", error_code::bad_unicode_escape, 1},
      {"\"\\ud800\"", error_code::lone_surrogate, 1},
      {"\"\\ud800\\u0041\"", error_code::lone_surrogate, 1},
      {"\"\\udc00\"", error_code::lone_surrogate, 1},
      {"\"a\xff\"", error_code::invalid_utf8, 2},
      {"\"\xc0\x80\"", error_code::invalid_utf8, 1},
      {"\"\xe0\x80\x80\"", error_code::invalid_utf8, 1},
      {"\"\xed\xa0\x80\"", error_code::invalid_utf8, 1},
      {"\"\xf4\x90\x80\x80\"", error_code::invalid_utf8, 1},
      {"\"\xe2\x82\"", error_code::invalid_utf8, 1},
  };
  for (const bad& c : cases) {
    for (bool portable : {false, true}) {
      CAPTURE(c.text);
      CAPTURE(portable);
      document doc;
      parse_options opts;
      if (portable) opts.kernels = &simd::portable_kernels();
      parsed r = parse_text(c.text, doc, opts);
      CHECK(r.err.code == c.code);
      CHECK(r.err.offset == c.offset);
    }
  }
}

TEST_CASE("parser: depth limit") {
  document doc;
  parse_options opts;
  opts.max_depth = 3;
  CHECK_FALSE(parse_text("[[[1]]]", doc, opts).err);
  parsed r = parse_text("[[[[1]]]]", doc, opts);
  CHECK(r.err.code == error_code::too_deep);
  CHECK(r.err.offset == 3);
  // The default allows 10000 levels and refuses 10001, without recursion.
  std::string deep(10000, '[');
  deep.append(10000, ']');
  CHECK_FALSE(parse_text(deep, doc).err);
  std::string deeper(100000, '[');
  CHECK(parse_text(deeper, doc).err.code == error_code::too_deep);
}

TEST_CASE("parser: --replace-invalid-utf8 accepts and flags bad strings") {
  document doc;
  parse_options opts;
  opts.replace_invalid_utf8 = true;
  const std::string text = "[\"a\xff" "b\", \"\\ud800\", \"ok\"]";  // the document views these bytes
  REQUIRE_FALSE(parse_text(text, doc, opts).err);
  CHECK((doc[1].flags & node_flag::bad_utf8) != 0);
  CHECK(doc.string_value(1) == "a\xef\xbf\xbd" "b");
  CHECK(doc.string_value(2) == "\xef\xbf\xbd");
  CHECK(doc[3].flags == 0);
}

TEST_CASE("parser: DEL takes the slow string path") {
  document doc;
  const std::string text = "\"a\x7f\"";
  REQUIRE_FALSE(parse_text(text, doc).err);
  CHECK((doc[0].flags & node_flag::escapes) != 0);
  CHECK(doc.string_value(0) == "a\x7f");
}

TEST_CASE("parser: portable and vector scanners agree (corpus, JSONTestSuite, mutations)") {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs;
  for (const char* dir : {"corpus", "corpus/small", "conformance/JSONTestSuite/test_parsing"})
    for (const fs::path& f : test::json_files_in(test::shared_subdir(dir, "parser scanners on the shared data")))
      inputs.push_back(read_file(f));
  const bool shared = !inputs.empty();
  for (const fs::path& f : test::own_json_files()) inputs.push_back(read_file(f));
  REQUIRE(inputs.size() > (shared ? 400u : 100u));
  std::size_t compared = 0;
  for (const std::string& in : inputs) {
    CHECK(parse_all(in, true) == parse_all(in, false));
    ++compared;
  }
  // Mutations of small documents: flips, truncations, dictionary insertions, at every alignment.
  std::mt19937_64 rng(42);
  const char* dict[] = {"\"", "\\", "\\u", "\\ud83d", "\xc3", "\xe2\x82", "\xff", "\x01", "\x7f", "]", "}", ",",
                        ":", "1e", "-0", "tru", "null", "[", "{", " ", "\n"};
  std::vector<std::string> small;
  for (const std::string& in : inputs)
    if (in.size() < 4096) small.push_back(in);
  for (int round = 0; round < 20000; ++round) {
    std::string s = small[rng() % small.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !s.empty(); ++k) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8))); break;
        case 1: s.resize(at); break;
        default: s.insert(at, dict[rng() % (sizeof dict / sizeof *dict)]); break;
      }
    }
    s.insert(0, rng() % 17, ' ');  // shift alignment
    REQUIRE(parse_all(s, true) == parse_all(s, false));
    ++compared;
  }
  MESSAGE("compared " << compared << " inputs");
}

TEST_CASE("duplicate keys: random objects with escaped spellings, small (pair by pair) and large (the index)") {
  // Keys with several spellings of one text; an object of up to 16 members is tested pair by pair, a larger one
  // through the index (core/object_keys.cpp). Each parse's flag is checked against the members listed once.
  const char* spellings[] = {"a", "\\u0061", "b", "\\u0062", "ab", "a\\u0062", "\\u0061b", "a\\\"", "a\\\\",
                             "", "\\u00e9", "\xc3\xa9", "long key of some length", "long key of some lengt\\u0068",
                             "\\ud83d\\ude00", "\xf0\x9f\x98\x80", "\x7f", "\\u007f", "aaaaaa",
                             "\\u0061\\u0061\\u0061\\u0061\\u0061\\u0061", "a/b", "a\\/b", "\xe2\x82\xac",
                             "\\u20ac"};
  std::mt19937 rng(2024);
  document doc;
  int flagged = 0;
  for (int round = 0; round < 4000; ++round) {
    const int members = 1 + static_cast<int>(rng() % (round % 2 == 0 ? 8 : 24));
    std::string text = "{";
    for (int i = 0; i < members; ++i) {
      // Mostly distinct keys (a number after the text), sometimes a spelling that may repeat another's text.
      const std::string suffix = rng() % 4 == 0 ? "" : std::to_string(i);
      text += (i ? ",\"" : "\"") + std::string(spellings[rng() % (sizeof spellings / sizeof *spellings)]) + suffix + "\":" +
              std::to_string(i);
    }
    text += "}";
    REQUIRE(!parse_text(text, doc).err);
    std::vector<std::uint32_t> keys;
    doc.unique_member_keys(0, keys);
    const bool repeats = keys.size() < static_cast<std::size_t>(members);
    INFO(text);
    CHECK(doc.has_duplicate_keys() == repeats);
    CHECK(((doc[0].flags & node_flag::duplicate_keys) != 0) == repeats);
    flagged += repeats ? 1 : 0;
  }
  CHECK(flagged > 500);
  CHECK(flagged < 3500);
}

TEST_CASE("duplicate keys: exactly the objects that repeat a key are flagged, and their members are listed once") {
  document doc;
  // Flag of each object node, in document order, for a text.
  const auto flags = [&doc](const std::string& text) {
    REQUIRE(!parse_text(text, doc).err);
    std::string out;
    for (std::uint32_t i = 0; i < doc.size(); ++i)
      if (doc[i].k == kind::object) out += (doc[i].flags & node_flag::duplicate_keys) ? 'D' : '.';
    return out;
  };
  CHECK(flags(R"({"a":1,"b":2,"a":3})") == "D");
  CHECK(doc.has_duplicate_keys());
  CHECK(flags(R"({"a":1,"b":2,"c":3})") == ".");
  CHECK(!doc.has_duplicate_keys());
  CHECK(flags(R"({"a":{"a":1},"b":{"a":1,"a":2},"c":{"x":[{"y":0,"y":0}]}})") == "..D.D");
  CHECK(flags(R"({"\u0061":1,"a":2})") == "D");             // escaped and plain spelling of one key
  CHECK(flags(R"({"a\"":1,"a\\":2})") == ".");              // escapes, different keys
  CHECK(flags(R"({"":1,"":2})") == "D");
  CHECK(flags(R"([{"a":1},{"a":1},{"a":1}])") == "...");    // the same key in sibling objects
  // The same key at the same depth in consecutive values parsed with one parser and document.
  {
    parser p;
    const std::string text = R"({"k":1} {"k":2} {"k":3,"k":4})";
    const char* b = text.data();
    const char* e = b + text.size();
    std::string seen;
    while (!parser::at_end(b, e)) {
      const char* stop = nullptr;
      REQUIRE(!p.parse(b, e, doc, stop));
      seen += doc.has_duplicate_keys() ? 'D' : '.';
      b = stop;
    }
    CHECK(seen == "..D");
  }
  // Deeper than the parser's key table: still exact.
  const std::string deep = std::string(40, '[') + R"({"k":1,"j":2,"k":3})" + std::string(40, ']');
  CHECK(flags(deep) == "D");
  CHECK(flags(std::string(40, '[') + R"({"k":1,"j":2})" + std::string(40, ']')) == ".");
  // Many distinct keys (every hash slot taken several times over): no false flag.
  std::string many = "{";
  for (int i = 0; i < 20000; ++i) many += (i ? ",\"" : "\"") + std::to_string(i) + "\":" + std::to_string(i);
  CHECK(flags(many + "}") == ".");
  CHECK(flags(many + ",\"19999\":0}") == "D");
  CHECK(flags(many + ",\"0\":0}") == "D");
  // Keys with one digest (length, first and last 4 bytes, middle byte) that differ: no flag, but a repeat of either is.
  CHECK(flags(R"({"abcdQ1Qwxyz":1,"abcdR1Rwxyz":2,"x":3})") == ".");
  CHECK(flags(R"({"abcdQ1Qwxyz":1,"abcdR1Rwxyz":2,"abcdR1Rwxyz":3})") == "D");
  CHECK(flags(R"({"ab":1,"ac":2,"abc":3,"ab":4})") == "D");
  // Every parser here takes the table the one before left (it goes on from that one's tags): a large input (its
  // table on a huge page), then small ones again, flags the same.
  std::string large = "[";
  for (int i = 0; i < 30000; ++i) large += R"({"id":1,"name":"x","tags":[]},)";
  REQUIRE(large.size() > simd::k_large_input);
  CHECK(flags(large + R"({"id":1,"id":2}])") == std::string(30000, '.') + "D");
  CHECK(flags(R"({"id":1,"name":"x","tags":[]})") == ".");
  CHECK(flags(R"({"id":1,"name":"x","id":[]})") == "D");
  // unique_member_keys: first occurrence's position, last occurrence's node (its value follows it).
  const std::string text = R"({"a":1,"b":2,"a":3,"c":4,"b":5})";
  REQUIRE(!parse_text(text, doc).err);
  std::vector<std::uint32_t> keys;
  doc.unique_member_keys(0, keys);
  REQUIRE(keys.size() == 3);
  CHECK(doc.raw(keys[0]) == "a");
  CHECK(doc.raw(keys[0] + 1) == "3");
  CHECK(doc.raw(keys[1]) == "b");
  CHECK(doc.raw(keys[1] + 1) == "5");
  CHECK(doc.raw(keys[2]) == "c");
  CHECK(doc.raw(keys[2] + 1) == "4");
}
