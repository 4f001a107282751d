#!/usr/bin/env python3
"""A differential of jview against jq 1.8.2 over issue 22's areas: numbers, %, regex flags, dates in zones,
@formats, range/3, arguments, output options, colours, -n -s, UTF-8 from outside, compile errors, modules and
--lenient (compared with jq without the option). Prints each difference and the count of agreeing cases.
Usage: jq18_details_diff.py [--jview build/jview] [--jq ../shared/tools/jq-1.8]  (about 2 minutes)"""
import argparse, itertools, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jq18_diff_runner  # noqa: E402

_ap = argparse.ArgumentParser()
_ap.add_argument("--jview", default="build/jview")
_ap.add_argument("--jq", default="../shared/tools/jq-1.8")
_args = _ap.parse_args()
JV = os.path.abspath(_args.jview)
JQ = os.path.abspath(_args.jq)
cases = []  # (args, stdin, env)
nums = ["1e1000", "-1e1000", "1e308", "9223372036854775807", "-9223372036854775808", "1e19", "0.5", "-0", "1E-3", "1E2", "100000000000000000001", "1.50", "3"]
for a in nums:
    for op in ["isinfinite", ". * 0", ". - .", "-. | tojson", "tostring", ". % 10", "10 % .", "floor", ". + 1 | tojson", "[.] | tojson", ". == 1e1000", "isnormal", "-(.)"]:
        cases.append((["-nc", f"{a} | {op}"], "", {}))
    cases.append((["-c", ". % 7, isinfinite, (. * 0)"], a, {}))
for pat, flags, s in itertools.product(["a|ab", "ab|a", "b*", "(a)(b)?", "x?"], ["l", "gl", "g", "il", "n"], ["ab", "abab", "xaby", "AB"]):
    cases.append((["-nc", f'"{s}" | [match("{pat}"; "{flags}") | .string], [test("{pat}"; "{flags}")]'], "", {}))
dates = ["0", "1720000000", "[2024,0,0,0,0,0,0,0]", "[]", "[2024,13,40,25,61,61,0,0]", "[2024,2,31,2,30,0,0,0]", "[2024,9,27,2,30,0,0,0]", "[1e20,0,1]", "[2024,1,29]", "[2024.7,0,1,0,0,59.9]", "-1"]
for d, f, tz in itertools.product(dates, ["strftime(\"%F %T %Z %z %j %a\")", "strflocaltime(\"%F %T %Z %z\")", "todate", "mktime", "localtime", "gmtime"], ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"]):
    cases.append((["-nc", f"{d} | try ({f}) catch ."], "", {"TZ": tz}))
for arr in ['["a\\u0000b","c"]', '["\\t\\n\\r\\\\", 1, null, true]', '[1.5, "x,y", "q\\"q"]']:
    for fmt in ["@tsv", "@csv", "@sh", "@json", "@text", "@html", "@uri", "@base64"]:
        cases.append((["-nc", f"{arr} | try {fmt} catch ."], "", {}))
rng = ["0", "{}", "null", "\"a\"", "[]", "5", "-1", "0.5", "true"]
for f, u, b in itertools.product(rng, ["10", "3", "{}", "null"], ["3", "-2", "0", "null", "1"]):
    if u == "{}" and b in ("3", "1") and f in ("0", "5", "-1", "0.5", "null", "true"):
        continue  # these never end in jq (numbers sort before objects)
    cases.append((["-nc", f"[limit(20; range({f}; {u}; {b}))] | length, .[:3]"], "", {}))
cases += [
    (["-n", "-c", "$ARGS", "--args", "a", "--jsonargs", "1", "{}", "--args", "2"], "", {}),
    (["-n", "-c", "$ARGS", "--jsonargs", "1", "--args", "x"], "", {}),
    (["-n", "-c", "[$x, $ARGS.named]", "--arg", "x", "1", "--arg", "x", "2", "--argjson", "y", "3", "--arg", "a", "b"], "", {}),
    (["-n", "-c", "$ARGS.named", "--argjson", "b", "[1]", "--arg", "a", "x", "--argjson", "a", "2"], "", {}),
    (["-c", "$ARGS", "--args"], "1", {}),
    (["-n", "-c", "$__prog_args", "--args", "a"], "", {}),
]
for opts in [["-r", "-a"], ["-j", "-a"], ["-a", "-r"], ["--raw-output0", "-j"], ["-j", "--raw-output0"], ["--raw-output0", "-a"], ["--seq", "-r"], ["--seq", "-a", "-r"], ["-r", "--seq", "-j"], ["-C", "-M"], ["-M", "-C"], ["-a", "-C", "-r"]]:
    for prog in ['"é", ["é"], 1, null', '"a", "b"', '"x\\u0000"', '{"k":"é"}']:
        cases.append((["-n"] + opts + [prog], "", {}))
for jc in ["0;31:0;32:0;33:0;34:0;35:0;36:0;37:1;31:9;9", "38;2;255;100;0", "0;31:", "0;31::1;32", "", "x", "1:2:3:4:5:6:7:8x", "1;31:0;32:0;33:0;34:0;35:0;36:0;37:1;31:::::"]:
    cases.append((["-C", "-c", "."], '{"a":[1,null,"s",true,false,{}]}', {"JQ_COLORS": jc}))
for opts, prog in itertools.product([["-n", "-s"], ["-s"], ["-n", "-R", "-s"], ["-n", "-R"], ["-n", "-s", "--stream"]], [".", "input", "[inputs]", "., input", "try (input, input) catch ."]):
    cases.append((opts + ["-c", prog], "1 2\n[3]", {}))
bad = "a\udce2A\udcc0\udc80\udce0\udc80\udc80z\udcf8\udced\udca0\udc80\udcf4\udc90\udc80\udc80"
for prog in ["$x", "$x | explode", "$x | length", "$x | @base64", "$x | test(\"z\")", "$x | utf8bytelength", "$x | ascii_downcase", "[$x] | tojson", "$x | @uri"]:
    cases.append((["-n", "-c", prog, "--arg", "x", bad], "", {}))
    cases.append((["-n", "-c", prog.replace("$x", "$ARGS.positional[0]"), "--args", bad], "", {}))
    cases.append((["-n", "-c", prog.replace("$x", "env.B")], "", {"B": bad}))
    cases.append((["-n", "-c", prog.replace("$x", '"' + bad + '"')], "", {}))
for line in [b"a\xe2A\n\xc0\x80\xff\n", b"\xed\xa0\x80x\n", b"\xf0\x9f\x98", b"ok\n"]:
    cases.append((["-R", "-c", "., explode, length"], line, {}))
    cases.append((["-R", "-s", "-c", "., explode"], line, {}))
for prog in ["$a, $b", "foo, bar(1), $c", "def f: $x; f, $y", "def g: n1; def h: n2; g, h", "foo($a)", ". as [$a] | $b, $c",
             "label $f | break $g", "if . then 1", "{(0):1}, $z", "def f(a): a; f($q), $r", "1 +", "[$x, nope]",
             # which bodies jq compiles: a body's own code first, its subfunctions (called definitions, closures:
             # arguments of functions written in jq, the sides of = and |=, the path of += and //=) only without errors
             "def f(a): a; f($q), f($s)", "def f(a): a; f($q), f(g($s), $t)", "def f: $q; def g(a): a; g($s), f",
             "def a: $x; def b: $y; b, a", "def f: break $out; def g: f; 2", "def f: $q; def g: f; g, $r",
             "def g: def f: $q; f, $s; g", "def f: $a; def g: f; def h: g; h", "def f(x): x; def g: f($a), $b; g",
             "ltrimstr($q), $r", "getpath($q), $r", "splits($q; $s), $r", "limit($q; 1), $r", "path(.a[$q]), $r",
             "setpath($q; 1), $r", "pow($q; $s), $r", ".[$q] |= 1, $r", ".a = $q, $r", ".[$q] += 1, $r", ".a += $q, $r",
             ".a //= $q, $r", ".[$q] //= 1, $r", ".a |= (.b |= $q)", "reduce .[] as $x (0; . + $q), map($r)",
             "def f: $q; map(f, $s)", "map(def f: $q; f), $r", "def f: f, $q; f", "def f: $q; def g: f; def h: f; h, g"]:
    cases.append((["-n", prog], "", {}))
for prog in ['import "a/a" as x; .', 'include "a/b/b"; .', 'import "a/a" as $x; .', 'import "a/b" as x; .', 'get_prog_origin', 'import "m" as m; m::f', 'import "d" as $d; $d', 'import "pk" as p; p::m']:
    cases.append((["-n", "-c", prog], "", {"FILES": "1"}))
for inp in ["NaN", "[nan]", "Infinity", "-Infinity", "[01]", "[.5]", "[1.]", "[+1]", "{\"a\":-nan}", "[infinity]", "1 NaN 2", "[1,"]:
    cases.append((["-c", ".", "--lenient"], inp, {"LENIENT": "1"}))

def setup(d):
    os.makedirs(os.path.join(d, "pk/jq"))
    open(os.path.join(d, "pk/jq/main.jq"), "w").write('def m: "main";')
    open(os.path.join(d, "m.jq"), "w").write('def f: "m";')
    open(os.path.join(d, "d.json"), "w").write('1 [2]')


same, diffs = jq18_diff_runner.compare(cases, JV, JQ, setup, stderr="compile")
print(f"differential: {same} of {len(cases)} cases agree with jq 1.8.2")
