#!/usr/bin/env python3
"""A wider differential of jview against jq 1.8.2 than jq18_details_diff.py, over the same areas and the corners
of jq 1.8's manual: formats (@sh @uri @urid @base32d @base64d @text), string builtins with odd inputs, regexes
(flags, arrays, empty patterns, the longest-match flag), paths, streams, errors and their messages, limit/first/
skip, dates (strptime formats, fractional times, zones), math builtins, numbers (tojson, nan and infinite in
comparisons and sorts), collections (group_by, unique_by, min_by on empty, walk, pick), output options (--indent,
--tab, -S, --seq, -r, -j, -a, --raw-output0), $ENV, input_line_number, input_filename, $__loc__, modules.
Exit status, stdout and stderr are compared (stderr with `jview: ` read as `jq: `; see jq18_diff_runner.py).
Prints each difference and the count of agreeing cases.
Usage: jq18_wider_diff.py [--jview build/jview] [--jq ../shared/tools/jq-1.8]"""
import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jq18_diff_runner  # noqa: E402

_ap = argparse.ArgumentParser()
_ap.add_argument("--jview", default="build/jview")
_ap.add_argument("--jq", default="../shared/tools/jq-1.8")
_args = _ap.parse_args()
JV = os.path.abspath(_args.jview)
JQ = os.path.abspath(_args.jq)

cases = []  # (args, stdin, env)


def n(prog, env=None):
    """A -n -c program, run as is (its errors uncaught: their messages are compared too)."""
    cases.append((["-n", "-c", prog], "", env or {}))


def t(prog):
    """A -n -c program whose errors are caught: `try (PROG) catch .`."""
    cases.append((["-n", "-c", f"try ({prog}) catch ."], "", {}))


# --- formats
for v in ['"a\'b c"', '["a", 1, null, true, 1.5]', '{"a":1}', '[[1]]', '1.0', '1e1000', '"é\\n\\t"', 'null', '[]',
          '"a b/ü~-_.!*\'()%"', '100000000000000000001', '-0']:
    for f in ["@sh", "@uri", "@text", "@json", "@html", "@csv", "@tsv", "@base64", "@base32"]:
        t(f"{v} | {f}")
for v in ['"%41%zz"', '"%"', '"a%2"', '"%C3%A9"', '"%ff"', '"%e2%82"', '"a+b"', '""', '1']:
    t(f"{v} | @urid")
for v in ['"MZXW6==="', '"MZXW6"', '"!!!"', '""', '"mzxw6==="', '"MZXW6YQ="', '"M"', '1']:
    t(f"{v} | @base32d")
for v in ['"="', '"a"', '"ab"', '"abc"', '"YQ"', '"YWJj="', '"!!!!"', '"Y W J j"', '"YWJj"', '"/w=="', '"_-8="', '1',
          '"YWJjZA=="', '"YWJjZA"', '"YQ==YQ=="']:
    t(f"{v} | @base64d")
t('"x" | @base64d | explode')
t('"\\u0000a" | @sh')
t('[1,[2]] | @sh')
t('"abc" | @sh "echo \\(.)"')
t('{"a":"x y"} | @uri "q=\\(.a)&r=\\(1)"')
t('[1, "a,b", null] | @csv "\\(.)"')

# --- string builtins with odd inputs
for prog in ['1 | ltrimstr("a")', '"abc" | ltrimstr(1)', '"abc" | ltrimstr(null)', '"aa" | trimstr("a")',
             '"a" | trimstr("a")', '"aba" | trimstr("a")', '1 | trimstr("a")', '"abc" | rtrimstr("c")',
             '["ab"] | ltrimstr("a")', '"abc" | trimstr(1)', '"" | ltrimstr("")', '"ab" | ltrimstr("ab")',
             '" \\t\\n x \\u00a0\\r " | trim, ltrim, rtrim', '1 | trim', 'null | ltrim', '[" a"] | rtrim',
             '"\\u2003a\\u2003" | trim', '"" | trim',
             '1 | ascii_downcase', 'null | ascii_upcase', '"ÀBc" | ascii_downcase, ascii_upcase', '[] | ascii_downcase',
             '[-1] | implode', '[1114112] | implode', '[55296] | implode', '["a"] | implode', '"a" | implode',
             '[65.5] | implode', '[null] | implode', '[0] | implode', '[57343, 65] | implode', '{} | implode',
             '"\\ud83d\\ude00" | explode', '1 | explode', '[65, 1114111] | implode | explode',
             '"abc" | .[1:2], .[-1:], .[:-1], .[5:]', '"aé日" | length, utf8bytelength', '1 | utf8bytelength',
             '"abc" | split("")', '"a,b,,c" | split(",")', '"" | split(",")', '"abc" | split("b"; null)',
             '"a1b22c" | [splits("[0-9]+")]', '"abc" | [splits("")]', '"aAbB" | [splits("a"; "i")]',
             '"a,b, c" | [splits(", *"; null)]', '"abc" | [splits("b"; "g")]', '1 | [splits("a")]',
             '"abc" | [splits(1)]', '"aAbBa" | [splits("a"; "gi")]', '"ab" | [splits("x*")]',
             '"abc" | test(["B", "i"])', '"abc" | test(["b"])', '"abc" | [match(["a", "g"]) | .offset]',
             '"abc" | test(["b", null])', '"abc" | test("b"; "q")', '"abc" | test(["b", "x", "y"])',
             '"aAbB" | [scan("a"; "i")]', '"aAbB" | [scan("A")]', '"ab ab" | [scan("(a)(b)?")]',
             '"abcabc" | [scan("(?<x>b)c")]', '"a" | [scan("")]', '"é" | [match(""; "g") | .offset]',
             '"abc" | sub("(?<x>b)"; "[\\(.x)]")', '"abab" | gsub("a"; "X", "Y")', '"abc" | sub("b"; 1)',
             '"abc" | gsub(""; "-")', '"aaa" | gsub("^a"; "b")', '"abc" | gsub("(?<l>.)"; "\\(.l|ascii_upcase)")',
             '"Abc" | ascii', '65 | ascii', '[65] | implode | ascii_downcase', '"abc" | capture("(?<a>a)(?<n>x)?")',
             '"a-b" | capture("(?<x>[a-z])-(?<y>[a-z])"; "g")', '"xyz" | [match("y"; "g")] | length',
             '"abc" | indices("b"), index("b"), rindex("b")', '"a,b,a" | indices(","), index("a"), rindex("a")',
             '"aé,é" | index("é"), rindex("é"), indices("é")', '[1,2,1] | indices(1), indices([1,2]), indices([])',
             '"abc" | contains("b"), inside("xabcx")', '"a\\u0000b" | contains("b")', '{"a":"xyz"} | contains({"a":"y"})',
             '"abc" | startswith("a"), endswith("c")', '1 | startswith("a")', '"abc" | startswith(1)',
             '"x" * 3, "x" * 0, "x" * -1, "x" * 0.5, "x" * 1.5', '"abc" | tojson, (tojson | fromjson)',
             '"\\u007f\\u001f\\u2028" | tojson', '"1 2" | fromjson', '"[1," | fromjson', '"nan" | fromjson',
             '"NaN" | fromjson', '"x" | fromjson', '"" | fromjson', '"{\\"a\\":1} x" | fromjson', '1 | fromjson',
             '"abc" | ascii_downcase | @text', '"abc" | tostring', '[1,"a"] | tostring', '{"a":[1.0]} | tostring',
             '"12" | tonumber', '" 1" | tonumber', '"1 " | tonumber', '"0x10" | tonumber', '"1e1000" | tonumber',
             '"nan" | tonumber', '"-0" | tonumber', '"1.50" | tonumber', '"" | tonumber', 'null | tonumber',
             '"abc" | ltrimstr("a") | rtrimstr("c")', '["a","b"] | join(", ")', '[1, null, "a", true] | join("-")',
             '[[1]] | join(",")', '[{}] | join(",")', '[] | join(",")', '["a"] | join(1)', '"abc" | join(",")']:
    t(prog)

# --- regexes: the longest-match flag and its neighbours
pats = ["a|ab", "ab|a", "(a)(b)?|(a)(b)(c)", "x*", "(?<n>a+)(?<m>b*)", "", "a|ab|abc", "\\\\Gab|a", "b*|a"]
subjects = ["ab", "a ab abc", "xaaay", "AB ab", "é ab", "", "ab\\nab"]
for pat, flags, s in itertools.product(pats, ["l", "gl", "il", "gil", "nl", "gnl", "xl", "g"], subjects):
    t(f'"{s}" | [match("{pat}"; "{flags}") | [.offset, .length, .string, (.captures | map(.string))]]')
for prog in ['"ab ab" | sub("a|ab"; "X"; "l")', '"ab ab" | gsub("a|ab"; "X"; "l")', '"ab a ab" | [scan("a|ab"; "l")]',
             '"ab a ab" | [scan("a|ab"; "gl")]', '"xabyabz" | split("a|ab"; "l")', '"xabyaz" | [splits("a|ab"; "l")]',
             '"ab" | test("a|ab"; "l")', '"b" | test("a"; "l")', '"ab ab" | gsub("(?<x>a|ab)"; "<\\(.x)>"; "l")',
             '"aaa" | gsub("a*"; "-"; "l")', '"abcd" | [match("(?=abc)a|ab"; "l") | .string]',
             '"xyz" | [match("x\\\\Ky|xyz"; "l") | [.offset, .string]]', '"aabb" | [match("a\\\\g<0>?b"; "l") | .string]',
             '"aabb" | [match("(a\\\\g<1>?b)"; "l") | .string]', '"a#b" | [match("a # c"; "xl") | .string]',
             '"a#b" | [match("(?x)a # c"; "l") | .string]', '"ab)" | [match("\\\\Qab)"; "l") | .string]',
             '"ab" | [match("(*FAIL)|ab"; "gl") | .offset]', '"ab" | test("(*FOO)")',
             '"ab" | [match("a(?i)B|ab"; "l") | .string]', '"abab" | [match("(ab)\\\\1|ab"; "l") | .string]',
             '"aAaA" | [match("a+"; "gil") | .string]', '"ab" | [match("(?<!x)a|ab"; "l") | .string]',
             '"abc" | [match("[a-c]+?"; "gl") | .string]', '"abc" | [match("a|b|c"; "lg") | .string]',
             '[range(300)] | map("ab") | join(" ") | [match("a|ab"; "gl")] | length',
             '"a" * 2000 | [match("a|aa"; "gl")] | length', '"ab" * 500 | [match("a"; "gl")] | length']:
    t(prog)

# --- paths and streams
for prog in ['null | getpath(["a",0])', '{"a":[1]} | getpath(["a",5])', '{"a":1} | getpath(["a","b"])',
             '[] | getpath([-1])', '{"a":1} | getpath([])', '[1,2] | getpath([1.5])', '{} | getpath([0])',
             '1 | [paths]', '[[1,[2]]] | [paths]', '{"a":null,"b":[1]} | [paths(. == null)]',
             '{"a":{"b":1}} | [paths(type == "number")]', '[1,[2]] | [leaf_paths]', '{"a":[1,{"b":2}]} | [paths(..)]',
             '[1,[2]] | tostream', '{} | [tostream]', '[] | [tostream]', '1 | [tostream]', '{"a":[1,{"b":2}]} | [tostream]',
             '[1,[2,3]] | fromstream(tostream)', '{"a":[1,{"b":2}]} | [tostream] | fromstream(.[])',
             '[1,[2]] | [truncate_stream(1; tostream)]', '{"a":{"b":1}} | [getpath(["a","b"], ["x"])]',
             '[1,2,3] | del(.[1,2])', '[1,2,3] | del(.[0], .[0])', '{"a":1} | del(.b)', '[1,2] | delpaths([[5]])',
             '1 | setpath(["a"]; 1)', 'null | setpath([0]; 1)', 'null | setpath([-1]; 1)', '[1] | setpath([-2]; 1)',
             '{} | setpath([]; 1)', '[1,2] | to_entries', '{"a":1} | to_entries', '[{"k":"a","v":1}] | from_entries',
             '[{"name":"a","value":1},{"key":null,"value":2},{"key":false},{"Name":"x","Value":3}] | from_entries',
             '[{"key":1,"value":2}] | from_entries', '[[1,2]] | from_entries', '{"a":1} | with_entries(.value += 1)',
             '{"a":1,"b":2} | path(..)', '[[1]] | [path(..)]', '{"a":[1]} | [paths] | length', 'path(1)',
             '[1,2] | path(.[] | select(. > 1))', '{"a":1} | path(.a | . + 1)', '[3] | pick(.[0])',
             '{"a":1,"b":{"c":2,"d":3}} | pick(.b.c)', '{"a":1} | pick(.x)', '[1,2,3] | pick(.[1])', '[1] | pick(.[-1])',
             'null | pick(.a.b)', '[1,2] | pick(first)', '{"a":1} | pick(.a, .b)', '{"a":[1,2]} | pick(.a[1])',
             '[[1,2],[3]] | getpath([0,1], [1,5])', '{"a":1} | has("a"), has("b")', '[1] | has(0), has(1)',
             '{} | has(0)', '[] | has("a")', '"a" | in({"a":1})', '0 | in([1])', '{"a":1} | [.[]?]', '1 | [.[]?]',
             '1 | .[]', '{"a":1} | keys, keys_unsorted', '1 | keys', '[3,1] | keys', 'null | keys',
             '{"b":1,"a":2} | to_entries | map(.key)', '[1,[2,[3]]] | flatten, flatten(1), flatten(0)',
             '[1,[2]] | flatten(-1)', '{"a":[1]} | flatten', '[[1,2],[3,4]] | transpose', '[[1],[2,3]] | transpose',
             '{"a":1} | any, all', '[] | any, all', '[1,null] | any(. == null), all(. != null)', 'any(1, error; . == 1)',
             'all(empty; false)', '[1,2] | combinations | tostring', '[[1,2],[3,4]] | [combinations]', '[1,2] | [combinations(2)]',
             '{"a":{"b":1}} | [.. | numbers]', '[1,[2]] | getpath(["a"])?', '{"a":1} | .a as $x | $__loc__',
             '$__loc__', '{a: $__loc__}', 'try error("x") catch $__loc__', '[1,2,3] | .[1:] = ["x"]', '[1,2,3] | .[1:] |= map(. * 2)',
             '[1,2] | .[5] = 1', '{"a":1} | .b.c = 1', 'null | .a[2] = 1', '[1] | .[-1] = 5', '[1] | .[-2] = 5',
             '[1,2,3] | .[1.7]', '[1,2,3] | .[1.2:2.9]', '[1,2] | .[null:1]', '[1,2,3] | .[nan]', '"abc" | .[0]',
             '{} | .[0]', '[] | .["a"]', '[1,2,3] | .[-1:], .[:-1], .[-10:]', '[1,2,3] | to_entries | from_entries']:
    t(prog)

# --- errors, try/catch, control
for prog in ['error(null)', 'try error(null) catch .', 'error', 'try error catch .', 'error({"a":1})',
             'try error({"a":1}) catch .', 'error("x")', '"x" | error', '1 | error', 'error(null; 1)',
             '1 / 0', '1 % 0', '[] | implode | 1', '{} + 1', '[] - {}', 'null | implode', '"a" * {}', '{} * 2',
             '[] | first', '[] | last', 'first(empty)', 'nth(-1; 1, 2)', 'nth(1; 1, 2)', '[limit(0; 1, 2)]',
             '[limit(0; error("x"))]', '[limit(-1; 1, 2)]', '[limit(1; 1, error("x"))]', '[first(range(10; 0; -1))]',
             '[skip(1; 1, 2, 3)]', '[skip(0; 1)]', '[skip(-1; 1, 2)]', '[skip(5; 1, 2)]', 'isempty(empty), isempty(1, error)',
             '[range(5)] | until(length < 3; .[1:])', '[limit(3; repeat(1))]', '[limit(5; 1 | recurse(. * 2))]',
             '[recurse(if . < 3 then . + 1 else empty end)] | length', '[2 | recurse(. * .; . < 100)]',
             'label $f | 1, break $f, 2', '[label $f | range(10) | ., (select(. == 2) | break $f)]',
             'try (1, error("x"), 3) catch .', '[.[]?]', '(1, 2) as $x | $x', '. as [$a, $b] | $a', '{} as {a: $x} | $x',
             '[[1, 2]] | .[] as [$a] | $a', '[{"a":1}] | .[] as {a: $x, $b} | [$x, $b]', '. as [$a] ?// $a | $a',
             '[[1,2], {"a":3}] | .[] as [$a, $b] ?// {a: $a} | [$a, $b]', 'reduce range(5) as $x (0; . + $x)',
             'foreach range(5) as $x (0; . + $x)', 'foreach range(5) as $x (0; . + $x; [$x, .])', 'reduce empty as $x (1; 2)',
             'if empty then 1 else 2 end', 'if null then 1 elif 1 then 2 end', 'if true then 1 end', '[.[]] | length',
             '"a" as $x | "b" as $y | $x + $y', 'def f(x): x * 2; f(3)', 'def f($a; $b): $a + $b; f(1; 2)',
             'def f: def g: 3; g; f', 'def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac',
             'try (try error("x") catch error("y")) catch .', 'error("x") // 1', '(null, false) // 2', 'empty // 3',
             '[1, null] | .[] // "d"', '1 as $x | 2 as $y | [$x, $y, $__loc__.line]', '"\\(1 + 2) and \\("x")"',
             '@base64 "x\\(1)y"', 'input', 'try input catch .', '[inputs]', 'input_line_number', '$__prog_args',
             'halt_error', '"bye\\n" | halt_error', '{"a":1} | halt_error', '"x" | halt_error(3)', '1 | halt_error(1)',
             'null | halt_error', '1, halt, 2', 'halt_error("x")', '[.] | halt_error(0)', '"x" | error(null)',
             'try ("abc" | test("(")) catch .', '"abc" | test("(")', '"a" | test("a"; 1)', 'splits("a")',
             'getpath(["a"]) |= 1', '.. |= 1', '1 | .a |= 2', '[1] | .[0] |= empty', '[1,2,3] | .[] |= empty',
             '{"a":1,"b":2} | .[] |= empty', '[1,2] | map_values(empty)', '[1,2] | to_entries[0] |= 1',
             '1 as $x | $x |= 2', '[1] | .[1:] += [2]', '{} | .a += 1', '{} | .a -= 1', '{} | .a *= 2', '{} | .a //= 3',
             '{"a":false} | .a //= 3', '[1,2] | .[] += 10', 'null | .["a"] |= . + 1']:
    t(prog)
    n(prog)

# --- math and numbers
unary = ["significand", "logb", "gamma", "lgamma", "tgamma", "lgamma_r", "frexp", "modf", "nearbyint", "trunc",
         "round", "ceil", "floor", "fabs", "sqrt", "exp10", "exp2", "cbrt", "log", "log2", "log10", "abs", "rint",
         "toarray", "tojson", "tostring", "isinfinite", "isnan", "isnormal", "isvalid(.)", "-.", "type", "length",
         "not", "ceil | tojson", "significand | tojson", "@text", "[.] | tojson", "infinite > ."]
vals = ["8", "0", "-3.5", "2.5", "-2.5", "0.5", "-0", "1e308", "1e-320", "infinite", "-infinite", "nan", "null",
        "\"a\"", "[-1]", "100000000000000000001", "1.0", "1.10"]
for f, v in itertools.product(unary, vals):
    t(f"{v} | {f}")
for prog in ['ldexp(3; 2)', 'ldexp(1; 1024)', 'scalb(2; 3)', 'scalbln(2; 3)', 'pow(2; 0.5)', 'pow(0; -1)', 'log(0)',
             'fma(2; 3; 4)', 'fmin(1; nan)', 'fmax(1; 2)', 'fmod(5; 3)', 'fmod(-5; 3)', 'fmod(5; 0)', 'atan2(1; 1)',
             'nexttoward(1; 2)', 'nextafter(1; 0)', 'copysign(1; -0)', 'drem(5; 3)', 'remainder(5; 3)', 'fdim(5; 3)',
             'hypot(3; 4)', 'frexp', 'pow10', '[.[]?] | add', '2 | exp10', '3 | pow(.; 2)', '10 | log10 | tojson',
             '[1, 2] | pow(.[0]; .[1])', '[0.1 + 0.2, 1 / 3, 2 / 3, 1e-7, 123456789012345678, 3.141592653589793] | tojson',
             '1e17, 1e16, 12345678901234567890, 0.1, 1e-5, 1.5e300, 5e-324, 1.7976931348623157e308 | tojson',
             '9007199254740993, -9007199254740993 | ., tojson, . + 0', '[9007199254740993] | tojson',
             '-0, -0.0, 0.0, -1e-400 | ., tojson', '1.0 + 0 | tojson', '1.0 | tojson', '1E2, 1e2, 1.0e2 | tojson',
             '100000000000000000001 | ., tostring, tojson, . + 0, -., . == 100000000000000000000',
             '1e1000 | ., tojson', '-1e1000 | tostring', '[1e1000] | tostring', '3.0 | @text', '[3.00] | @text',
             'infinite, -infinite, nan | tojson', '[infinite, -infinite, nan] | tostring', 'nan | tostring',
             '[nan] | sort', '[nan, 1, null] | sort', '[1, nan, -infinite] | sort', 'nan < 1, nan > 1, nan == nan',
             'nan < nan, nan > nan, [nan] == [nan]', '[nan] | unique', '[nan, nan] | group_by(.)', '[1, nan] | min, max',
             '{"a": nan} | .a < 0', 'nan | floor', 'infinite | floor', '[nan] | index(nan)', '[nan, 1] | sort_by(.)',
             '[{"a": nan}, {"a": 0}] | min_by(.a), max_by(.a)', 'nan | isnan, isinfinite, isnormal', '[nan] | contains([nan])',
             '5 % -2, -5 % 2, 5.5 % 2, 5 % 2.5, -5 % -2', '1e19 % 7', '9223372036854775807 % 10', '-9223372036854775808 % -1',
             'nan % 1', '1 % nan', 'infinite % 2', '2 % infinite', '17 / 0', '0 / 0', '-1 / 0', '1 - nan', 'infinite - infinite',
             '[1, 2, 3] | .[1.5]', '10 / 3 | floor, round, ceil, trunc', '-0.5 | round, ceil, floor, trunc, nearbyint',
             '0.1 + 0.2 == 0.3', '1 == 1.0, 1 == 1.000', '[1.0, 1, 1.00] | unique', '{"a": 1.0} == {"a": 1}',
             '[1, 1.0] | group_by(.) | length', '1.5 | floor | tojson', '2 | sqrt | tojson', '100 | sqrt', '-1 | sqrt',
             '10 | exp | tojson', '1 | atan * 4', 'now | type', 'now > 1700000000', 'infinite | tojson | fromjson',
             '[limit(3; range(0; 1; 0.3))]', '[range(5; 0; -2)]', '[range(0; 1; 0)] | length', '[limit(3; range(1; infinite))]',
             '[range(2.5)]', '[range(-1)]', '[range(1; 2; -1)]', 'have_literal_numbers', 'have_decnum',
             '$__loc__ | .file', '123 | tostring | length', '[1,2] | add / length', '1 as $x | [$x, -$x]',
             '-(1, 2)', '[-.[]?]', '"a" | -.', '{} | -.', 'null | -.', '-null', '[splits("")]?']:
    t(prog)

# --- collections
for prog in ['[] | min_by(.a), max_by(.a), min, max, add', '[] | group_by(.a), unique_by(.a), sort_by(.a)',
             '[{"a":1,"b":1},{"a":0,"b":2},{"a":1,"b":3}] | group_by(.a)',
             '[{"a":1,"b":1},{"a":0,"b":2},{"a":1,"b":3}] | unique_by(.a)',
             '[{"a":1,"b":1},{"a":0,"b":2},{"a":1,"b":3}] | sort_by(.a)',
             '[{"a":1,"b":1},{"a":0,"b":2},{"a":1,"b":0}] | sort_by(.a, .b)',
             '[{"a":1,"b":1},{"a":0,"b":2},{"a":1,"b":3}] | min_by(.a), max_by(.a)',
             '[[1,"b"],[1,"a"],[0,"c"]] | sort_by(.[0])', '[3,1,2] | sort_by(-.)', '[1, "a", null, [], {}, true, false] | sort',
             '[{"b":1,"a":2},{"a":1}] | sort', '[[2],[1,2],[1]] | sort', '[1,1,2] | unique', '"abc" | sort',
             '{"a":1} | sort', '[1, [2]] | min, max', '[{"a":[1]},{"a":[0,5]}] | max_by(.a)',
             '[1,2,3] | walk(if type == "number" then . + 1 else . end)', '[[1],{"a":[2]}] | walk(if type == "array" then sort else . end)',
             '{"b":{"c":1},"a":2} | walk(if type == "object" then del(.a) else . end)', '[1,[2]] | walk(numbers)',
             '[1, [2, 3]] | walk(if type == "number" then empty else . end)', '{"a":[1]} | walk(.)', '1 | walk(tostring)',
             '[1,null] | walk(values)', '{"a":1} | walk(if type == "object" then to_entries else . end)',
             '{"a":1,"b":null} | add', '["a","b"] | add', '[[1],[2]] | add', '[{"a":1},{"b":2}] | add', '[1,null,2] | add',
             'add(1, 2)', 'add(empty)', '[1,2] | add(.[])', '{"a":1,"b":2} | map(. * 10)', '{"a":1} | map_values(. + 1)',
             '1 | map(.)', '[1,2] | map_values(empty)', '[3,1,2] | min_by(.), max_by(.)', '[[1,2],[1]] | max_by(length)',
             '[1,2,3] | any(. > 2), all(. > 0)', '{"a":[1,2]} | [.a[] | select(. > 1)]', '[1,2,3] | index(2), rindex(2)',
             '[1,2,3] | .[1:] | index(3)', '[] | first(.[]), last', '[1,2,3] | first, last, nth(1)', '[1,2] | nth(5)',
             '[1,2] | nth(-1)', '[{"a":1},{"a":2}] | INDEX(.a)', 'INDEX({"id":1},{"id":2}; .id)', '[1,2] | IN(1, 3)',
             '2 | IN([1,2][])', '[[1,"a"],[2,"b"]] | [JOIN({"1":"x"}; .[0] | tostring)]', 'ascii(65)',
             '[1,2,3] | tojson | fromjson | length', '[1,[2]] | getpath([1,0])', '{} | tostream', '[3,2,1] | sort | reverse',
             '"abc" | reverse', 'null | reverse', '{"a":1} | reverse', '[] | reverse', '1 | reverse',
             '[1,2] | contains([1]), inside([1,2,3])', '{"a":1,"b":2} | del(.a, .b)', '[1,2,3] | del(.[] | select(. == 2))',
             '[{"a":1}] | .[0].a |= . + 1', 'splits', '{"a":[1,2]} | .a | length', '[1,2] | getpath([0]) as $x | $x',
             '{"a":{"b":{"c":1}}} | [leaf_paths | join(".")]', '[1,2,3] | to_entries | map(.key)', 'env | type',
             '$ENV | type', '$ENV.JQD_X', 'env.JQD_X', '$ENV | has("JQD_X")', 'env.JQD_NONE', '[splits("a";null)]?',
             '{"a":1} | tojson | ascii_downcase', 'getpath(["a",0,"b"])', '[getpath(["a"],["b"])]', 'tojson',
             'input_filename', '[1,2] | implode', 'splits("")', '"x" | ascii_downcase | explode | implode',
             '[.[] | tostring]?', 'infinite | [., -.] | sort', '[{}, [], "", 0, null, false] | sort | map(type)',
             '{"b":2,"a":1,"c":{"z":1,"y":2}} | keys, (to_entries | map(.key))', '[1,[1]] | unique', '[[],{}] | unique',
             'splits("a"; "g")', 'test("a")', 'ltrimstr("a")', 'tostream', 'fromstream(empty)', '[1] | tostream',
             'getpath([]) | tostream', '[[0],1] | fromstream(.)', 'fromstream([[0],1], [[0]])',
             'fromstream(([[0],1], [[0]]), ([["a"],2], [["a"]]))', '[1, [2]] | [tostream] | fromstream(.[])',
             '{"a": {"b": 1}} | [tostream] | map(tojson)', 'tojson | fromjson', 'debug', '1 | debug("x")',
             '1 | debug("x", "y")', '[1] | debug(.[0])', '1 | stderr', '"x" | stderr', '{"a":1} | debug',
             'input_line_number', '$__loc__.line', 'get_search_list', 'splits(null)', '"abc" | splits(null)',
             '[limit(2; inputs)]', 'getpath(["x"]; 1)', 'ltrimstr', 'builtins | length', 'builtins | map(select(startswith("s"))) | sort',
             '"test" | ascii(1)', 'significand(1)', 'tojson(1)', 'now(1)', 'toarray(1)', 'pick', 'abs(1)', 'trim(1)',
             'have_decnum(1)', '@urid(1)', 'error(1; 2)', 'getpath', 'splits', 'getpath(1; 2; 3)']:
    t(prog)
for prog in ['flor', '1 | tostirng', 'def myfunc: 1; myfun', 'lenght', 'ascii_down', 'splits("a"; "b"; "c")', 'rang(5)',
             'range(1; 2; 3; 4)', 'to_entry', 'foo', 'x', 'abcdefghijklmnop', 'mapp(.)', '$x', 'map', 'tojsn', 'input_filenam',
             'import "m" as m; m::g', 'import "m" as m; m::ff', 'include "m"; ff', 'def f(g): g; f', 'def f($a): $a; f(1; 2)',
             '[.[] | strng]', 'getpth(["a"])', 'ltrimstr("a"; "b")', 'utf8bytelen', 'Floor', 'FLOOR', 'f', '_match_imp(1;2;3)']:
    cases.append((["-n", prog], "", {}))

# --- dates
for s, f in [("2015-03-05T23:51:47Z", "%Y-%m-%dT%H:%M:%SZ"), ("05/03/2015", "%d/%m/%Y"), ("1425599507", "%s"),
             ("2015 64", "%Y %j"), ("Thursday, March 05, 2015", "%A, %B %d, %Y"), ("10:15", "%H:%M"),
             (" 5/3/15", "%e/%m/%y"), ("2015-03-05 23:51:47 +0100", "%Y-%m-%d %H:%M:%S %z"), ("x", "%Y"),
             ("Mar 5 2015", "%b %d %Y"), ("2015-03-05T23:51:47.123Z", "%Y-%m-%dT%H:%M:%SZ"), ("15", "%y"),
             ("2015-02-30", "%Y-%m-%d"), ("12:00 PM", "%I:%M %p"), ("2015-03-05", "%F"), ("23:51:47", "%T"),
             ("2015-03-05 junk", "%Y-%m-%d"), ("2015-W10-4", "%G-W%V-%u"), ("1969-12-31T23:59:59Z", "%Y-%m-%dT%H:%M:%SZ"),
             ("Thu Mar  5 23:51:47 2015", "%c"), ("03/05/15", "%D"), ("5", "%e"), ("%", "%%"), ("", ""),
             ("2015-03-05T23:51:47 UTC", "%Y-%m-%dT%H:%M:%S %Z"), ("99999-01-01", "%Y-%m-%d")]:
    t(f'"{s}" | strptime("{f}")')
    t(f'"{s}" | strptime("{f}") | mktime')
    t(f'"{s}" | strptime("{f}") | todate')
for v in ['1425599507', '1425599507.9', '1.5', '-1.5', '1e12', '-62167219200', '253402300800', '1e20', '0', '"x"',
          '1425599507.123', '-0.5', 'null', '[]', '1e-7']:
    for f in ["todate", "gmtime", "gmtime | mktime", "gmtime | todate", "date", "dateadd(\"seconds\"; 10)",
              "datesub(\"seconds\"; 10)", "todateiso8601", "localtime | mktime", "strftime(\"%A %B %c %D %e %G %g %I %p %r %R %u %V %w %W %x %X %C %h %k %l\")"]:
        t(f"{v} | {f}")
for v in ['"2015-03-05T23:51:47Z"', '"2015-03-05T23:51:47.123Z"', '"2015-03-05"', '"x"', '1', 'null',
          '"2015-03-05T23:51:47+01:00"', '"1900-01-01T00:00:00Z"']:
    for f in ["fromdate", "fromdateiso8601", "dateadd(\"seconds\"; 1)", "fromdate | todate"]:
        t(f"{v} | {f}")
for v in ['[2015,2,5,23,51,47,4,63]', '[2015,2,5]', '[2015.5,2,5,23,51,47.9,4,63]', '["a"]', '[1,2]', '{}',
          '[2015,2,5,23,51,47,"x",63]', '[-1,0,1,0,0,0,0,0]', '[2015,14,5,23,51,47,4,63]', '[1e10,0,1,0,0,0,0,0]']:
    for f in ['mktime', 'todate', 'strftime("%F %T %j %a %U")', 'strflocaltime("%F %T")', 'timegm? // "n"']:
        t(f"{v} | {f}")
for tz in ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Etc/GMT+12"]:
    for prog in ["1720000000 | localtime", "1720000000 | strflocaltime(\"%F %T %Z %z\")", "1700000000 | localtime | mktime",
                 "1720000000 | localtime | strftime(\"%c %Z\")", "\"2024-07-03 12:00:00\" | strptime(\"%Y-%m-%d %H:%M:%S\") | mktime",
                 "1720000000.5 | localtime", "[2024,6,3,12,0,0,0,0] | strflocaltime(\"%H %Z\")",
                 "\"10:00 +0530\" | strptime(\"%H:%M %z\")", "1720000000 | todate", "now | localtime | length"]:
        n(prog, {"TZ": tz})

# --- output options
docs = ['{"b":{"d":1,"c":[3,{"z":1,"y":2}]},"a":"é\\u0000"}', '[1,[2,[3]],{}]', '"x"', '[]', '{}', '1.50']
for opts in [["--indent", "0"], ["--indent", "1"], ["--indent", "7"], ["--indent", "8"], ["--indent", "-1"],
             ["--indent", "3", "--tab"], ["--tab", "--indent", "3"], ["--indent", "abc"], ["-c", "--tab"], ["--tab", "-c"],
             ["--indent", "2", "-c"], ["-c", "--indent", "2"], ["-S"], ["-S", "-c"], ["--seq"], ["--seq", "-c"], ["-r"],
             ["-j"], ["-a"], ["-a", "-r"], ["--raw-output0"], ["-C"], ["-C", "-S"], ["--tab"], ["-s", "-c"], ["-e"],
             ["--stream", "-c"], ["-S", "--tab"], ["--indent", "99"], ["--indent", "+2"], ["--seq", "-r"],
             ["--unbuffered", "-c"], ["--ascii-output", "-c"], ["--join-output"], ["--sort-keys", "-r"]]:
    for d in docs:
        cases.append((opts + ["."], d, {}))
for opts, inp in [(["-e", "."], "false"), (["-e", "."], "null"), (["-e", "."], "1"), (["-e", "empty"], "1"),
                  (["-e", ".[]"], "[1, null]"), (["-e", ".[]"], "[null, 1]"), (["--exit-status", "."], "false"),
                  (["-e", "error"], '"x"'), (["-e", "halt_error"], '"x\\n"'), (["-n", "input"], ""), (["-n", "[inputs]"], ""),
                  (["-s", "."], ""), (["-s", "-c", "."], "1 2"), (["-n", "-s", "-c", "[inputs]"], "1 2"),
                  (["-R", "."], "a\nb"), (["-R", "-s", "."], "a\nb\n"), (["-R", "-n", "-c", "[inputs]"], "a\nb"),
                  (["-R", "input_line_number"], "a\nb\nc"), (["input_line_number"], "1\n2\n3"),
                  (["-c", "[., input_line_number]"], "1\n\n2 3\n"), (["-c", "[inputs]"], "1 2 3"),
                  (["-r", ".[]"], '["a", 1, null, "b\\nc"]'), (["-j", ".[]"], '["a", 1, "b"]'),
                  (["--raw-output0", ".[]"], '["a", "b"]'), (["--raw-output0", "."], '"a\\u0000b"'),
                  (["-a", "-c", "."], '["é😀\\u0001"]'), (["-a", "-r", "."], '"é😀"'), (["-c", "--seq", ".[]"], "[1, [2]]"),
                  (["--arg", "x", "1", "-n", "$x, $ARGS"], ""), (["--argjson", "x", "{\"a\":1}", "-n", "-c", "$x.a"], ""),
                  (["--argjson", "x", "{", "-n", "1"], ""), (["-n", "-c", "$__named"], ""), (["-n", "$ENV.JQD_X"], ""),
                  (["-n", "env.JQD_X"], ""), (["-n", "-c", "$ARGS", "--args", "a", "b"], ""),
                  (["-n", "-c", "$ARGS", "--jsonargs", "1", "{\"a\":2}"], ""), (["-n", "-c", "$ARGS", "--jsonargs", "x"], ""),
                  (["-c", "--stream", "."], '{"a":[1,{"b":2}]}'), (["-c", "--stream", "."], "1 [] {}"),
                  (["-c", "--stream", "-n", "[inputs]"], "[1]"), (["-c", "--stream", "fromstream(inputs)", "-n"], '{"a":[1,2]}'),
                  (["-c", "tostream"], '{"a":[1,{"b":2}]}'), (["--tab", "-S", "."], '{"b":{"d":1,"c":2},"a":[{"z":0,"y":1}]}'),
                  (["-S", "-c", "."], '{"b":{"d":1,"c":2},"a":[{"z":0,"y":1}],"A":null,"é":1,"e":2}'),
                  (["-S", "-c", "keys_unsorted"], '{"b":1,"a":2}'), (["-c", "-S", "tojson"], '{"b":1,"a":2}'),
                  (["-c", "-S", "tostring"], '{"b":1,"a":{"d":1,"c":2}}'), (["-S", "-r", "@json"], '{"b":1,"a":2}'),
                  (["-C", "-c", "."], '{"a":[1,"x",null,true,{"b":false}]}'), (["-C", "."], '[]'), (["-C", "."], '{"a":{}}'),
                  (["-n", "-r", "@text \"\\(1.0) \\(1e1000) \\(100000000000000000001)\""], ""),
                  (["-c", ".[] | tojson"], "[1.0, 1.10, 1e2, 100000000000000000001, -0, 0.0001, 1e-5]"),
                  (["-c", ".[] | tostring"], "[1.0, 1.10, 1e2, 100000000000000000001, -0]"),
                  (["-c", ". == 1"], "1.0"), (["-c", "map(. + 0)"], "[1.0, 1.10, 1e2, -0]"),
                  (["-c", "input_filename"], "1"), (["-n", "input_filename"], ""), (["-c", "$__loc__"], "1"),
                  (["-n", "-c", "[limit(3; inputs)]"], "1 2 3 4 5"), (["-n", "-c", "first(inputs)"], "1 2"),
                  (["-c", "first(inputs)"], "1 2 3"), (["-c", "[., input]"], "1 2 3"), (["-c", "[., input]"], "1 2"),
                  (["-n", "-c", "[., input]"], ""), (["-c", "debug"], "[1]"), (["-c", "debug(\"m\")"], "[1]"),
                  (["-c", "stderr"], '{"a":"x"}'), (["-c", "input_line_number"], "{\n\"a\":\n1}\n"),
                  (["-n", "-c", "$ENV | type"], ""), (["-n", "-c", "[$ENV.JQD_X, env.JQD_X, ($ENV | .JQD_X)]"], "")]:
    cases.append((opts, inp, {"JQD_X": "x y"}))

# --- files and modules (in the scratch directory)
for args in [["input_filename", "a.json", "b.json"], ["-c", "[input_filename, .]", "a.json", "b.json"],
             ["-n", "[inputs | input_filename]", "a.json"], ["-c", "[., input_filename]", "a.json", "nope.json"],
             ["-n", "-c", "input_filename, (input | input_filename)", "a.json"], ["-c", "input_line_number", "b.json"],
             ["-L", ".", "-n", "-c", 'import "m" as m; m::f'], ["-n", "-c", 'include "m"; f'],
             ["-n", "-c", 'import "d" as $d; $d, $d::d'], ["-n", "-c", 'import "m" as m; [m::f, m::g(2)]'],
             ["-L", ".", "-n", "-c", 'import "m" as m; m::nope'], ["-n", "-c", 'import "nope" as n; 1'],
             ["-n", "-c", 'import "m" as m; modulemeta'], ["-n", "-c", '"m" | modulemeta'], ["-n", "-c", '"d" | modulemeta'],
             ["-n", "-c", 'import "m" as m {search: "."}; m::f'], ["-n", "-c", 'module {a: 1}; 1'],
             ["-n", "-c", 'import "m" as m; import "m" as m2; [m::f, m2::f]'], ["-n", "-c", 'include "m"; include "m"; f'],
             ["-n", "-c", 'get_search_list'], ["-L", "x", "-L", "y", "-n", "-c", "get_search_list"], ["-n", "-c", "get_prog_origin"],
             ["-f", "p.jq", "-n", "-c"], ["-n", "-c", "-f", "p.jq", "--arg", "a", "1"], ["-n", "--rawfile", "r", "a.json", "$r"],
             ["-n", "-c", "--slurpfile", "s", "b.json", "$s"], ["-n", "--slurpfile", "s", "nope.json", "$s"],
             ["-n", "--rawfile", "r", "nope.json", "$r"], ["-c", ".", "bad.json", "a.json"],
             ["-n", "-c", 'import "m" as m; def f: 2; [f, m::f]'], ["-n", "-c", 'include "m"; def f: 2; f'],
             ["-n", "-c", 'import "sub/s" as s; s::s'], ["-n", "-c", 'import "m" as $m; $m'],
             ["-n", "-c", 'import "m" as m; m::f(1)'], ["-n", "-c", 'import "./m" as m; m::f'],
             ["-L", ".", "-n", "-c", '"m" | modulemeta'], ["-L", ".", "-n", "-c", '"sub/s" | modulemeta'],
             ["-n", "-c", 'import "m" as m; m::ff'], ["-n", "-c", 'include "m"; gg(1)']]:
    cases.append((args, "", {"FILES": "1"}))


def setup(d):
    files = {"a.json": "1\n", "b.json": "[2]\n{\"c\":3}\n", "bad.json": "[1,\n", "m.jq": 'def f: "m"; def g(x): x + 1;',
             "d.json": '{"d":1} [2]', "p.jq": '[$__loc__, 1]\n', "sub/s.jq": 'import "m" as m; def s: m::f + "s";'}
    for name, text in files.items():
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


same, diffs = jq18_diff_runner.compare(cases, JV, JQ, setup)
print(f"differential: {same} of {len(cases)} cases agree with jq 1.8.2")
