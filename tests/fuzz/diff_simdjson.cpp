// tests/fuzz/diff_simdjson.cpp: differential acceptance against simdjson 3 (Debian libsimdjson-dev, DOM parser).
// Mutates seed documents (JSONTestSuite, the small corpus files) a million times (bit flips, truncations, byte
// and range deletions, duplications, insertions of JSON dictionary tokens) and requires that jview and simdjson
// accept or reject each input alike. simdjson's DOM parser takes exactly one document, so jview's verdict is "one
// value, then only whitespace". Deliberate differences are counted apart, not failed (see classify()):
//   - numbers out of range: jview keeps any grammatical number token (jq prints 1e400 and 2^64 too); simdjson
//     3.0.1 rejects integers outside the 64-bit ranges and doubles that overflow (NUMBER_ERROR), checked here by
//     finding such a token in jview's document;
//   - escapes of lone surrogates (\ud800 alone): jview fails strictly (RFC 8259 text must be Unicode); simdjson
//     3.0.1 accepts some of them;
//   - nesting: simdjson's default limit is 1024 levels; jview is set to the same limit here.
// Usage: diff_simdjson [--count N] [--seed S] [--shared DIR] [--seeds DIR]... [--verbose]; exit 1 on an
// unexplained disagreement. --seeds adds a directory of seed files (the own conformance cases); without ../shared
// those are the only seeds (a SKIPPED line says so).
#include <dirent.h>
#include <simdjson.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/parser.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

// Tokens inserted by the mutator: structure, literals, numbers at the edges of range, escapes, UTF-8 good and bad.
const char* const k_dictionary[] = {
    "{", "}", "[", "]", ":", ",", "\"", "\"\"", "{}", "[]", "null", "true", "false", "nul", "tru", "-", "0", "-0",
    "1", "0.5", "1e5", "1E+2", "1e-2", "1.", ".5", "01", "-01", "1e", "1e+", "+1", "0x10", "NaN", "Infinity",
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "-9223372036854775809", "1e308", "1e309", "-1e309", "1e-400", "2.2250738585072014e-308", "4.9e-324",
    "123456789012345678901234567890", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000",
    "\\u001f", "\\u00e9", "\\uffff", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\ud800\\u0041", "\\udbff\\udfff",
    "\\u", "\\x", "\\u12", " ", "\t", "\n", "\r", "\f", "\v", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
    "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xc0\x80", "\xc1\xbf", "\xc2", "\x80", "\xbf", "\xe0\x80\x80",
    "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xef\xbf\xbf", "\xef\xbb\xbf", "\xf0\x80\x80\x80",
    "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80", "\xfe", "\xff", "\xe2\x82", "\xf0\x9f\x98",
    "/*", "*/", "//", ",]", ",}", "[[[[[[[[", "]]]]]]]]", "{\"a\":", "\"a\":1"};

struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    s += 0x9e3779b97f4a7c15ull;  // splitmix64
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Tokens that keep a document valid in the right place: numbers, string contents, whitespace.
const char* const k_numbers[] = {"0", "-0", "1", "-1", "0.5", "1e5", "1E+2", "1e-2", "-1.5e-7", "1.0", "123456789",
                                 "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                                 "18446744073709551615", "18446744073709551616", "1e308", "1e309", "1e-400",
                                 "2.2250738585072014e-308", "4.9e-324", "100000000000000000001", "01", "1.", "-",
                                 ".5", "1e", "0x1", "+1", "1.5e+", "-01.0"};
const char* const k_string_parts[] = {"\\\"", "\\\\", "\\/", "\\b", "\\n", "\\u0000", "\\u00e9", "\\uffff",
                                      "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\ud800\\u0041", "\\udbff\\udfff",
                                      "\\u12", "\\x", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                      "\xf4\x8f\xbf\xbf", "\xc0\x80", "\xed\xa0\x80", "\xef\xbf\xbf",
                                      "\xf4\x90\x80\x80", "\xff", "\xe2\x82", "\x01", "\x7f", "\t", "a"};
const char* const k_spaces[] = {" ", "\t", "\n", "\r", "\r\n", "  \n ", "\f", "\v", "\xc2\xa0"};

template <std::size_t N>
const char* pick(const char* const (&table)[N], rng& r) {
  return table[r.below(N)];
}

void mutate(std::string& s, rng& r) {
  const std::size_t n = s.size();
  switch (r.below(10)) {
    case 7:  // replace a number token
      if (n > 0) {
        std::size_t at = r.below(n);
        while (at < n && !(s[at] >= '0' && s[at] <= '9')) ++at;
        if (at == n) break;
        std::size_t b = at, e = at;
        while (b > 0 && std::strchr("-+.eE0123456789", s[b - 1]) != nullptr) --b;
        while (e < n && std::strchr("-+.eE0123456789", s[e]) != nullptr) ++e;
        s.replace(b, e - b, pick(k_numbers, r));
      }
      return;
    case 8: {  // insert into a string (just after a quote: inside when it opens one)
      const std::size_t at = n > 0 ? s.find('"', r.below(n)) : std::string::npos;
      if (at != std::string::npos) s.insert(at + 1, pick(k_string_parts, r));
      return;
    }
    case 9: {  // whitespace beside a structural character
      std::size_t at = n > 0 ? s.find_first_of("{}[],:", r.below(n)) : std::string::npos;
      if (at == std::string::npos) at = 0;
      s.insert(at + r.below(2) * (at < n), pick(k_spaces, r));
      return;
    }
    default: break;
  }
  switch (r.below(7)) {
    case 0:  // flip one to four bits
      for (std::size_t k = 1 + r.below(4); k > 0 && n > 0; --k) s[r.below(n)] ^= static_cast<char>(1u << r.below(8));
      break;
    case 1:  // truncate
      s.resize(r.below(n + 1));
      break;
    case 2:  // insert a dictionary token
    case 3: {
      const char* t = k_dictionary[r.below(std::size(k_dictionary))];
      s.insert(r.below(n + 1), t);
      break;
    }
    case 4:  // overwrite bytes with a token
      if (n > 0) {
        const char* t = k_dictionary[r.below(std::size(k_dictionary))];
        const std::size_t at = r.below(n);
        s.replace(at, std::min(std::strlen(t), n - at), t);
      }
      break;
    case 5:  // delete a range
      if (n > 0) {
        const std::size_t at = r.below(n);
        s.erase(at, 1 + r.below(std::min<std::size_t>(16, n - at)));
      }
      break;
    default:  // duplicate a range
      if (n > 0) {
        const std::size_t at = r.below(n);
        const std::size_t len = 1 + r.below(std::min<std::size_t>(64, n - at));
        s.insert(r.below(n + 1), s.substr(at, len));
      }
      break;
  }
}

std::vector<std::string> load_seeds(const std::string& shared, const std::vector<std::string>& extra,
                                    std::size_t& valid) {
  std::vector<std::string> files;
  std::vector<std::string> dirs = {shared + "/conformance/JSONTestSuite/test_parsing",
                                   shared + "/conformance/JSONTestSuite/test_transform", shared + "/corpus",
                                   shared + "/corpus/small"};
  struct stat shared_st;
  if (stat(shared.c_str(), &shared_st) != 0 || !S_ISDIR(shared_st.st_mode))
    std::printf("SKIPPED: diff-simdjson seeds from ../shared (JSONTestSuite, corpus): %s missing (own seeds only)\n",
                shared.c_str());
  dirs.insert(dirs.end(), extra.begin(), extra.end());
  for (const std::string& dir : dirs) {
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) continue;
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() < 5 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
      struct stat st;
      const std::string path = dir + "/" + name;
      if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (64 << 10)) files.push_back(path);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  // Valid documents first (JSONTestSuite y_*, the transform cases, the corpus), then the rest: main() draws half
  // of its seeds from the valid ones so that many mutants stay valid.
  auto first_invalid = std::stable_partition(files.begin(), files.end(), [](const std::string& f) {
    const std::string base = f.substr(f.rfind('/') + 1);
    return base.rfind("n_", 0) != 0 && base.rfind("i_", 0) != 0;
  });
  valid = static_cast<std::size_t>(first_invalid - files.begin());
  std::vector<std::string> seeds;
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return seeds;
}

enum class verdict { agree, numbers, surrogate, unexplained };

// True when the document holds a number that simdjson 3.0.1 cannot represent: an integer outside both int64 and
// uint64, or a number whose double overflows.
bool has_out_of_range_number(const document& doc) {
  for (std::uint32_t i = 0; i < doc.size(); ++i) {
    if (doc[i].k != kind::number) continue;
    const std::string tok(doc.raw(i));
    errno = 0;
    if (doc[i].flags & node_flag::integer) {
      if (tok[0] == '-') (void)std::strtoll(tok.c_str(), nullptr, 10);
      else (void)std::strtoull(tok.c_str(), nullptr, 10);
      if (errno == ERANGE) return true;
    } else if (std::isinf(std::strtod(tok.c_str(), nullptr))) {
      return true;
    }
  }
  return false;
}

// Why the two parsers disagree, when it is one of the deliberate differences.
verdict classify(error_code jv, simdjson::error_code sj, const document& doc) {
  const bool jv_ok = jv == error_code::ok;
  const bool sj_ok = sj == simdjson::SUCCESS;
  if (jv_ok == sj_ok) return verdict::agree;
  if (jv_ok && sj == simdjson::NUMBER_ERROR && has_out_of_range_number(doc)) return verdict::numbers;
  if (!jv_ok && jv == error_code::lone_surrogate) return verdict::surrogate;
  return verdict::unexplained;
}

std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s.substr(0, 300)) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  return out + (s.size() > 300 ? "..." : "");
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 1000000;
  std::uint64_t seed = 8;
  std::string shared = "../shared";
  std::vector<std::string> extra_seeds;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--count" && i + 1 < argc) count = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--shared" && i + 1 < argc) shared = argv[++i];
    else if (a == "--seeds" && i + 1 < argc) extra_seeds.push_back(argv[++i]);
    else if (a == "--verbose") verbose = true;
    else {
      std::fprintf(stderr, "usage: diff_simdjson [--count N] [--seed S] [--shared DIR] [--seeds DIR]... [--verbose]\n");
      return 2;
    }
  }
  std::size_t valid_seeds = 0;
  const std::vector<std::string> seeds = load_seeds(shared, extra_seeds, valid_seeds);
  if (seeds.empty()) {
    std::fprintf(stderr, "diff_simdjson: no seed files under %s\n", shared.c_str());
    return 2;
  }
  parse_options po;
  po.max_depth = static_cast<std::uint32_t>(simdjson::DEFAULT_MAX_DEPTH);
  parser jp(po);
  document doc;
  simdjson::dom::parser sp;
  rng r{seed};
  std::size_t agree_accept = 0, agree_reject = 0, numbers = 0, surrogate = 0, unexplained = 0, bytes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    std::string s = seeds[r.below(2) == 0 && valid_seeds > 0 ? r.below(valid_seeds) : r.below(seeds.size())];
    for (std::size_t k = r.below(2) == 0 ? 1 : 2 + r.below(3); k > 0; --k) mutate(s, r);
    bytes += s.size();
    const error_code jv = fuzz::parse_single(jp, s.data(), s.data() + s.size(), doc);
    const simdjson::padded_string ps(s);
    const simdjson::error_code sj = sp.parse(ps).error();
    switch (classify(jv, sj, doc)) {
      case verdict::agree: (jv == error_code::ok ? agree_accept : agree_reject)++; break;
      case verdict::numbers: ++numbers; break;
      case verdict::surrogate: ++surrogate; break;
      case verdict::unexplained:
        if (++unexplained <= 20 || verbose)
          std::printf("DISAGREE jview %s, simdjson %s: \"%s\"\n", error_message(jv), simdjson::error_message(sj),
                      printable(s).c_str());
        break;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("diff-simdjson: %zu inputs (%zu seeds, %.1f MB) in %.1f s, simdjson %s kernel %s\n", count, seeds.size(),
              static_cast<double>(bytes) / 1e6, secs, SIMDJSON_STRINGIFY(SIMDJSON_VERSION),
              simdjson::get_active_implementation()->name().c_str());
  std::printf("diff-simdjson: agree %zu (accepted %zu, rejected %zu); deliberate differences: numbers out of range "
              "%zu, lone surrogates %zu; unexplained %zu\n",
              agree_accept + agree_reject, agree_accept, agree_reject, numbers, surrogate, unexplained);
  return unexplained == 0 ? 0 : 1;
}
