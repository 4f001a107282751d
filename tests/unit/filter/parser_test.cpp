// tests/unit/filter/parser_test.cpp: the shape of parsed programs: jq 1.8's precedences (unary minus on a term,
// `as` binding everything back to ',', right-associative `//`, non-associative comparisons), terms with postfix
// suffixes, string interpolation parts, object key forms, number constants, syntax error texts.
#include <doctest/doctest.h>

#include <string>

#include "core/filter/ast.hpp"
#include "core/filter/parser.hpp"

using namespace jview::filter;

namespace {

// A compact S-expression of the tree, for checking shapes.
std::string show(const node* n) {
  if (n == nullptr) return "_";
  switch (n->o) {
    case op::identity: return ".";
    case op::recurse: return "..";
    case op::literal: return to_json(n->v);
    case op::index: return "(idx " + show(n->a) + " " + show(n->b) + (n->opt ? "?" : "") + ")";
    case op::slice: return "(slice " + show(n->a) + " " + show(n->b) + " " + show(n->c) + ")";
    case op::iterate: return "(iter " + show(n->a) + (n->opt ? "?" : "") + ")";
    case op::pipe: return "(| " + show(n->a) + " " + show(n->b) + ")";
    case op::comma: return "(, " + show(n->a) + " " + show(n->b) + ")";
    case op::neg: return "(neg " + show(n->a) + ")";
    case op::arith: return std::string("(") + static_cast<char>(n->sub) + " " + show(n->a) + " " + show(n->b) + ")";
    case op::compare: return "(cmp" + std::to_string(n->sub) + " " + show(n->a) + " " + show(n->b) + ")";
    case op::and_: return "(and " + show(n->a) + " " + show(n->b) + ")";
    case op::or_: return "(or " + show(n->a) + " " + show(n->b) + ")";
    case op::alt: return "(// " + show(n->a) + " " + show(n->b) + ")";
    case op::update: return "(|= " + show(n->a) + " " + show(n->b) + ")";
    case op::bind: return "(as " + show(n->a) + " " + show(n->b) + ")";
    case op::call: {
      std::string s = "(" + n->name;
      for (const node* a : n->args) s += " " + show(a);
      return s + ")";
    }
    case op::var: return "$" + n->name;
    case op::try_: return "(try " + show(n->a) + " " + show(n->b) + ")";
    case op::if_: return "(if " + show(n->a) + " " + show(n->b) + " " + show(n->c) + ")";
    case op::reduce: return "(reduce " + show(n->a) + " " + show(n->b) + " " + show(n->c) + ")";
    case op::array: return "[" + show(n->a) + "]";
    case op::interp: {
      std::string s = "(str";
      for (const node* a : n->args) s += " " + show(a);
      return s + ")";
    }
    case op::object: {
      std::string s = "{";
      for (std::size_t i = 0; i + 1 < n->args.size(); i += 2) s += show(n->args[i]) + ":" + show(n->args[i + 1]) + ";";
      return s + "}";
    }
    default: return "?";
  }
}

std::string parse(const std::string& src) {
  ast_arena arena;
  parser p(src, arena);
  return show(p.parse_program().main);
}

std::string error_of(const std::string& src) {
  ast_arena arena;
  parser p(src, arena);
  try {
    p.parse_program();
  } catch (const compile_error& e) {
    return e.message;
  }
  return "";
}

}  // namespace

TEST_CASE("filter parser: precedence") {
  CHECK(parse("1 + 2 * 3") == "(+ 1 (* 2 3))");
  CHECK(parse("1 - 2 - 3") == "(- (- 1 2) 3)");
  CHECK(parse("-1 / 2") == "(/ (neg 1) 2)");
  CHECK(parse("a // b // c") == "(// (a) (// (b) (c)))");
  CHECK(parse("1, 2 | 3") == "(| (, 1 2) 3)");
  CHECK(parse("1 | 2 | 3") == "(| 1 (| 2 3))");
  CHECK(parse("true and false or true") == "(or (and true false) true)");
  CHECK(parse(".a |= . + 1") == "(|= (idx . \"a\") (+ . 1))");
  // `as` takes everything back to the last ',' or '|', and its body runs to the end.
  CHECK(parse("1 + . as $x | $x, 2") == "(as (+ 1 .) (, $x 2))");
  CHECK(parse("1, 2 as $x | $x") == "(, 1 (as 2 $x))");
  CHECK(parse("try 1 catch 2 + 3") == "(+ (try 1 2) 3)");
  CHECK(parse("reduce .[] as $x (0; . + $x) | . * 2") == "(| (reduce (iter .) 0 (+ . $x)) (* . 2))");
  CHECK(parse("if . then 1 end.a") == "(idx (if . 1 _) \"a\")");
}

TEST_CASE("filter parser: postfix terms") {
  CHECK(parse(".a.b") == "(idx (idx . \"a\") \"b\")");
  CHECK(parse(".a?.b") == "(idx (idx . \"a\"?) \"b\")");
  CHECK(parse(".[]?") == "(iter .?)");
  CHECK(parse(".a[1:]") == "(slice (idx . \"a\") 1 _)");
  CHECK(parse(".a.[0]") == "(idx (idx . \"a\") 0)");
  CHECK(parse(".\"x y\"") == "(idx . \"x y\")");
  CHECK(parse("$v[0]") == "(idx $v 0)");
  CHECK(parse("..?") == "(try .. _)");
}

TEST_CASE("filter parser: strings, objects and number constants") {
  CHECK(parse("\"a\\(1)b\"") == "(str \"a\" 1 \"b\")");
  CHECK(parse("\"plain\"") == "\"plain\"");
  CHECK(parse("{a, \"b\": 1, (.c): 2, $d, if: 3}") ==
        "{\"a\":(idx . \"a\");\"b\":1;(idx . \"c\"):2;\"d\":$d;\"if\":3;}");
  CHECK(parse("{a: 1 + 2}") == "{\"a\":(+ 1 2);}");
  // Comma chains are right-deep (the evaluator walks them in a loop).
  CHECK(parse("[1.50, 1e2, 100000000000000000001, 0.5]") == "[(, 1.50 (, 1E+2 (, 100000000000000000001 0.5)))]");
}

TEST_CASE("filter parser: syntax errors use jq's words") {
  CHECK(error_of(".a +") == "syntax error, unexpected end of file");
  CHECK(error_of("[1,2") == "syntax error, unexpected end of file, expecting '|' or ',' or ']'");
  CHECK(error_of("}") == "syntax error, unexpected INVALID_CHARACTER, expecting end of file");
  CHECK(error_of("1 == 2 == 3") == "syntax error, unexpected ==");
  CHECK(error_of("{(1): 2}") == "Cannot use number (1) as object key");
  CHECK(error_of("def f: 1;") == "Top-level program not given (try \".\")");
  CHECK(error_of("\"\\x\"") == "Invalid escape at line 1, column 4 (while parsing '\"\\x\"')");
}
