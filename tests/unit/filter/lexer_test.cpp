// tests/unit/filter/lexer_test.cpp: the jq tokenizer: keywords, fields, variables, numbers, operators (longest
// match), comments with backslash continuation, string pieces and escapes, bracket matching.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/filter/lexer.hpp"

using jview::filter::lexer;
using jview::filter::piece;
using jview::filter::tok;

namespace {

std::vector<tok> kinds(std::string_view src) {
  lexer lx(src);
  std::vector<tok> out;
  for (;;) {
    lx.advance();
    out.push_back(lx.cur().t);
    if (lx.cur().t == tok::eof || lx.cur().t == tok::quote) break;
  }
  return out;
}

}  // namespace

TEST_CASE("filter lexer: operators take the longest match") {
  CHECK(kinds("|= | // //= ?// ? == = != <= < >= >") ==
        std::vector<tok>{tok::update, tok::pipe, tok::alt, tok::alt_eq, tok::alt_destructure, tok::question, tok::eq,
                         tok::assign, tok::neq, tok::le, tok::lt, tok::ge, tok::gt, tok::eof});
  CHECK(kinds("+= -= *= /= %= + - * / %") ==
        std::vector<tok>{tok::plus_eq, tok::minus_eq, tok::star_eq, tok::slash_eq, tok::percent_eq, tok::plus,
                         tok::minus, tok::star, tok::slash, tok::percent, tok::eof});
  CHECK(kinds(". .. .[") == std::vector<tok>{tok::dot, tok::dotdot, tok::dot, tok::lbracket, tok::eof});
}

TEST_CASE("filter lexer: names, fields, variables, formats, keywords") {
  lexer lx(".foo $bar @base64 baz::qux reduce $__loc__ .end");
  lx.advance();
  CHECK(lx.cur().t == tok::field);
  CHECK(lx.cur().text == "foo");
  lx.advance();
  CHECK(lx.cur().t == tok::variable);
  CHECK(lx.cur().text == "bar");
  lx.advance();
  CHECK(lx.cur().t == tok::format);
  CHECK(lx.cur().text == "base64");
  lx.advance();
  CHECK(lx.cur().t == tok::ident);
  CHECK(lx.cur().text == "baz::qux");
  lx.advance();
  CHECK(lx.cur().t == tok::kw_reduce);
  lx.advance();
  CHECK(lx.cur().t == tok::kw_loc);
  lx.advance();
  CHECK(lx.cur().t == tok::field);  // keywords are fine as field names
  CHECK(lx.cur().text == "end");
}

TEST_CASE("filter lexer: number literals keep their text") {
  lexer lx("1 1.50 .5 1e3 2E-2 1. 100000000000000000001");
  const char* texts[] = {"1", "1.50", ".5", "1e3", "2E-2", "1.", "100000000000000000001"};
  for (const char* t : texts) {
    lx.advance();
    REQUIRE(lx.cur().t == tok::number);
    CHECK(lx.cur().text == t);
  }
  lx.advance();
  CHECK(lx.cur().t == tok::eof);
}

TEST_CASE("filter lexer: comments, including backslash continuation") {
  CHECK(kinds("1 # comment\n2") == std::vector<tok>{tok::number, tok::number, tok::eof});
  CHECK(kinds("1 # continued \\\n 2\n3") == std::vector<tok>{tok::number, tok::number, tok::eof});
  CHECK(kinds("1 # even \\\\\n2") == std::vector<tok>{tok::number, tok::number, tok::eof});
}

TEST_CASE("filter lexer: unmatched closing brackets are invalid characters") {
  CHECK(kinds("}") == std::vector<tok>{tok::invalid, tok::eof});
  CHECK(kinds("(]") == std::vector<tok>{tok::lparen, tok::invalid, tok::eof});
  CHECK(kinds("[()]") == std::vector<tok>{tok::lbracket, tok::lparen, tok::rparen, tok::rbracket, tok::eof});
}

TEST_CASE("filter lexer: string pieces and escapes") {
  lexer lx(R"("a\tb\u00e9\ud83d\ude00 \(1)x")");
  lx.advance();
  REQUIRE(lx.cur().t == tok::quote);
  std::string text;
  CHECK(lx.string_piece(text) == piece::interp);
  CHECK(text == "a\tb\xc3\xa9\xf0\x9f\x98\x80 ");
  lx.push_open('(');
  lx.advance();
  CHECK(lx.cur().t == tok::number);
  lx.advance();
  CHECK(lx.cur().t == tok::rparen);
  text.clear();
  CHECK(lx.string_piece(text) == piece::end);
  CHECK(text == "x");

  lexer bad(R"("u\vw")");
  bad.advance();
  std::string t2;
  CHECK(bad.string_piece(t2) == piece::error);
  CHECK(bad.error() == "Invalid escape at line 1, column 4 (while parsing '\"\\v\"')");
}
