// tests/unit/core/chunk_cut_test.cpp: the cuts of a parallel run (core/chunk_cut.hpp), and the value reader's
// restart and start_at that its pieces use.
#include <doctest/doctest.h>

#include <string>

#include "core/byte_source.hpp"
#include "core/chunk_cut.hpp"
#include "core/value_reader.hpp"

using namespace jview;

TEST_CASE("cuts come after a newline whose next byte may begin a value") {
  const std::string t = "{\"a\":1}\n{\n  \"b\": 2\n}\n[3]\n";
  // The inner lines of a pretty value begin with spaces or a closing bracket: no cut there.
  CHECK(cut_forward(t.data(), t.size(), 1, false) == 8);
  CHECK(cut_forward(t.data(), t.size(), 9, false) == 21);
  CHECK(cut_forward(t.data(), t.size(), 22, false) == 0);   // only the final newline, which does not count
  CHECK(cut_forward(t.data(), t.size(), 22, true) == t.size());
  CHECK(cut_backward(t.data(), t.size(), 0, false) == 21);
  CHECK(cut_backward(t.data(), t.size(), 0, true) == t.size());
  CHECK(cut_backward(t.data(), 20, 0, true) == 8);
  CHECK(cut_backward(t.data(), t.size(), 21, false) == 0);
  CHECK(cut_forward("abc", 3, 0, true) == 0);
}

TEST_CASE("a restarted reader reads its next input from the start; start_at skips bytes but counts their lines") {
  value_reader r(parse_options{});
  document doc;
  r.open(memory_source("1 [", "a"));
  CHECK(r.next(doc) == value_reader::status::value);
  CHECK(r.next(doc) == value_reader::status::error);
  r.restart(memory_source("x\n 2 3", "b"));
  r.start_at(3);
  CHECK(r.name() == "b");
  REQUIRE(r.next(doc) == value_reader::status::value);
  CHECK(doc.raw(0) == "2");
  CHECK(r.lines_read() == 1);  // no newline after it: the line counts once it has one (jq's count)
  REQUIRE(r.next(doc) == value_reader::status::value);
  CHECK(r.next(doc) == value_reader::status::end);
  r.restart(memory_source("\xef\xbb\xbf" "4", "c"));  // a byte order mark at the start is skipped again
  REQUIRE(r.next(doc) == value_reader::status::value);
}
