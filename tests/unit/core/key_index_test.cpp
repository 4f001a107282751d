// tests/unit/core/key_index_test.cpp: detail::key_hash and detail::string_index (core/key_index.hpp). The hash's
// key is secret (drawn per process), so what is checked is that it is stable within the process and tells keys
// apart; the hash table and its sorted fallback must give the same answers on random, repeated and empty keys.
// (Crafted keys against the old unseeded hash: hostile_tests.py, hash_flooding.)
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/key_index.hpp"

using jview::detail::key_hash;
using jview::detail::string_index;

namespace {

std::vector<std::string> random_keys(std::size_t n, std::size_t alphabet, std::size_t max_len, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> keys(n);
  for (auto& k : keys) {
    k.resize(rng() % (max_len + 1));
    for (char& c : k) c = static_cast<char>('a' + rng() % alphabet);
  }
  return keys;
}

std::vector<std::string_view> views(const std::vector<std::string>& keys) { return {keys.begin(), keys.end()}; }

// The answers of both ways for one list of keys, checked against a std::set.
void check_both_ways(const std::vector<std::string>& keys) {
  std::vector<std::uint32_t> expected(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    expected[i] = static_cast<std::uint32_t>(i);
    for (std::size_t j = 0; j < i; ++j)
      if (keys[j] == keys[i]) {
        expected[i] = static_cast<std::uint32_t>(j);
        break;
      }
  }
  bool repeats = false;
  for (std::size_t i = 0; i < keys.size(); ++i) repeats |= expected[i] != i;
  for (bool sorted : {false, true}) {
    CAPTURE(sorted);
    string_index index;
    index.force_sorted(sorted);
    std::vector<std::uint32_t> first;
    CHECK(index.build(views(keys), &first) == repeats);
    CHECK(first == expected);
    CHECK(index.sorted() == (sorted && !keys.empty()));
    for (std::size_t i = 0; i < keys.size(); ++i) CHECK(index.find(keys[i]) == expected[i]);
    CHECK(index.find("not a key: has spaces") == string_index::npos);
  }
}

}  // namespace

TEST_CASE("key_hash: stable within the process, different for different keys") {
  CHECK(key_hash("abc") == key_hash(std::string("abc")));
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 10000; ++i) seen.insert(key_hash("k" + std::to_string(i)));
  CHECK(seen.size() == 10000);
  // Every length up to two words, so the tail's handling is exercised; a key and its prefix differ.
  std::string s;
  std::set<std::uint64_t> prefixes;
  for (int n = 0; n <= 17; ++n, s += static_cast<char>('a' + n)) prefixes.insert(key_hash(s));
  CHECK(prefixes.size() == 18);
  CHECK(key_hash(std::string_view("\0", 1)) != key_hash(""));
}

TEST_CASE("string_index: hash table and sorted fallback agree") {
  check_both_ways({});
  check_both_ways({""});
  check_both_ways({"", "", "a", ""});
  check_both_ways(random_keys(200, 3, 3, 1));     // many repeats
  check_both_ways(random_keys(2000, 26, 12, 2));  // few repeats
  std::vector<std::string> distinct;
  for (int i = 0; i < 5000; ++i) distinct.push_back("key" + std::to_string(i));
  check_both_ways(distinct);
}

TEST_CASE("string_index: ordinary keys never need the fallback") {
  std::vector<std::string> keys;
  for (int i = 0; i < 300000; ++i) keys.push_back("k" + std::to_string(i));
  string_index index;
  CHECK_FALSE(index.build(views(keys)));
  CHECK_FALSE(index.sorted());
  CHECK(index.find("k299999") == 299999);
}
