#!/usr/bin/env python3
"""tests/filter/cli_lang.py: the command-line side of the jq language, exact bytes and exit codes: runtime error
messages (jq 1.8's "(not a string)" form, FILE:LINE, "<unknown>" before any input), halt_error, compile errors
with their line, column and carets, input_filename / input_line_number, and modules (-L, import, include, data
imports, ~ and the default search path, ~/.jq as a file). Expected outputs were produced by jq 1.8.2
(../shared/tools/jq-1.8) with "jq: " written "jview: " (and jview's "did you mean" line added after an undefined
function, issue 23); @TMP@ stands for the case directory.

Usage: cli_lang.py --jview build/jview [--jq PATH]   (--jq: also check each expectation against that jq)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FILES = {'a.json': '1\n2\n\n3\n',
 'b.json': '{"x":1}\n',
 'mods/foo.jq': 'def g: "mods";\n',
 'mods/loc.jq': 'def loc: $__loc__;\n',
 'mods/bad.jq': 'def g: 1 +;\n',
 'mods/notlib.jq': '1\n',
 'mods/sub/sub.jq': 'def s: "sub";\n',
 'mods/data.json': '{"d":1}\n[2]\n',
 'mods/chain.jq': 'import "foo" as f; def c: "chain-" + f::g;\n',
 'home/.jq/foo.jq': 'def g: "home";\n',
 'home/x/foo.jq': 'def g: "home-x";\n',
 'home2/.jq': 'def hello: "dotjq-file";\n'}

CASES = [{'name': 'error with an object',
  'args': ['-c', 'error'],
  'stdin': '{"a":1}\n',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at <stdin>:1) (not a string): {"a":1}\n',
  'exit': 5},
 {'name': 'error with null',
  'args': ['-n', 'error(null)'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at <unknown>) (not a string): null\n',
  'exit': 5},
 {'name': 'error with a number and -n',
  'args': ['-n', 'error(1)'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at <unknown>) (not a string): 1\n',
  'exit': 5},
 {'name': 'error with a string',
  'args': ['-n', '"x\\ny" | error'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at <unknown>): x\ny\n',
  'exit': 5},
 {'name': 'error with message object',
  'args': ['-n', 'error({"message":"m"})'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at <unknown>) (not a string): {"message":"m"}\n',
  'exit': 5},
 {'name': 'errors name file and line',
  'args': ['error', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at a.json:1) (not a string): 1\n'
            'jview: error (at a.json:2) (not a string): 2\n'
            'jview: error (at a.json:4) (not a string): 3\n',
  'exit': 5},
 {'name': 'errors with several files',
  'args': ['-c', 'error(tostring)', 'a.json', 'b.json'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at a.json:1): 1\n'
            'jview: error (at a.json:2): 2\n'
            'jview: error (at a.json:4): 3\n'
            'jview: error (at b.json:1): {"x":1}\n',
  'exit': 5},
 {'name': 'error after inputs read with -n',
  'args': ['-n', '[inputs] | error', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at a.json:4) (not a string): [1,2,3]\n',
  'exit': 5},
 {'name': 'error with -s',
  'args': ['-s', 'error', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at a.json:4) (not a string): [1,2,3]\n',
  'exit': 5},
 {'name': 'error with -R',
  'args': ['-R', 'error', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error (at a.json:1): 1\n'
            'jview: error (at a.json:2): 2\n'
            'jview: error (at a.json:3): \n'
            'jview: error (at a.json:4): 3\n',
  'exit': 5},
 {'name': 'a runtime error does not stop the next input',
  'args': ['-c', 'if . == 2 then error("two") else . end', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '1\n3\n',
  'stderr': 'jview: error (at a.json:2): two\n',
  'exit': 0},
 {'name': 'halt_error string',
  'args': ['halt_error'],
  'stdin': '"bye\\n"\n',
  'env': None,
  'stdout': '',
  'stderr': 'bye\n',
  'exit': 5},
 {'name': 'halt_error object',
  'args': ['-c', 'halt_error'],
  'stdin': '{"a":1}\n',
  'env': None,
  'stdout': '',
  'stderr': '{"a":1}\n',
  'exit': 5},
 {'name': 'halt_error with code',
  'args': ['-n', '"x" | halt_error(1)'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'x',
  'exit': 1},
 {'name': 'input_filename of files',
  'args': ['-c', 'input_filename', 'a.json', 'b.json'],
  'stdin': '',
  'env': None,
  'stdout': '"a.json"\n"a.json"\n"a.json"\n"b.json"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input_filename of stdin',
  'args': ['input_filename'],
  'stdin': '1\n',
  'env': None,
  'stdout': '"<stdin>"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input_filename with -n',
  'args': ['-n', 'input_filename'],
  'stdin': '',
  'env': None,
  'stdout': 'null\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input_line_number',
  'args': ['-c', 'input_line_number', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '1\n2\n4\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input_line_number raw',
  'args': ['-R', 'input_line_number', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '1\n2\n3\n4\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input_line_number slurp',
  'args': ['-s', 'input_line_number', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '4\n',
  'stderr': '',
  'exit': 0},
 {'name': 'compile error caret',
  'args': ['-n', '. as $x | $y'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: $y is not defined at <top-level>, line 1, column 11:\n'
            '    . as $x | $y\n'
            '              ^^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'compile error on a later line',
  'args': ['-n', '1 +\n 2 +\n )'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: syntax error, unexpected INVALID_CHARACTER at <top-level>, line 3, column 2:\n'
            '     )\n'
            '     ^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'compile error unexpected end',
  'args': ['-n', '1 +'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 3:\n'
            '    1 +\n'
            '      ^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'compile error invalid character',
  'args': ['-n', 'é é foo'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: syntax error, unexpected INVALID_CHARACTER, expecting end of file at <top-level>, '
            'line 1, column 1:\n'
            '    é é foo\n'
            '    ^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'compile error undefined function',
  'args': ['-n', 'def f: 1; def f(a): 2; f(1;2)'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: f/2 is not defined at <top-level>, line 1, column 24:\n'
            '    def f: 1; def f(a): 2; f(1;2)\n'
            '                           ^\n'
            'did you mean f/0 or f/1?\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'compile error no program',
  'args': ['-n', ''],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: Top-level program not given (try ".")\njview: 1 compile error\n',
  'exit': 3},
 {'name': 'module import',
  'args': ['-n', '-L', 'mods', 'import "foo" as f; f::g'],
  'stdin': '',
  'env': None,
  'stdout': '"mods"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'module include',
  'args': ['-n', '-L', 'mods', 'include "foo"; g'],
  'stdin': '',
  'env': None,
  'stdout': '"mods"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'module dir/dir.jq',
  'args': ['-n', '-L', 'mods', 'import "sub" as s; s::s'],
  'stdin': '',
  'env': None,
  'stdout': '"sub"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'module importing a module',
  'args': ['-n', '-L', 'mods', 'import "chain" as c; c::c'],
  'stdin': '',
  'env': None,
  'stdout': '"chain-mods"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'data import',
  'args': ['-nc', '-L', 'mods', 'import "data" as $d; $d, $d::d'],
  'stdin': '',
  'env': None,
  'stdout': '[{"d":1},[2]]\n[{"d":1},[2]]\n',
  'stderr': '',
  'exit': 0},
 {'name': 'module loc is the real path',
  'args': ['-nc', '-L', './mods/../mods', 'include "loc"; loc | .file |= (split("/") | .[-2:])'],
  'stdin': '',
  'env': None,
  'stdout': '{"file":["mods","loc.jq"],"line":1}\n',
  'stderr': '',
  'exit': 0},
 {'name': 'module not found',
  'args': ['-n', '-L', 'mods', 'import "nope" as n; 1'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': 'jview: error: module not found: nope\n\njview: 1 compile error\n',
  'exit': 3},
 {'name': 'module syntax error',
  'args': ['-n', '-L', 'mods', 'include "bad"; 1'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': "jview: error: syntax error, unexpected ';' at @TMP@/mods/bad.jq, line 1, column 11:\n"
            '    def g: 1 +;\n'
            '              ^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'default search path ~/.jq',
  'args': ['-n', 'import "foo" as f; f::g'],
  'stdin': '',
  'env': {'HOME': 'home'},
  'stdout': '"home"\n',
  'stderr': '',
  'exit': 0},
 {'name': '-L with ~',
  'args': ['-n', '-L', '~/x', 'import "foo" as f; f::g'],
  'stdin': '',
  'env': {'HOME': 'home'},
  'stdout': '"home-x"\n',
  'stderr': '',
  'exit': 0},
 {'name': '-L drops the default path',
  'args': ['-n', '-L', 'mods/sub', 'import "foo" as f; f::g'],
  'stdin': '',
  'env': {'HOME': 'home'},
  'stdout': '',
  'stderr': 'jview: error: module not found: foo\n\njview: 1 compile error\n',
  'exit': 3},
 {'name': '~/.jq file is included',
  'args': ['-n', '-L', 'mods', 'hello'],
  'stdin': '',
  'env': {'HOME': 'home2'},
  'stdout': '"dotjq-file"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'a program may start with -digit',
  'args': ['-c', '-1, -(1)'],
  'stdin': 'null\n',
  'env': None,
  'stdout': '-1\n-1\n',
  'stderr': '',
  'exit': 0},
 {'name': 'a program may be -.',
  'args': ['-c', '-.'],
  'stdin': '2\n',
  'env': None,
  'stdout': '-2\n',
  'stderr': '',
  'exit': 0},
 {'name': 'status is that of the last input',
  'args': ['-c', 'if . == 3 then error("x") else . end', 'a.json'],
  'stdin': '',
  'env': None,
  'stdout': '1\n2\n',
  'stderr': 'jview: error (at a.json:4): x\n',
  'exit': 5},
 {'name': 'compile error module path is real',
  'args': ['-n', '-L', './mods/sub/..', 'include "bad"; 1'],
  'stdin': '',
  'env': None,
  'stdout': '',
  'stderr': "jview: error: syntax error, unexpected ';' at @TMP@/mods/bad.jq, line 1, column 11:\n"
            '    def g: 1 +;\n'
            '              ^\n'
            'jview: 1 compile error\n',
  'exit': 3},
 {'name': 'get_search_list default',
  'args': ['-nc', 'get_search_list'],
  'stdin': '',
  'env': None,
  'stdout': '["~/.jq","$ORIGIN/../lib/jq","$ORIGIN/../lib"]\n',
  'stderr': '',
  'exit': 0},
 {'name': 'get_search_list -L',
  'args': ['-nc', '-L', '~/x', '-L', 'nonexistent', 'get_search_list'],
  'stdin': '',
  'env': None,
  'stdout': '["~/x","nonexistent"]\n',
  'stderr': '',
  'exit': 0},
 {'name': 'kept parts of inputs (small values copied out of their documents)',
  'args': ['-n', '-c', '[inputs | {a, b, c, f, dup}] | (.[0].a, .[0].b), ., group_by(.a), sort_by(.f) | tojson'],
  'stdin': '{"a":"x\\u00e9\\"q","b":1.50,"c":{"d":[1,2],"e":null},"f":true,"g":[{"h":"i"}],"n":12345678901234567890,"m":-0}\n{"a":"plain","b":100,"c":{"d":[],"e":false},"f":false,"g":[],"n":1,"m":0.5}\n{"a":"x\\u00e9\\"q","b":7,"c":{"d":[3],"e":"s","d2":{"x":1,"y":2,"z":3,"w":4}},"f":null,"g":[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"dup":{"k":1,"k":2},"n":-12}\n{"a":"plain","b":-3.25,"c":{"d":[4,5,6]},"f":true,"g":[{"h":"j"}],"n":0,"m":1.0}\n',
  'env': None,
  'stdout': '"\\"xé\\\\\\"q\\""\n"1.50"\n"[{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":1.50,\\"c\\":{\\"d\\":[1,2],\\"e\\":null},\\"f\\":true,\\"dup\\":null},{\\"a\\":\\"plain\\",\\"b\\":100,\\"c\\":{\\"d\\":[],\\"e\\":false},\\"f\\":false,\\"dup\\":null},{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":7,\\"c\\":{\\"d\\":[3],\\"e\\":\\"s\\",\\"d2\\":{\\"x\\":1,\\"y\\":2,\\"z\\":3,\\"w\\":4}},\\"f\\":null,\\"dup\\":{\\"k\\":2}},{\\"a\\":\\"plain\\",\\"b\\":-3.25,\\"c\\":{\\"d\\":[4,5,6]},\\"f\\":true,\\"dup\\":null}]"\n"[[{\\"a\\":\\"plain\\",\\"b\\":100,\\"c\\":{\\"d\\":[],\\"e\\":false},\\"f\\":false,\\"dup\\":null},{\\"a\\":\\"plain\\",\\"b\\":-3.25,\\"c\\":{\\"d\\":[4,5,6]},\\"f\\":true,\\"dup\\":null}],[{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":1.50,\\"c\\":{\\"d\\":[1,2],\\"e\\":null},\\"f\\":true,\\"dup\\":null},{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":7,\\"c\\":{\\"d\\":[3],\\"e\\":\\"s\\",\\"d2\\":{\\"x\\":1,\\"y\\":2,\\"z\\":3,\\"w\\":4}},\\"f\\":null,\\"dup\\":{\\"k\\":2}}]]"\n"[{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":7,\\"c\\":{\\"d\\":[3],\\"e\\":\\"s\\",\\"d2\\":{\\"x\\":1,\\"y\\":2,\\"z\\":3,\\"w\\":4}},\\"f\\":null,\\"dup\\":{\\"k\\":2}},{\\"a\\":\\"plain\\",\\"b\\":100,\\"c\\":{\\"d\\":[],\\"e\\":false},\\"f\\":false,\\"dup\\":null},{\\"a\\":\\"xé\\\\\\"q\\",\\"b\\":1.50,\\"c\\":{\\"d\\":[1,2],\\"e\\":null},\\"f\\":true,\\"dup\\":null},{\\"a\\":\\"plain\\",\\"b\\":-3.25,\\"c\\":{\\"d\\":[4,5,6]},\\"f\\":true,\\"dup\\":null}]"\n',
  'stderr': '',
  'exit': 0},
 {'name': 'kept scalars and small containers of inputs',
  'args': ['-n', '-c', '[inputs | .a, .b, .n, .m, .c.d, .g[0], .dup]'],
  'stdin': '{"a":"x\\u00e9\\"q","b":1.50,"c":{"d":[1,2],"e":null},"f":true,"g":[{"h":"i"}],"n":12345678901234567890,"m":-0}\n{"a":"plain","b":100,"c":{"d":[],"e":false},"f":false,"g":[],"n":1,"m":0.5}\n{"a":"x\\u00e9\\"q","b":7,"c":{"d":[3],"e":"s","d2":{"x":1,"y":2,"z":3,"w":4}},"f":null,"g":[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"dup":{"k":1,"k":2},"n":-12}\n{"a":"plain","b":-3.25,"c":{"d":[4,5,6]},"f":true,"g":[{"h":"j"}],"n":0,"m":1.0}\n',
  'env': None,
  'stdout': '["xé\\"q",1.50,12345678901234567890,-0,[1,2],{"h":"i"},null,"plain",100,1,0.5,[],null,null,"xé\\"q",7,-12,null,[3],1,{"k":2},"plain",-3.25,0,1.0,[4,5,6],{"h":"j"},null]\n',
  'stderr': '',
  'exit': 0},
 {'name': 'kept big parts and whole inputs',
  'args': ['-n', '-c', '[inputs | .g, .c] | length, .[4], ([inputs] | length)'],
  'stdin': '{"a":"x\\u00e9\\"q","b":1.50,"c":{"d":[1,2],"e":null},"f":true,"g":[{"h":"i"}],"n":12345678901234567890,"m":-0}\n{"a":"plain","b":100,"c":{"d":[],"e":false},"f":false,"g":[],"n":1,"m":0.5}\n{"a":"x\\u00e9\\"q","b":7,"c":{"d":[3],"e":"s","d2":{"x":1,"y":2,"z":3,"w":4}},"f":null,"g":[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"dup":{"k":1,"k":2},"n":-12}\n{"a":"plain","b":-3.25,"c":{"d":[4,5,6]},"f":true,"g":[{"h":"j"}],"n":0,"m":1.0}\n',
  'env': None,
  'stdout': '8\n[1,2,3,4,5,6,7,8,9,10,11,12,13,14]\n0\n',
  'stderr': '',
  'exit': 0},
 {'name': 'group_by over inputs',
  'args': ['-n', '-c', '[inputs | {a, b}] | group_by(.a) | map([.[0].a, length, map(.b)])'],
  'stdin': '{"a":"x\\u00e9\\"q","b":1.50,"c":{"d":[1,2],"e":null},"f":true,"g":[{"h":"i"}],"n":12345678901234567890,"m":-0}\n{"a":"plain","b":100,"c":{"d":[],"e":false},"f":false,"g":[],"n":1,"m":0.5}\n{"a":"x\\u00e9\\"q","b":7,"c":{"d":[3],"e":"s","d2":{"x":1,"y":2,"z":3,"w":4}},"f":null,"g":[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"dup":{"k":1,"k":2},"n":-12}\n{"a":"plain","b":-3.25,"c":{"d":[4,5,6]},"f":true,"g":[{"h":"j"}],"n":0,"m":1.0}\n',
  'env': None,
  'stdout': '[["plain",2,[100,-3.25]],["xé\\"q",2,[1.50,7]]]\n',
  'stderr': '',
  'exit': 0},
 {'name': 'input and reduce over inputs',
  'args': ['-n', '-c', '[input | .a, .b] as $x | reduce inputs as $l ($x; . + [$l.a, $l.c.d]) | ., unique'],
  'stdin': '{"a":"x\\u00e9\\"q","b":1.50,"c":{"d":[1,2],"e":null},"f":true,"g":[{"h":"i"}],"n":12345678901234567890,"m":-0}\n{"a":"plain","b":100,"c":{"d":[],"e":false},"f":false,"g":[],"n":1,"m":0.5}\n{"a":"x\\u00e9\\"q","b":7,"c":{"d":[3],"e":"s","d2":{"x":1,"y":2,"z":3,"w":4}},"f":null,"g":[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"dup":{"k":1,"k":2},"n":-12}\n{"a":"plain","b":-3.25,"c":{"d":[4,5,6]},"f":true,"g":[{"h":"j"}],"n":0,"m":1.0}\n',
  'env': None,
  'stdout': '["xé\\"q",1.50,"plain",[],"xé\\"q",[3],"plain",[4,5,6]]\n[1.50,"plain","xé\\"q",[],[3],[4,5,6]]\n',
  'stderr': '',
  'exit': 0}]

def run(cmd, case, d):
    env = dict(os.environ)
    env.pop('JQ_COLORS', None)
    # jq-1.8 unpacks itself under $HOME/.cache: keep it there when HOME is changed below.
    env.setdefault('JQ18_CACHE', os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')),
                                              'jq-1.8'))
    env['HOME'] = os.path.join(d, 'nohome')
    for k, v in (case['env'] or {}).items():
        env[k] = os.path.join(d, v)
    r = subprocess.run(cmd + case['args'], input=case['stdin'].encode(), capture_output=True, cwd=d, env=env,
                       timeout=60)
    return r.stdout.decode().replace(d, '@TMP@'), r.stderr.decode().replace(d, '@TMP@'), r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--jview', required=True)
    ap.add_argument('--jq')
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        d = os.path.realpath(d)
        for name, text in FILES.items():
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)
        for c in CASES:
            want = (c['stdout'], c['stderr'], c['exit'])
            got = run([os.path.abspath(args.jview)], c, d)
            if got != want:
                failed += 1
                print(f"FAIL {c['name']}: {c['args']}\n  want {want!r}\n  got  {got!r}")
            if args.jq:
                o, e, rc = run([os.path.abspath(args.jq)], c, d)
                e = e.replace('jq: error', 'jview: error').replace('jq: 1 compile error', 'jview: 1 compile error')
                # jview's own line after an undefined function (issue 23) is not jq's
                if (o, e, rc) != (want[0], re.sub(r'(?m)^did you mean .*\?\n', '', want[1]), want[2]):
                    failed += 1
                    print(f"JQ DIFFERS {c['name']}: {(o, e, rc)!r}")
    print(f'{len(CASES) - failed}/{len(CASES)} CLI language cases pass')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
