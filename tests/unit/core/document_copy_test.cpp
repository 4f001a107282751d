// tests/unit/core/document_copy_test.cpp: document::copy_from, the compact copies of kept values (cut from shared
// chunks, the last one cut given back on release, a copy's block reused by the next copy into it). Many copies
// of different sizes are made, reused and destroyed in a shuffled order; every live copy must keep its own nodes
// and text.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/parser.hpp"

using namespace jview;

namespace {

// An array of `n` small objects: about 4n + 1 nodes.
std::string text_of(std::size_t n, std::size_t seed) {
  std::string s = "[";
  for (std::size_t i = 0; i < n; ++i) s += (i ? "," : "") + std::string("{\"k\":") + std::to_string(seed * 1000 + i) + "}";
  return s + "]";
}

// The copy has the original's nodes and text, in bytes of its own (the input's buffer is refilled under it).
bool same_nodes(const document& copy, const document& original) {
  return copy.size() == original.size() &&
         std::memcmp(copy.nodes(), original.nodes(), copy.size() * sizeof(node)) == 0 &&
         copy.text() == original.text() && copy.source() != original.source();
}

}  // namespace

TEST_CASE("document copies: live copies keep their nodes through reuse and release in any order") {
  std::mt19937 g(20261203);
  parser p{parse_options{}};
  std::vector<std::string> texts;
  std::vector<std::unique_ptr<document>> originals;
  for (std::size_t i = 0; i < 64; ++i) {
    // Sizes from one node to past the chunks' limit for a copy (64 KiB: 4096 nodes), which come from malloc.
    const std::size_t n = i % 16 == 15 ? 1500 : g() % 200;
    texts.push_back(text_of(n, i));
  }
  for (const std::string& t : texts) {
    auto d = std::make_unique<document>();
    const char* stop = nullptr;
    REQUIRE_FALSE(p.parse(t.data(), t.data() + t.size(), *d, stop));
    originals.push_back(std::move(d));
  }
  struct copy {
    std::unique_ptr<document> doc;
    std::size_t of;
  };
  std::vector<copy> live;
  for (int round = 0; round < 4000; ++round) {
    const unsigned action = g() % 4;
    const std::size_t of = g() % originals.size();
    if (action == 0 && !live.empty()) {  // release one
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(g() % live.size()));
    } else if (action == 1 && !live.empty()) {  // copy into a live copy again (its block reused when it fits)
      copy& c = live[g() % live.size()];
      c.doc->copy_from(*originals[of]);
      c.of = of;
    } else {
      live.push_back(copy{std::make_unique<document>(), of});
      live.back().doc->copy_from(*originals[of]);
    }
    if (round % 97 == 0)
      for (const copy& c : live) REQUIRE(same_nodes(*c.doc, *originals[c.of]));
  }
  for (const copy& c : live) CHECK(same_nodes(*c.doc, *originals[c.of]));
  std::shuffle(live.begin(), live.end(), g);
  while (!live.empty()) {
    live.pop_back();
    for (const copy& c : live) REQUIRE(same_nodes(*c.doc, *originals[c.of]));
  }
}

TEST_CASE("document copies: a copy reads the same after the source bytes are overwritten") {
  parser p{parse_options{}};
  std::string text = "{\"name\":\"caf\\u00e9\",\"n\":12.50,\"list\":[true,null,\"x\"]}";
  document original, copy;
  const char* stop = nullptr;
  REQUIRE_FALSE(p.parse(text.data(), text.data() + text.size(), original, stop));
  copy.copy_from(original);
  std::fill(text.begin(), text.end(), '#');
  CHECK(copy.text() == "{\"name\":\"caf\\u00e9\",\"n\":12.50,\"list\":[true,null,\"x\"]}");
  CHECK(copy.string_value(copy.find_member(0, "name")) == "caf\xc3\xa9");
  CHECK(copy.raw(copy.find_member(0, "n")) == "12.50");
  CHECK(copy.raw(copy.element(copy.find_member(0, "list"), 2)) == "x");
}
