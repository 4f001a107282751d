// tests/unit/filter/program_test.cpp: the program interface as the CLI uses it: compile errors with positions,
// emitted values (views pass through as views), runtime errors and non-string error values, halt/halt_error,
// inputs through an input_provider, debug/stderr callbacks, $ENV and --arg style globals, deep recursion.
#include <doctest/doctest.h>

#include <climits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/filter/program.hpp"
#include "core/filter/value.hpp"
#include "core/output.hpp"
#include "core/parser.hpp"
#include "core/writer.hpp"

using namespace jview;
using namespace jview::filter;

namespace {

struct held {
  std::string text;
  document doc;
};

value parse(const std::string& text) {
  auto h = std::make_shared<held>();
  h->text = text;
  const char* p = h->text.data();
  const char* stop = nullptr;
  jview::parser ps;
  REQUIRE(!ps.parse(p, p + h->text.size(), h->doc, stop));
  return value::view(std::shared_ptr<const document>(h, &h->doc), 0);
}

struct result {
  std::vector<std::string> out;
  std::vector<value> values;
  bool ok = true;
  std::string error;
  int halt = -1;
  bool not_string = false;
  std::vector<std::string> debug, stderr_text;
};

struct list_inputs : input_provider {
  std::vector<value> values;
  std::size_t next_index = 0;
  bool next(value& out) override {
    if (next_index >= values.size()) return false;
    out = values[next_index++];
    return true;
  }
  std::string current_filename() const override { return "in.json"; }
};

result run(const std::string& prog, const value& input, const compile_options& opts = {},
           input_provider* inputs = nullptr) {
  result r;
  auto p = program::compile(prog, opts);
  std::string text;
  output_buffer ob(output_buffer::to_string, &text, 4096);
  write_options wo;
  wo.pretty = false;
  writer w(ob, wo);
  run_callbacks cb;
  cb.emit = [&](const value& v) {
    r.values.push_back(v);
    write_value(w, v);
    ob.flush();
    r.out.push_back(text);
    text.clear();
  };
  cb.debug = [&](const value& m) { r.debug.push_back("[\"DEBUG:\"," + to_json(m) + "]"); };
  cb.stderr_out = [&](std::string_view m) { r.stderr_text.emplace_back(m); };
  r.ok = p->run(input, inputs, cb, r.error, r.halt);
  r.not_string = p->last_error_not_string();
  return r;
}

}  // namespace

TEST_CASE("filter program: compile errors carry jq's message and position") {
  try {
    program::compile(".a +", compile_options{});
    FAIL("expected a compile error");
  } catch (const compile_error& e) {
    CHECK(e.message == "syntax error, unexpected end of file");
    CHECK(e.line == 1);
    CHECK(e.column == 4);
  }
  try {
    program::compile("1 |\n  foo", compile_options{});
    FAIL("expected a compile error");
  } catch (const compile_error& e) {
    CHECK(e.message == "foo/0 is not defined");
    CHECK(e.line == 2);
    CHECK(e.column == 3);
    CHECK(e.length == 3);
    CHECK(e.source_line == "  foo");
  }
  CHECK_THROWS_AS(program::compile("def f: 1;", compile_options{}), compile_error);
}

TEST_CASE("filter program: every builtin compiles where it is called (prelude.jq definitions are parsed then)") {
  const result names = run("builtins | sort | .[]", value());
  REQUIRE(names.ok);
  REQUIRE(names.out.size() > 200);
  for (const std::string& quoted : names.out) {
    const std::string name_arity = quoted.substr(1, quoted.size() - 2);
    const std::size_t slash = name_arity.rfind('/');
    const int arity = std::stoi(name_arity.substr(slash + 1));
    std::string call = name_arity.substr(0, slash);
    for (int i = 0; i < arity; ++i) call += (i == 0 ? "(." : "; .");
    if (arity > 0) call += ")";
    CAPTURE(call);
    CHECK_NOTHROW(program::compile(call, compile_options{}));  // compiled, not run
  }
}

TEST_CASE("filter program: identity is recognised and paths yield views") {
  CHECK(program::compile(".", compile_options{})->is_identity());
  CHECK(!program::compile(".a", compile_options{})->is_identity());
  result r = run(".a.b[1], .a.b[], .a.b[0:1]", parse(R"({"a":{"b":[1.50,"x"]}})"));
  REQUIRE(r.ok);
  CHECK(r.out == std::vector<std::string>{"\"x\"", "1.50", "\"x\"", "[1.50]"});
  CHECK(r.values[0].is_view());
  CHECK(r.values[1].is_view());
}

TEST_CASE("filter program: runtime errors stop the run; earlier outputs stay") {
  result r = run("1, .a, 2", value::number(5));
  CHECK(!r.ok);
  CHECK(r.out == std::vector<std::string>{"1"});
  CHECK(r.error == "Cannot index number with string (\"a\")");
  CHECK(!r.not_string);
  result o = run("error({a: 1})", value());
  CHECK(!o.ok);
  CHECK(o.not_string);
  CHECK(o.error == "{\"a\":1}");
}

TEST_CASE("filter program: halt and halt_error") {
  result h = run("1, halt, 2", value());
  CHECK(h.ok);
  CHECK(h.halt == 0);
  CHECK(h.out == std::vector<std::string>{"1"});
  result e = run("\"bye\\n\" | halt_error(3)", value());
  CHECK(!e.ok);
  CHECK(e.halt == 3);
  CHECK(e.error == "bye\n");
  result j = run("{a:1} | halt_error", value());
  CHECK(j.halt == 5);
  CHECK(j.error == "{\"a\":1}\n");
}

TEST_CASE("filter program: halt_error's code as jq 1.8 converts it (issue 25.10)") {
  for (const auto& [code, status, raw] : std::vector<std::tuple<std::string, int, int>>{
           {"-1", 0, -1}, {"nan", 0, INT_MIN}, {"1e10", 0, INT_MIN}, {"-1e10", 0, INT_MIN}, {"1.9", 1, 1},
           {"-0.5", 0, 0}, {"2147483647", 2147483647, 2147483647}}) {
    CAPTURE(code);
    auto p = program::compile("\"x\" | halt_error(" + code + ")", compile_options{});
    run_callbacks cb;
    cb.emit = [](const value&) {};
    std::string error;
    int halt = -1;
    CHECK(!p->run(value(), nullptr, cb, error, halt));
    CHECK(halt == status);
    CHECK(p->last_halt_code() == raw);
    CHECK(error == "x");
  }
}

TEST_CASE("filter program: a failed output stops the run at once (issue 25.2)") {
  for (const char* prog : {"repeat(1)", "range(1e9)", "[1,2] | .[] as $x | repeat($x)", "def f: 1, f; f"}) {
    CAPTURE(prog);
    auto p = program::compile(prog, compile_options{});
    int outputs = 0;
    run_callbacks cb;
    cb.emit = [&](const value&) { ++outputs; };
    cb.output_ok = [&] { return outputs < 3; };
    std::string error;
    int halt = -1;
    CHECK(p->run(value(), nullptr, cb, error, halt));  // a quiet end, not an error or a halt
    CHECK(halt == -1);
    CHECK(error.empty());
    CHECK(outputs == 3);
  }
}

TEST_CASE("filter program: programs of 10^5 terms compile, and chains run in constant stack (issue 25.1)") {
  auto join = [](const std::string& term, const std::string& sep, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i == 0 ? "" : sep) + term;
    return s;
  };
  const int n = 100000;
  // Each runs in a loop of the evaluator (also under ASan, whose frames are larger and whose stack is not switched).
  CHECK(run("[" + join("1", ",", n) + "] | length", value()).out == std::vector<std::string>{"100000"});
  CHECK(run(join("1", "+", n), value()).out == std::vector<std::string>{"100000"});
  CHECK(run(join("[1]", "+", n) + " | length", value()).out == std::vector<std::string>{"100000"});
  CHECK(run(join("null", " // ", n) + " // 2", value()).out == std::vector<std::string>{"2"});
  CHECK(run(join(".a", "", n), value()).out == std::vector<std::string>{"null"});
  CHECK(run("." + join("[0]", "", n), value()).out == std::vector<std::string>{"null"});
  CHECK(run("reduce (" + join("1", ",", n) + ") as $x (0; . + $x)", value()).out ==
        std::vector<std::string>{"100000"});
  // These nest in the evaluation; their compilation (parser and resolver) is iterative.
  for (const std::string& prog : {join(".", " | ", n), join("def f: 1;", " ", n) + " f",
                                  join(". as $x |", " ", n) + " $x", join("label $l |", " ", n) + " 1",
                                  "if . then 1 " + join("elif . then 1", " ", n) + " end",
                                  "{" + join("a: 1", ", ", n) + "}", "{a: " + join(".", " | ", n) + "}"}) {
    CHECK_NOTHROW(program::compile(prog, compile_options{}));
    result r = run(prog, value());  // runs, or stops at the depth limit with an error: never a crash
    CHECK((r.ok || r.error.find("Maximum recursion depth exceeded") != std::string::npos));
  }
  // Real nesting stays bounded by the parser.
  CHECK_THROWS_AS(program::compile(std::string(n, '[') + std::string(n, ']'), compile_options{}), compile_error);
  CHECK_THROWS_AS(program::compile(". as " + std::string(n, '[') + "$x" + std::string(n, ']') + " | 1",
                                   compile_options{}), compile_error);
}

TEST_CASE("filter program: input, inputs and input_filename use the provider") {
  list_inputs in;
  in.values = {value::number(2), value::number(3), value::number(4)};
  result r = run("[., input, input_filename], [inputs]", value::number(1), {}, &in);
  REQUIRE(r.ok);
  CHECK(r.out == std::vector<std::string>{"[1,2,\"in.json\"]", "[3,4]"});
  list_inputs none;
  result e = run("input", value(), {}, &none);
  CHECK(!e.ok);
  CHECK(e.error == "break");
}

TEST_CASE("filter program: debug and stderr callbacks") {
  result r = run("debug, debug(\"msg\"), (\"raw\\n\" | stderr)", value::number(1));
  REQUIRE(r.ok);
  CHECK(r.debug == std::vector<std::string>{"[\"DEBUG:\",1]", "[\"DEBUG:\",\"msg\"]"});
  CHECK(r.stderr_text == std::vector<std::string>{"raw\n"});
}

TEST_CASE("filter program: named and positional arguments, $ENV") {
  compile_options o;
  o.named_args = {{"name", "x", false}, {"obj", "{\"k\":[1,2]}", true}, {"name", "y", false}};  // the first wins
  o.positional_args = {{"p", false}, {"[1]", true}};
  o.environment = {{"HOME", "/home/u"}};
  result r = run("$name, $obj.k[1], $ARGS, $ENV.HOME, env.HOME", value(), o);
  REQUIRE(r.ok);
  CHECK(r.out == std::vector<std::string>{"\"x\"", "2",
                                          "{\"positional\":[\"p\",[1]],\"named\":{\"name\":\"x\",\"obj\":{\"k\":[1,2]}}}",
                                          "\"/home/u\"", "\"/home/u\""});
  CHECK_THROWS_AS(program::compile("$nope", compile_options{}), compile_error);
}

TEST_CASE("filter program: deep recursion does not crash") {
  // ASan's larger stack frames lower the depth the evaluator allows within the same stack.
#if defined(__SANITIZE_ADDRESS__)
  result deep = run("def f: if . < 1000 then . + 1 | f else . end; 0 | f", value());
  REQUIRE(deep.ok);
  CHECK(deep.out == std::vector<std::string>{"1000"});
#else
  result deep = run("def f: if . < 50000 then . + 1 | f else . end; 0 | f", value());
  REQUIRE(deep.ok);
  CHECK(deep.out == std::vector<std::string>{"50000"});
#endif
  result inf = run("def f: f; f", value());
  CHECK(!inf.ok);
  CHECK(inf.error.find("recursion") != std::string::npos);
  result big = run("[range(1000000)] | length", value());
  CHECK(big.out == std::vector<std::string>{"1000000"});
}

TEST_CASE("filter program: write_value prints constructed values like the writer prints views") {
  value v = parse(R"({"b":[1,{"c":"\u00e9"}],"a":null})");
  result r = run(". as $v | {b: $v.b, a: $v.a}", v);
  REQUIRE(r.ok);
  CHECK(r.out == std::vector<std::string>{"{\"b\":[1,{\"c\":\"é\"}],\"a\":null}"});
  std::string text;
  output_buffer ob(output_buffer::to_string, &text, 4096);
  write_options wo;
  wo.sort_keys = true;
  writer w(ob, wo);
  write_value(w, r.values[0]);
  ob.flush();
  CHECK(text == "{\n  \"a\": null,\n  \"b\": [\n    1,\n    {\n      \"c\": \"é\"\n    }\n  ]\n}");
}
