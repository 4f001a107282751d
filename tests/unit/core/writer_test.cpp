// tests/unit/core/writer_test.cpp: jq's output format from the view: layout, escapes, sorting, colour, numbers.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"

using namespace jview;

namespace {

std::string dump(const std::string& json, write_options opts) {
  document doc;
  parser p;
  const char* stop = nullptr;
  parse_error e = p.parse(json.data(), json.data() + json.size(), doc, stop);
  REQUIRE_FALSE(e);
  std::string s;
  output_buffer out(&output_buffer::to_string, &s, 64);  // tiny chunks: exercises flushing and growth
  writer w(out, opts);
  w.value(doc, 0);
  out.flush();
  return s;
}

write_options compact() {
  write_options o;
  o.pretty = false;
  return o;
}

}  // namespace

TEST_CASE("writer: compact keeps the source's tokens") {
  CHECK(dump(R"( { "a" : [ 1.50 , 1E2 , -0 , 100000000000000000001 ] , "b" : { } , "c" : [ ] } )", compact()) ==
        R"({"a":[1.50,1E2,-0,100000000000000000001],"b":{},"c":[]})");
}

TEST_CASE("writer: pretty layout as jq") {
  write_options o;
  CHECK(dump(R"({"a":[1,{"b":null}],"c":{}})", o) ==
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {}\n}");
  o.tab = true;
  CHECK(dump("[1,[2]]", o) == "[\n\t1,\n\t[\n\t\t2\n\t]\n]");
  o.tab = false;
  o.indent = 0;
  CHECK(dump("[1,[2]]", o) == "[\n1,\n[\n2\n]\n]");
}

TEST_CASE("writer: escapes as jq") {
  CHECK(dump(R"("a\/b\u00e9\u007f\u0001\u001f\n\t\r\b\f\"\\")", compact()) ==
        R"("a/bé\u007f\u0001\u001f\n\t\r\b\f\"\\")");
  CHECK(dump(R"("\ud83d\ude00")", compact()) == "\"\xf0\x9f\x98\x80\"");
  write_options a = compact();
  a.ascii = true;
  CHECK(dump("\"\xc3\xa9\xf0\x9f\x98\x80x\"", a) == R"("\u00e9\ud83d\ude00x")");
}

TEST_CASE("writer: sorted keys, recursively, by code point") {
  write_options o = compact();
  o.sort_keys = true;
  CHECK(dump(R"({"b":1,"a":{"d":1,"c":[{"z":0,"y":0}]},"é":0,"Z":0})", o) ==
        R"({"Z":0,"a":{"c":[{"y":0,"z":0}],"d":1},"b":1,"é":0})");
}

TEST_CASE("writer: shortest numbers in jq's format") {
  write_options o = compact();
  o.numbers = number_mode::shortest;
  CHECK(dump("[1.50,1E2,-0,1e1000,0.00001,1e17,3.0,0.1]", o) == "[1.5,100,-0,1.7976931348623157e+308,1e-05,1e+17,3,0.1]");
}

TEST_CASE("writer: colour as jq 1.8") {
  write_options o = compact();
  o.color = true;
  CHECK(dump(R"({"a":[1,null,"s"]})", o) ==
        "\x1b[1;39m{\x1b[0m\x1b[1;34m\"a\"\x1b[0m\x1b[1;39m:\x1b[0m\x1b[1;39m[\x1b[0m\x1b[0;39m1\x1b[0m\x1b[1;39m,"
        "\x1b[0m\x1b[0;90mnull\x1b[0m\x1b[1;39m,\x1b[0m\x1b[0;32m\"s\"\x1b[0m\x1b[1;39m]\x1b[0m\x1b[1;39m}\x1b[0m");
  color_scheme s = color_scheme::jq_default();
  CHECK(s.apply("0;31:0;32"));
  CHECK(s.code[0] == "\x1b[0;31m");
  CHECK(s.code[1] == "\x1b[0;32m");
  CHECK(s.code[2] == "\x1b[0;39m");
  CHECK_FALSE(s.apply("bad"));
  CHECK(s.code[0] == "\x1b[0;31m");
}

TEST_CASE("writer: primitives write constructed values like views") {
  std::string s;
  output_buffer out(&output_buffer::to_string, &s);
  write_options o;
  writer w(out, o);
  w.open(kind::object);
  w.item(kind::object, true);
  w.key("k");
  w.open(kind::array);
  w.item(kind::array, true);
  w.number(0.5);
  w.item(kind::array, false);
  w.string("x\"");
  w.close(kind::array, false);
  w.close(kind::object, false);
  out.flush();
  CHECK(s == dump(R"({"k":[0.5,"x\""]})", o));
}

TEST_CASE("output buffer: a long output moves to bigger chunks with the value being written carried over") {
  // Values of many sizes (some longer than a chunk), with maybe_flush between them as the CLI does; the callback
  // records each write's size. Past output_buffer::k_steady_after bytes the writes grow to k_steady_chunk, and the
  // bytes are exactly the values in order.
  struct sink {
    std::string text;
    std::vector<std::size_t> writes;
    static bool write(void* ctx, const char* data, std::size_t len) {
      auto* s = static_cast<sink*>(ctx);
      s->text.append(data, len);
      s->writes.push_back(len);
      return true;
    }
  } out_sink;
  std::string want;
  {
    output_buffer out(&sink::write, &out_sink);
    for (std::size_t i = 0; want.size() < 3 * output_buffer::k_steady_after; ++i) {
      const std::string value = std::to_string(i) + std::string((i * 7919) % 50000, 'a' + static_cast<char>(i % 26)) + "\n";
      for (std::size_t at = 0; at < value.size(); at += 1000)  // a value appended in pieces, as the writer does
        out.append(value.data() + at, std::min<std::size_t>(1000, value.size() - at));
      out.maybe_flush();
      want += value;
    }
    out.flush();
  }
  CHECK(out_sink.text == want);
  REQUIRE(out_sink.writes.size() > 2);
  CHECK(out_sink.writes.front() <= output_buffer::k_first_chunk);
  const std::size_t largest = *std::max_element(out_sink.writes.begin(), out_sink.writes.end());
  CHECK(largest > output_buffer::k_first_chunk);
  CHECK(largest <= output_buffer::k_steady_chunk);
}
