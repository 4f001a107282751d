"""CLI cases: each is a dict with name, args, and optionally stdin, files (written to the case's working
directory), env, and the expectations stdout (exact bytes), stderr (exact) or stderr_re (regex), exit (default 0).
Expected outputs follow jq 1.8.2 (../shared/tools/jq-1.8) except where jview deliberately differs: number literals
are kept as written, the program name in messages is jview, and parse errors name FILE:LINE:COLUMN."""

import compressed_cases

ESC = "\x1b"


def c(name, args, stdin="", **kw):
    d = {"name": name, "args": args, "stdin": stdin}
    d.update(kw)
    return d


BAD_UTF8 = "a\udce2A\udcc0\udc80\udce0\udc80\udc80z\udcf8"  # bytes 61 E2 41 C0 80 E0 80 80 7A F8 (surrogateescape)
NESTED = '{"a":[1,"s",null,true,false,{},[]],"b":{"c":1.5}}'


def cases(shared):
    corpus = shared + "/corpus"
    out = [
        # --- Formatting: jq's exact layout.
        c("pretty nested", ["."], NESTED, stdout='{\n  "a": [\n    1,\n    "s",\n    null,\n    true,\n    false,\n'
          '    {},\n    []\n  ],\n  "b": {\n    "c": 1.5\n  }\n}\n'),
        c("compact nested", ["-c", "."], NESTED, stdout=NESTED + "\n"),
        c("tab", ["--tab", "."], "[1,[2]]", stdout="[\n\t1,\n\t[\n\t\t2\n\t]\n]\n"),
        c("indent 0 breaks lines without indenting (jq 1.8)", ["--indent", "0", "."], "[1,[2]]",
          stdout="[\n1,\n[\n2\n]\n]\n"),
        c("indent 7", ["--indent", "7", "."], "[1]", stdout="[\n       1\n]\n"),
        c("indent -1 is --tab (jq 1.8)", ["--indent", "-1", "."], "{\"a\":[1]}", stdout="{\n\t\"a\": [\n\t\t1\n\t]\n}\n"),
        c("indent -2 is a usage error", ["--indent", "-2", "."], "[1]", stdout="", exit=2,
          stderr_re="--indent takes a number between -1 and 7"),
        c("indent 8 is a usage error", ["--indent", "8", "."], "[1]", stdout="", exit=2,
          stderr_re="--indent takes a number between"),
        *[c(f"indent {a!r} is jq 1.8's usage error", ["--indent", a, "."], "[1]", stdout="", exit=2,
            stderr="jview: error: --indent takes a number between -1 and 7\n"
                   "Use jview --help for help with command-line options.\n")
          for a in ["abc", "1.5", "", " 3", "3 ", "0x3", "-", "+-3"]],
        c("indent +3 and 03 are numbers (jq 1.8)", ["--indent", "+3", "--indent", "03", "."], "[1]", stdout="[\n   1\n]\n"),
        c("sort keys recursively", ["-S", "-c", "."], '{"b":1,"a":{"d":1,"c":2},"A":[{"z":1,"y":2}]}',
          stdout='{"A":[{"y":2,"z":1}],"a":{"c":2,"d":1},"b":1}\n'),
        c("empty containers", ["."], '[{},[],{"a":[]}]', stdout='[\n  {},\n  [],\n  {\n    "a": []\n  }\n]\n'),
        c("scalars at top level", ["-c", "."], '1 "a" null true false [] {}',
          stdout='1\n"a"\nnull\ntrue\nfalse\n[]\n{}\n'),
        c("concatenated values without spaces", ["-c", "."], '[1][2]{"a":1}"x"1"y"',
          stdout='[1]\n[2]\n{"a":1}\n"x"\n1\n"y"\n'),
        c("ndjson", ["-c", "."], '{"a":1}\n{"a":2}\n\n{"a":3}\n', stdout='{"a":1}\n{"a":2}\n{"a":3}\n'),
        c("empty input gives no output", ["."], "", stdout=""),
        c("whitespace only input", ["."], " \n\t\r\n ", stdout=""),
        c("byte order mark is skipped", ["-c", "."], b'\xef\xbb\xbf{"a":1}', stdout='{"a":1}\n'),
        c("lone byte order mark", ["-c", "."], b'\xef\xbb\xbf', stdout=''),
        # --- Numbers.
        c("number literals kept as written", ["-c", "."], '[1.50,1E2,-0,100000000000000000001,1e1000,0.10,-1.0e-7]',
          stdout='[1.50,1E2,-0,100000000000000000001,1e1000,0.10,-1.0e-7]\n'),
        c("numbers shortest", ["-c", "--numbers=shortest", "."],
          '[1.50,1E2,-0,100000000000000000001,1e1000,0.00001,0.0001,1e17,123456789012345678,3.0]',
          stdout='[1.5,100,-0,1e+20,1.7976931348623157e+308,1e-05,0.0001,1e+17,'
                 '123456789012345680,3]\n'),
        c("numbers bad mode", ["--numbers=fancy", "."], "1", exit=2, stderr_re="numbers"),
        # --- Strings.
        c("string escapes as jq", ["-c", "."], r'["a\/b","\u00e9","\u007f\u0001\u001f","\n\t\r\b\f","\"\\","é😀"]',
          stdout='["a/b","é","\\u007f\\u0001\\u001f","\\n\\t\\r\\b\\f","\\"\\\\","é😀"]\n'),
        c("raw DEL byte is escaped", ["-c", "."], b'"a\x7fb"', stdout='"a\\u007fb"\n'),
        c("surrogate pair escapes decode", ["-c", "."], r'"\ud83d\ude00"', stdout='"😀"\n'),
        c("ascii output", ["-a", "-c", "."], '["é😀\\u0001", "x"]', stdout='["\\u00e9\\ud83d\\ude00\\u0001","x"]\n'),
        c("raw output", ["-r", "."], '"a\\nb" 1 [1] "é"', stdout='a\nb\n1\n[\n  1\n]\né\n'),
        c("join output", ["-j", "."], '"a" 1 "b"', stdout='a1b'),
        c("raw output0", ["--raw-output0", "."], '"a" 1', stdout='a\x001\x00'),
        c("raw output0 refuses a string holding NUL and goes on with the next input",
          ["--raw-output0", ".[]"], '["a","b\\u0000","c"] ["d"]', stdout="a\x00d\x00", exit=0,
          stderr="jview: error (at <stdin>:0): Cannot dump a string containing NUL with --raw-output0 option\n"),
        c("raw output0: the identity program checks for NUL too (jq 1.8)", ["--raw-output0", "."], '"a\\u0000b" "c"',
          stdout="c\x00", exit=0,
          stderr="jview: error (at <stdin>:0): Cannot dump a string containing NUL with --raw-output0 option\n"),
        c("seq", ["--seq", "-c", "."], '\x1e[1] 2\n', stdout='\x1e[1]\n\x1e2\n'),
        # jq 1.8 reads --seq input as RS-separated: text before the first RS is abandoned.
        c("seq input without RS", ["--seq", "-c", "."], '[1] 2', stdout='', exit=0,
          stderr='jview: ignoring parse error: Unfinished abandoned text at EOF at line 1, column 5\n'),
        # --stream: jq 1.8's events ([path, leaf], and [path of the last member] when a container closes).
        c("stream events", ["--stream", "-c", "."], '[[1,2],{"b":[null]},{}] 3',
          stdout='[[0,0],1]\n[[0,1],2]\n[[0,1]]\n[[1,"b",0],null]\n[[1,"b",0]]\n[[1,"b"]]\n[[2],{}]\n[[2]]\n[[],3]\n'),
        c("stream keeps literals and repeated keys", ["--stream", "-c", "."], '{"a":1.50,"a":-0}',
          stdout='[["a"],1.50]\n[["a"],-0]\n[["a"]]\n'),
        c("stream with inputs and fromstream", ["--stream", "-n", "-c", "fromstream(1|truncate_stream(inputs))"],
          '{"a":[1,{"b":2}],"c":[]}', stdout='[1,{"b":2}]\n'),
        c("stream slurped", ["--stream", "-s", "-c", "."], '[1] 2', stdout='[[[0],1],[[0]],[[],2]]\n'),
        # A value that fails to parse: the events jq's parser emits before it meets the error (a leaf once a ',' or
        # bracket follows it, an empty container at its bracket, a closing event at each bracket), then the error.
        c("stream truncated array", ["--stream", "-c", "."], "[1,2", stdout="[[0],1]\n", exit=5,
          stderr="jview: error: <stdin>:1:5: unexpected end of input\n  [1,2\n      ^\n"),
        c("stream truncated nested", ["--stream", "-c", "."], '{"a":[1,{"b":2}',
          stdout='[["a",0],1]\n[["a",1,"b"],2]\n[["a",1,"b"]]\n', exit=5,
          stderr_re=r"^jview: error: <stdin>:1:16: unexpected end of input\n"),
        c("stream truncated second value", ["--stream", "-c", "."], "[1,[2,3]] [4,",
          stdout="[[0],1]\n[[1,0],2]\n[[1,1],3]\n[[1,1]]\n[[1]]\n[[0],4]\n", exit=5,
          stderr_re=r"^jview: error: <stdin>:1:14: unexpected end of input\n"),
        c("stream invalid token inside", ["--stream", "-c", "."], "[1,2,x,3]", stdout="[[0],1]\n[[1],2]\n", exit=5,
          stderr_re=r"^jview: error: <stdin>:1:6: unexpected character\n"),
        c("stream truncated string, literal, number", ["--stream", "-c", "."], '["ab",{"x":[]},tru',
          stdout='[[0],"ab"]\n[[1,"x"],[]]\n[[1,"x"]]\n', exit=5, stderr_re=r"^jview: error: <stdin>:1:16: invalid literal"),
        c("stream cut number is no leaf", ["--stream", "-c", "."], "[1.5,2e", stdout="[[0],1.5]\n", exit=5,
          stderr_re=r"^jview: error: <stdin>:1:8: invalid number"),
        c("stream empty containers at their bracket", ["--stream", "-c", "."], "[[[],{}", stdout="[[0,0],[]]\n[[0,1],{}]\n",
          exit=5, stderr_re="unexpected end of input"),
        c("stream file with an error on a later line", ["--stream", "-c", ".", "in.json"], files={"in.json": '{\n "a": [1, 2],\n "e": 1.50e3,\n "f": [\n'},
          stdout='[["a",0],1]\n[["a",1],2]\n[["a",1]]\n[["e"],1.50e3]\n', exit=5,
          stderr_re=r"^jview: error: in.json:5:1: unexpected end of input\n"),
        c("stream escapes decoded in partial events", ["--stream", "-c", "."], r'{"k\u00e9":["\ud83d\ude00",' ,
          stdout='[["ké",0],"😀"]\n', exit=5, stderr_re="unexpected end of input"),
        c("stream partial events reach inputs before the error", ["--stream", "-n", "-c", "inputs"], "[1,\n2,\n[3",
          stdout="[[0],1]\n[[1],2]\n", exit=5, stderr="jview: error (at <stdin>:2): <stdin>:3:3: unexpected end of input\n"),
        c("stream partial events and try input", ["--stream", "-n", "-c", '[., input, (try input catch "c")]'], "[1,2,3",
          stdout="[null,[[0],1],[[1],2]]\n"),
        c("stream slurped with a parse error runs nothing", ["--stream", "-s", "-c", "."], "[1] [2", stdout="", exit=5,
          stderr_re="unexpected end of input"),
        c("slurp with a parse error runs nothing (jq 1.8)", ["-s", "-c", "."], "[1] [2", stdout="", exit=5,
          stderr_re="unexpected end of input"),
        # Compile errors where jq 1.8's grammar adds a second message (its error-recovery rules).
        c("unterminated if", ["-n", "if 1 then 2"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 11:\n    if 1 then 2\n"
            "              ^\njview: error: Possibly unterminated 'if' statement at <top-level>, line 1, column 1:\n"
            "    if 1 then 2\n    ^^^^^^^^^^^\njview: 2 compile errors\n")),
        c("unterminated if inside brackets", ["-n", "[if 1 then 2]"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected ']' at <top-level>, line 1, column 13:\n    [if 1 then 2]\n"
            "                ^\njview: error: Possibly unterminated 'if' statement at <top-level>, line 1, column 2:\n"
            "    [if 1 then 2]\n     ^^^^^^^^^^^^\njview: 2 compile errors\n")),
        c("a bracket after then takes the error", ["-n", "if 1 then (2"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file, expecting '|' or ',' or ')' at <top-level>, line 1, "
            "column 12:\n    if 1 then (2\n               ^\njview: 1 compile error\n")),
        c("unterminated try", ["-n", "try 1 catch"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 7:\n    try 1 catch\n"
            "          ^^^^^\njview: error: Possibly unterminated 'try' statement at <top-level>, line 1, column 1:\n"
            "    try 1 catch\n    ^^^^^^^^^^^\njview: 2 compile errors\n")),
        # A constant non-string object key is reported and jq parses on: the errors after it follow.
        c("two object key errors", ["-n", "{(1):2, (2):3}"], stdout="", exit=3, stderr=(
            "jview: error: Cannot use number (1) as object key at <top-level>, line 1, column 3:\n    {(1):2, (2):3}\n"
            "      ^\njview: error: Cannot use number (2) as object key at <top-level>, line 1, column 10:\n"
            "    {(1):2, (2):3}\n             ^\njview: 2 compile errors\n")),
        c("an object key error, then a syntax error and its note", ["-n", "{(1):2} | if . then 1"], stdout="", exit=3,
          stderr=("jview: error: Cannot use number (1) as object key at <top-level>, line 1, column 3:\n"
                  "    {(1):2} | if . then 1\n      ^\n"
                  "jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 21:\n"
                  "    {(1):2} | if . then 1\n                        ^\n"
                  "jview: error: Possibly unterminated 'if' statement at <top-level>, line 1, column 11:\n"
                  "    {(1):2} | if . then 1\n              ^^^^^^^^^^^\njview: 3 compile errors\n")),
        c("break without a label", ["-n", "break 1"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected LITERAL, expecting BINDING at <top-level>, line 1, column 7:\n"
            "    break 1\n          ^\njview: error: break requires a label to break to at <top-level>, line 1, column 1:\n"
            "    break 1\n    ^^^^^^^\njview: 2 compile errors\n")),
        c("end of program after whitespace and a comment", ["-n", "if 1 then 2 | # c\n"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 18:\n    if 1 then 2 | # c\n"
            "                     ^\njview: error: Possibly unterminated 'if' statement at <top-level>, line 1, column 1:\n"
            "    if 1 then 2 | # c\n    ^^^^^^^^^^^^^^^^^\njview: 2 compile errors\n")),
        # jq's grammar recovers from a syntax error and parses on: the errors after it are reported too (not
        # within three tokens of the recovery), and the rules '.' error / '.' IDENT error add a hint.
        c("jq's hint after a lone '.' and a name", ["-n", ". foo"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file at <top-level>, line 1, column 3:\n"
            "    . foo\n"
            "      ^^^\n"
            'jview: error: try .["field"] instead of .field for unusually named fields at <top-level>, line'
            " 1, column 1:\n"
            "    . foo\n"
            "    ^^^^^\n"
            "jview: 2 compile errors\n")),
        c("jq's hint after a lone '.' and a literal", ["-n", ".a | . 1"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected LITERAL at <top-level>, line 1, column 8:\n"
            "    .a | . 1\n"
            "           ^\n"
            'jview: error: try .["field"] instead of .field for unusually named fields at <top-level>, line'
            " 1, column 6:\n"
            "    .a | . 1\n"
            "         ^^^\n"
            "jview: 2 compile errors\n")),
        c("errors after a recovered parenthesis are reported", ["-n", "(1 catch 2) | 3 += 4 = 5"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected catch, expecting '|' or ',' or ')' at <top-level>, line"
            " 1, column 4:\n"
            "    (1 catch 2) | 3 += 4 = 5\n"
            "       ^^^^^\n"
            "jview: error: syntax error, unexpected '=' at <top-level>, line 1, column 22:\n"
            "    (1 catch 2) | 3 += 4 = 5\n"
            "                         ^\n"
            "jview: 2 compile errors\n")),
        c("errors after a recovered object key are reported", ["-n", "{a b: 1 + 2} | 1 == 2 == 3"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected IDENT, expecting '}' at <top-level>, line 1, column 4:\n"
            "    {a b: 1 + 2} | 1 == 2 == 3\n"
            "       ^\n"
            "jview: error: May need parentheses around object key expression at <top-level>, line 1, column"
            " 2:\n"
            "    {a b: 1 + 2} | 1 == 2 == 3\n"
            "     ^^^\n"
            "jview: error: syntax error, unexpected == at <top-level>, line 1, column 23:\n"
            "    {a b: 1 + 2} | 1 == 2 == 3\n"
            "                          ^^\n"
            "jview: 3 compile errors\n")),
        c("a '.' error, then the enclosing if's note", ["-n", "if 1 then . 1 end"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected LITERAL at <top-level>, line 1, column 13:\n"
            "    if 1 then . 1 end\n"
            "                ^\n"
            'jview: error: try .["field"] instead of .field for unusually named fields at <top-level>, line'
            " 1, column 11:\n"
            "    if 1 then . 1 end\n"
            "              ^^^\n"
            "jview: error: Possibly unterminated 'if' statement at <top-level>, line 1, column 1:\n"
            "    if 1 then . 1 end\n"
            "    ^^^^^^^^^^^^^\n"
            "jview: 3 compile errors\n")),
        c("none reported within three tokens of a recovery", ["-n", "[1 catch] | 2 == 3 == 4"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected catch, expecting '|' or ',' or ']' at <top-level>, line"
            " 1, column 4:\n"
            "    [1 catch] | 2 == 3 == 4\n"
            "       ^^^^^\n"
            "jview: error: syntax error, unexpected == at <top-level>, line 1, column 20:\n"
            "    [1 catch] | 2 == 3 == 4\n"
            "                       ^^\n"
            "jview: 2 compile errors\n")),
        c("the end of an interpolation is QQSTRING_INTERP_END", ["-n", '"x \\( 1 + ) y"'], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected QQSTRING_INTERP_END at <top-level>, line 1, column 11:\n"
            '    "x \\( 1 + ) y"\n'
            "              ^\n"
            "jview: 1 compile error\n")),
        c("no slice after Term '.'", ["-n", ".a.[1:2]"], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected ':', expecting '|' or ',' or ']' at <top-level>, line 1,"
            " column 6:\n"
            "    .a.[1:2]\n"
            "         ^\n"
            "jview: 1 compile error\n")),
        c("unterminated string after an interpolation", ["-n", '"a\\(1)'], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected end of file, expecting QQSTRING_TEXT or"
            " QQSTRING_INTERP_START or QQSTRING_END at <top-level>, line 1, column 6:\n"
            '    "a\\(1)\n'
            "         ^\n"
            "jview: 1 compile error\n")),
        c("every message of a module's syntax errors names its file", ["-n", "-L", ".", 'import "c" as c; .'],
          files={"c.jq": "def f: (1 catch 2) | 3 += 4 = 5;\n"}, stdout="", exit=3,
          stderr_re=r"^jview: error: syntax error, unexpected catch, expecting '\|' or ',' or '\)' at \S*/c\.jq, line 1, "
                    r"column 11:\n.*\n.*\njview: error: syntax error, unexpected '=' at \S*/c\.jq, line 1, column 29:\n"),
        c("an import path is a string", ["-n", "import 1 as x; ."], stdout="", exit=3, stderr=(
            "jview: error: syntax error, unexpected LITERAL, expecting FORMAT or QQSTRING_START at"
            " <top-level>, line 1, column 8:\n"
            "    import 1 as x; .\n"
            "           ^\n"
            "jview: 1 compile error\n")),
        # --stream-errors (jq 1.8): --stream, and a parse error is the event [message, path] (exit 0) in jq's words,
        # found where jq finds it; reading goes on at the next line, as jq's does.
        c("stream-errors", ["--stream-errors", "-c", "."], "[1,[2,3]] [4,",
          stdout='[[0],1]\n[[1,0],2]\n[[1,1],3]\n[[1,1]]\n[[1]]\n[[0],4]\n["Unfinished JSON term at EOF at line 1, column 13",[1]]\n',
          stderr=""),
        c("stream-errors path in an object", ["--stream-errors", "-c", "."], '{"a":1,"b"',
          stdout='[["a"],1]\n["Unfinished JSON term at EOF at line 1, column 10",[null]]\n'),
        c("stream-errors path after a key", ["--stream-errors", "-c", "."], '{"a":{"b":',
          stdout='["Unfinished JSON term at EOF at line 1, column 10",["a","b"]]\n'),
        c("stream-errors at the top level", ["--stream-errors", "-c", "."], '1 x [2]',
          stdout='[[],1]\n["Invalid numeric literal at line 1, column 4",[]]\n'),
        # jq's words and positions (bytes), where jq's parser finds the error: later than the strict reader at times.
        *[c(f"stream-errors in jq's words: {text}", ["--stream-errors", "-c", "."], text, stdout=out, stderr="")
          for text, out in (
              ("[1 2]", '["Expected separator between values at line 1, column 5",[0]]\n'),
              ('{"a":tru}', '["Invalid literal at line 1, column 9",["a"]]\n'),
              ('{"a":"\\x"}', '["Invalid escape at line 1, column 9",["a"]]\n'),
              ("[1,2]]", '[[0],1]\n[[1],2]\n[[1]]\n["Unmatched \']\' at the top-level at line 1, column 6",[]]\n'),
              ('{"a":[1,{"b":2}}', '[["a",0],1]\n[["a",1,"b"],2]\n[["a",1,"b"]]\n'
               '["Unmatched \'}\' in the middle of an array at line 1, column 16",["a",1]]\n'),
              ("1]", '["Unmatched \']\' at the top-level at line 1, column 2",[]]\n'),
              ("[truex]", '["Invalid literal at line 1, column 7",[0]]\n'),
              ('{"a":1 "b":2}', '["Expected separator between values at line 1, column 10",["a"]]\n'),
              ('{"a":1,[2]}', '[["a"],1]\n["Expected string key after \',\' in object, not \'[\' at line 1, column 8",[null]]\n'),
              ("{1:2}", '["Object keys must be strings at line 1, column 3",[null]]\n'),
              ('["\u00e9" x', '["Invalid numeric literal at EOF at line 1, column 7",[0]]\n'),
              ('["a\x01"]', '["Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, '
               'column 5",[0]]\n'))],
        # jq 1.8's reader (fromjson of invalid JSON, --lenient) rejects a raw control character in a string too.
        c("fromjson: a raw control character, in jq's words", ["-n", "-c", '"[\\"a\\u0001\\"]" | try fromjson catch .'], "",
          stdout='"Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, column 5 '
                 '(while parsing \'[\\"a\\u0001\\"]\')"\n'),
        # What jq accepts and jview does not (strict JSON): jview's words, at the byte jview stops at.
        c("stream-errors: what jq would read, in jview's words", ["--stream-errors", "-c", "."], "[1,01]",
          stdout='[[0],1]\n["invalid number: leading zero at line 1, column 4",[1]]\n'),
        # After an error jq reads on at its next line (the rest of the line it read is dropped), with a fresh parser;
        # jview too. Lines then count from the input's start (jq's count leaves out the newlines it dropped: "line 2").
        c("stream-errors: reading goes on at the next line", ["--stream-errors", "-c", "."],
          '[1,] [5]\n[2]\n{"a" 1}\n[3]',
          stdout='[[0],1]\n["Expected another array element at line 1, column 4",[1]]\n[[0],2]\n[[0]]\n'
                 '["Expected separator between values at line 3, column 7",[null]]\n[[0],3]\n[[0]]\n'),
        c("stream-errors without error is --stream", ["--stream-errors", "-c", "."], '[1,{}]',
          stdout='[[0],1]\n[[1],{}]\n[[1]]\n'),
        c("stream-errors slurped", ["--stream-errors", "-s", "-c", "."], '[1] [2',
          stdout='[[[0],1],[[0]],["Unfinished JSON term at EOF at line 1, column 6",[0]]]\n'),
        # --- Colour.
        c("colour default", ["-C", "."], NESTED, stdout=(
            f'{ESC}[1;39m{{{ESC}[0m\n'
            f'  {ESC}[1;34m"a"{ESC}[0m{ESC}[1;39m:{ESC}[0m {ESC}[1;39m[{ESC}[0m\n'
            f'    {ESC}[0;39m1{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[0;32m"s"{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[0;90mnull{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[0;39mtrue{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[0;39mfalse{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[1;39m{{}}{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'    {ESC}[1;39m[]{ESC}[0m\n'
            f'  {ESC}[1;39m]{ESC}[0m{ESC}[1;39m,{ESC}[0m\n'
            f'  {ESC}[1;34m"b"{ESC}[0m{ESC}[1;39m:{ESC}[0m {ESC}[1;39m{{{ESC}[0m\n'
            f'    {ESC}[1;34m"c"{ESC}[0m{ESC}[1;39m:{ESC}[0m {ESC}[0;39m1.5{ESC}[0m\n'
            f'  {ESC}[1;39m}}{ESC}[0m\n'
            f'{ESC}[1;39m}}{ESC}[0m\n')),
        c("JQ_COLORS", ["-C", "-c", "."], '{"a":[1,null]}', env={"JQ_COLORS": "0;31:0;32:0;33:0;34:0;35:0;36:0;37:1;31"},
          stdout=f'{ESC}[0;37m{{{ESC}[0m{ESC}[1;31m"a"{ESC}[0m{ESC}[0;37m:{ESC}[0m{ESC}[0;36m[{ESC}[0m{ESC}[0;34m1'
                 f'{ESC}[0m{ESC}[0;36m,{ESC}[0m{ESC}[0;31mnull{ESC}[0m{ESC}[0;36m]{ESC}[0m{ESC}[0;37m}}{ESC}[0m\n'),
        c("monochrome wins over nothing", ["-M", "-c", "."], '[1]', stdout='[1]\n'),
        # --- Input modes.
        c("null input", ["-n", "."], "ignored", stdout="null\n"),
        c("slurp", ["-s", "-c", "."], "1 [2] {\"a\":3}", stdout='[1,[2],{"a":3}]\n'),
        c("slurp empty", ["-s", "-c", "."], "", stdout='[]\n'),
        c("raw input lines", ["-R", "-c", "."], "a\nb c\n\nlast", stdout='"a"\n"b c"\n""\n"last"\n'),
        c("raw input slurp", ["-R", "-s", "-c", "."], "a\nb\n", stdout='"a\\nb\\n"\n'),
        c("files in order", ["-c", ".", "one.json", "two.json"], files={"one.json": "1 2", "two.json": "[3]"},
          stdout="1\n2\n[3]\n"),
        c("stdin as dash", ["-c", ".", "-"], "[7]", stdout="[7]\n"),
        # --- Arguments that look like CLI11 vectors ("[a,b]") are not split at their commas.
        c("filter with brackets and commas", ["-n", "-c", "[1,2,3] | .[]"], stdout="1\n2\n3\n"),
        c("filter with brackets and files", ["-c", "[.a,1]", "f1.json", "f2.json"],
          files={"f1.json": '{"a":1}', "f2.json": '{"a":2}'}, stdout="[1,1]\n[2,1]\n"),
        c("argjson and arg with brackets", ["-n", "-c", "--argjson", "x", "[1,2]", "--arg", "y", "[a,b]", "[$x,$y]"],
          stdout='[[1,2],"[a,b]"]\n'),
        c("repeated --arg and --argjson", ["-n", "-c", "--arg", "x", "1", "--arg", "y", "2", "--argjson", "z", "[3]",
          "[$x,$y,$z]"], stdout='["1","2",[3]]\n'),
        c("options after the filter", ["-n", "-c", "[$x,$y]", "--arg", "x", "1", "--argjson", "y", '{"a":[1,2]}'],
          stdout='["1",{"a":[1,2]}]\n'),
        c("positional args", ["-n", "-c", "$ARGS", "--args", "a", "[b,c]"],
          stdout='{"positional":["a","[b,c]"],"named":{}}\n'),
        c("positional json args", ["-n", "-c", "$ARGS.positional", "--jsonargs", "1", "[2,3]"], stdout='[1,[2,3]]\n'),
        c("double dash", ["-c", "--", "-1"], "5", stdout="-1\n"),
        # --- Exit status.
        c("-e null is 1", ["-e", "."], "null", stdout="null\n", exit=1),
        c("-e false last is 1", ["-e", "."], "1 false", stdout="1\nfalse\n", exit=1),
        c("-e no output is 4", ["-e", "."], "", stdout="", exit=4),
        c("-e true is 0", ["-e", "."], "true", stdout="true\n", exit=0),
        c("missing file exit 2, others still read", ["-c", ".", "nope.json", "ok.json"], files={"ok.json": "[1]"},
          stdout="[1]\n", exit=2, stderr="jview: error: Could not open file nope.json: No such file or directory\n"),
        c("directory as input", [".", "."], stdout="", exit=2, stderr="jview: error: Could not open file .: Is a directory\n"),
        # jq 1.8 exits 2 when a file could not be opened, over a runtime or parse error's 5 and a halt's code.
        c("a missing file makes the status 2 over a runtime error", [".[0]", "nope.json", "f.json"], files={"f.json": "{}"},
          stdout="", exit=2, stderr="jview: error: Could not open file nope.json: No such file or directory\n"
                                     "jview: error (at f.json:0): Cannot index object with number (0)\n"),
        c("a missing file makes the status 2 over halt_error's code", ["halt_error(7)", "nope.json", "f.json"],
          files={"f.json": '"bye\\n"'}, stdout="", exit=2,
          stderr="jview: error: Could not open file nope.json: No such file or directory\nbye\n"),
        c("unknown option", ["--bogus", "."], "1", exit=2, stderr_re="bogus"),
        c("no filter in a pipeline is . (jq 1.8)", [], "[1, 2]", stdout="[\n  1,\n  2\n]\n"),
        c("no filter, options only", ["-c"], "[1, 2]", stdout="[1,2]\n"),
        # --- Plain command lines (positionals and boolean short flags) are read without CLI11: the same meanings.
        c("short flags grouped", ["-cS", "."], '{"b":1,"a":[1,2]}', stdout='{"a":[1,2],"b":1}\n'),
        c("short flag after the filter", [".", "-c"], "[1, 2]", stdout="[1,2]\n"),
        c("-nr group", ["-nr", '"a"'], stdout="a\n"),
        c("-rj group", ["-rj", "."], '"x" "y"', stdout="xy"),
        c("-e in a group, false last", ["-ce", ".[1]"], "[1, false]", stdout="false\n", exit=1),
        c("unknown letter in a flag group", ["-cx", "."], "1", exit=2,
          stderr="jview: error: Unknown option: -x\nUse jview --help for help with command-line options.\n"),
        c("-1 is a program, not a flag", ["-1"], "null", stdout="-1\n"),
        c("short and long spellings agree", ["--compact-output", "--sort-keys", "."], '{"b":1,"a":[1,2]}',
          stdout='{"a":[1,2],"b":1}\n'),
        # --- The last of -c, --tab, --indent decides (jq).
        c("-c then --tab is tabs", ["-c", "--tab", "."], "[1]", stdout="[\n\t1\n]\n"),
        c("--tab then -c is compact", ["--tab", "-c", "."], "[1]", stdout="[1]\n"),
        c("-c then --indent 1", ["-c", "--indent", "1", "."], "[1]", stdout="[\n 1\n]\n"),
        c("--indent 3 then --tab", ["--indent", "3", "--tab", "."], "[1]", stdout="[\n\t1\n]\n"),
        c("--tab then --indent 3", ["--tab", "--indent", "3", "."], "[1]", stdout="[\n   1\n]\n"),
        # --- Usage errors found in program arguments (jq: exit 2, not a compile error).
        c("--slurpfile of a missing file", ["-n", "--slurpfile", "x", "nope.json", "$x"], exit=2, stdout="",
          stderr="jview: Bad JSON in --slurpfile x nope.json: Could not open nope.json: No such file or directory\n"),
        c("--rawfile of a missing file", ["-n", "--rawfile", "x", "nope", "$x"], exit=2, stdout="",
          stderr="jview: Bad JSON in --rawfile x nope: Could not open nope: No such file or directory\n"),
        c("--slurpfile of invalid JSON", ["-n", "--slurpfile", "x", "bad.json", "$x"], files={"bad.json": "[1,"},
          exit=2, stdout="", stderr="jview: Bad JSON in --slurpfile x bad.json: bad.json:1:4: unexpected end of input\n"),
        c("debug and debug(msg) write one line each to stderr", ["-n", "-c", "1 | debug | debug(\"m\\(.)\")"],
          stdout="1\n", stderr='["DEBUG:",1]\n["DEBUG:","m1"]\n'),
        # jq 1.8 writes the debug message with the output's -S, -a and colours (compact); stderr's text stays plain.
        c("debug messages with -S -a", ["-S", "-a", "-c", 'debug | {z: .b} | stderr | empty'], '{"b":"é","a":1}',
          stdout="", stderr='["DEBUG:",{"a":1,"b":"\\u00e9"}]\n{"z":"é"}'),
        c("debug messages in colour with -C", ["-C", "-n", '[null] | debug | empty'], "", stdout="",
          stderr='\x1b[1;39m[\x1b[0m\x1b[0;32m"DEBUG:"\x1b[0m\x1b[1;39m,\x1b[0m\x1b[1;39m[\x1b[0m\x1b[0;90mnull'
                 '\x1b[0m\x1b[1;39m]\x1b[0m\x1b[1;39m]\x1b[0m\n'),
        # --- A parse error met by input/inputs is the program's error (jq 1.8): try catches it, else nothing of
        # the collecting expression is printed.
        c("parse error inside [inputs]", ["-n", "-c", "[inputs]"], "1 [2\n", stdout="", exit=5,
          stderr="jview: error (at <stdin>:1): <stdin>:2:1: unexpected end of input\n"),
        c("parse error caught from input", ["-n", "-c", "[try (input, input) catch .]"], "1 [2\n",
          stdout='[1,"<stdin>:2:1: unexpected end of input"]\n', exit=0, stderr=""),
        # --- --seq input: RS (0x1e) may stand between values (RFC 7464).
        c("seq input", ["--seq", "-c", "."], "\x1e[1]\n\x1e2\n", stdout="\x1e[1]\n\x1e2\n"),
        c("seq input with inputs", ["--seq", "-n", "-c", "[inputs]"], "\x1e[1]\n\x1e\x1e 2\n", stdout="\x1e[[1],2]\n"),
        c("seq input: a warning read by inputs is the program's error", ["--seq", "-n", "-c", "[inputs]"],
          "\x1e[1]\n\x1e\x1e 2", stdout="", exit=5,
          stderr="jview: error (at <stdin>:1): Potentially truncated top-level numeric value at EOF at line 2, column 4\n"),
        c("RS without --seq is an error", ["-c", "."], "\x1e[1]", stdout="", exit=5, stderr_re="unexpected character"),
        c("-e with halt: halt's status, 0 (jq 1.8)", ["-n", "-e", "halt"], stdout="", exit=0),
        c("-e with false then halt: 0 (jq 1.8)", ["-n", "-e", "false, halt"], stdout="false\n", exit=0),
        c("-e with halt_error: its status", ["-n", "-e", "null | halt_error(3)"], stdout="", exit=3),
        c("halt_error with null writes nothing", ["-n", "null | halt_error"], stdout="", stderr="", exit=5),
        c("halt_error with false writes its JSON", ["-n", "false | halt_error(1)"], stdout="", stderr="false\n", exit=1),
        # Issue 25.10: jq converts halt_error's code with C's cast to int (x86-64: NaN and out of range give INT_MIN)
        # and exits with code > 0 ? code : 0; with -e, abs(code) (-4 is its "no output" code). Figures from jq 1.8.2.
        *[c(f"halt_error({code}): exit {want} (jq 1.8)", ["-n", f'"x\\n" | halt_error({code})'], stdout="",
            stderr="x\n", exit=want)
          for code, want in (("-1", 0), ("nan", 0), ("1e10", 0), ("-1e10", 0), ("infinite", 0), ("-infinite", 0),
                             ("-2", 0), ("-255", 0), ("1.5", 1), ("1.9", 1), ("-0.5", 0), ("255", 255), ("256", 0),
                             ("257", 1), ("1000", 232), ("2147483647", 255), ("2147483648", 0), ("-2147483648", 0))],
        *[c(f"-e, halt_error({code}): exit {want} (jq 1.8)", ["-n", "-e", f'"x\\n" | halt_error({code})'], stdout="",
            stderr="x\n", exit=want)
          for code, want in (("-1", 1), ("-2", 2), ("nan", 0), ("1e10", 0), ("-256", 0), ("3", 3), ("-4", 4))],
        c("-e, halt_error(-4) after a false output of the input before: exit 1 (jq 1.8)",
          ["-e", 'if . == 2 then "x\n" | halt_error(-4) else . end'], "false 2", stdout="false\n", stderr="x\n", exit=1),
        c("-e, halt_error(-4) after a true output of the input before: exit 0 (jq 1.8)",
          ["-e", 'if . == 2 then "x\n" | halt_error(-4) else . end'], "true 2", stdout="true\n", stderr="x\n", exit=0),
        c("-e, halt_error(-4): outputs of its own input do not count (jq 1.8)", ["-n", "-e", 'false, ("x\n" | halt_error(-4))'],
          stdout="false\n", stderr="x\n", exit=4),
        c("halt_error with a code that is not a number: jq's message", ["-n", '"x\n" | halt_error("a")'], stdout="",
          stderr='jview: error (at <unknown>): string ("x\\n") halt_error/1: number required\n', exit=5),
        # --- input_line_number and "(at FILE:LINE)" count lines as jq reads them: a last line without a newline
        # does not count.
        c("input_line_number", ["-c", "[., input_line_number]"], "1 2\n3\n{\"a\":\n4}",
          stdout="[1,1]\n[2,1]\n[3,2]\n[{\"a\":4},3]\n"),
        c("bad --argjson text", ["-n", "--argjson", "x", "{", "$x"], exit=2, stdout="",
          stderr="jview: invalid JSON text passed to --argjson\nUse jview --help for help with command-line options.\n"),
        c("bad --jsonargs text", ["-n", "$ARGS", "--jsonargs", "1", "x"], exit=2, stdout="",
          stderr="jview: invalid JSON text passed to --jsonargs\nUse jview --help for help with command-line options.\n"),
        # A value cut short inside deep brackets has one node per byte (a complete one at most one per two bytes):
        # the arena must grow to that, and the error is the end of input, not "out of memory".
        c("unterminated deep brackets", ["."], "[" * 9000, stdout="", exit=5,
          stderr_re=r"^jview: error: <stdin>:1:9001: unexpected end of input"),
        c("a string, then unterminated deep brackets", ["-c", "."], '"x"' + "[" * 5000, stdout='"x"\n', exit=5,
          stderr_re=r"^jview: error: <stdin>:1:5004: unexpected end of input"),
        c("version names kernels", ["--version"], stdout_re=r"^jview \d+\.\d+\.\d+\nkernels: utf8=\w+ ", stderr=""),
        # One kernel choice (simd/kernels.hpp): every family named, the request and its aliases.
        c("version names every kernel family", ["--version"],
          stdout_re=r"\nkernels: utf8=\w+( \(\w+\))? strings=\w+( \(\w+\))? whitespace=\w+( \(\w+\))? "
                    r"structure=[\w-]+( \([\w -]+\))? minify=\w+( \(\w+\))? boundary=\w+( \(\w+\))? "
                    r"lines=\w+( \(\w+\))? numbers=\w+( \(\w+\))?( \(.*\))?\n$", stderr=""),
        c("--no-simd is portable in every family", ["--no-simd", "--version"],
          stdout_re=r"\nkernels: utf8=portable strings=portable whitespace=portable structure=one-pass "
                    r"minify=portable boundary=portable lines=portable numbers=portable \(--no-simd\)\n$"),
        c("--kernels portable", ["--kernels", "portable", "--version"],
          stdout_re=r"\nkernels: utf8=portable .* numbers=portable \(--kernels portable\)\n$"),
        # --threads (issue 20): as one thread, values across pieces of 3 bytes (tests/threads/difftest.py has more)
        c("--threads 4: pretty values across pieces", ["--threads", "4", "-c", "."], '{\n  "a": [\n1,\n2]\n}\n3 4\n[5,\n',
          env={"JVIEW_CHUNK_SIZE": "3"}, stdout='{"a":[1,2]}\n3\n4\n', exit=5,
          stderr="jview: error: <stdin>:8:1: unexpected end of input\n"),
        c("JVIEW_THREADS=3: errors in order", ["-c", "if . == 2 then error(\"x\") else . end"], "1\n2\n3\n",
          env={"JVIEW_THREADS": "3", "JVIEW_CHUNK_SIZE": "1"}, stdout="1\n3\n",
          stderr="jview: error (at <stdin>:2): x\n"),
        c("--threads 2 -e: the last output decides", ["--threads", "2", "-e", "."], "1\nnull\n",
          env={"JVIEW_CHUNK_SIZE": "2"}, stdout="1\nnull\n", exit=1),
        c("JVIEW_KERNELS=portable", ["--version"], env={"JVIEW_KERNELS": "portable"},
          stdout_re=r"\nkernels: utf8=portable .* numbers=portable \(JVIEW_KERNELS=portable\)\n$"),
        c("JVIEW_NO_SIMD=1 is an alias", ["--version"], env={"JVIEW_NO_SIMD": "1"},
          stdout_re=r"\nkernels: utf8=portable .* numbers=portable \(JVIEW_NO_SIMD\)\n$"),
        c("the command line wins over the environment", ["--kernels", "auto", "--version"],
          env={"JVIEW_KERNELS": "portable"}, stdout_re=r"\nkernels: utf8=(?!portable)"),
        c("an option value that looks like --no-simd is not the option", ["-n", "--arg", "x", "--no-simd", "$x"],
          stdout='"--no-simd"\n'),
        c("unknown kernels", ["--kernels", "fast", "-n", "1"], stdout="", exit=2,
          stderr="jview: error: --kernels fast: unknown kernels (auto, portable, sse2, ssse3, avx2, avx512, neon)\n"),
        c("unknown kernels in the environment", ["-n", "1"], env={"JVIEW_KERNELS": "fast"}, stdout="", exit=2,
          stderr="jview: error: JVIEW_KERNELS=fast: unknown kernels (auto, portable, sse2, ssse3, avx2, avx512, "
                 "neon)\n"),
        # Only the options the arguments can name are given to CLI11 (cli/options.cpp, start-up): --help still lists
        # all of them, grouped short flags and -Lvalue still parse, an unknown one is still unknown.
        c("help lists every option", ["-h"], stdout_re=r"(?s)--max-depth.*--compact-output.*--library-path.*--rawfile"
          r".*--force-ssse3", stderr=""),
        c("grouped short flags", ["-nrc", '"x", [1]'], stdout='x\n[1]\n'),
        c("short option with its value attached", ["-nL/nonexistent", "1"], stdout="1\n"),
        c("long option with =", ["--indent=1", "-n", "[1]"], stdout="[\n 1\n]\n"),
        c("unknown short option in a group", ["-nx", "1"], stdout="", exit=2,
          stderr="jview: error: Unknown option: -x\nUse jview --help for help with command-line options.\n"),
        c("unknown long option, a prefix of one", ["--compact", "."], "1", stdout="", exit=2,
          stderr="jview: error: Unknown option: --compact\ndid you mean --compact-output?\n"
                 "Use jview --help for help with command-line options.\n"),
        # --- Help for people (issue 23): usage, groups, 80 columns (or COLUMNS), examples; did you mean; jq's words
        # for a missing value.
        c("mistyped long option: did you mean", ["--compat", "."], "1", stdout="", exit=2,
          stderr="jview: error: Unknown option: --compat\ndid you mean --compact-output?\n"
                 "Use jview --help for help with command-line options.\n"),
        c("mistyped long option: transposed letters", ["--sort-kyes", "."], "1", stdout="", exit=2,
          stderr="jview: error: Unknown option: --sort-kyes\ndid you mean --sort-keys?\n"
                 "Use jview --help for help with command-line options.\n"),
        c("mistyped long option with a value", ["--indnet=3", "."], "1", stdout="", exit=2,
          stderr="jview: error: Unknown option: --indnet=3\ndid you mean --indent?\n"
                 "Use jview --help for help with command-line options.\n"),
        c("unknown long option far from all: no suggestion", ["--bogus", "."], "1", stdout="", exit=2,
          stderr="jview: error: Unknown option: --bogus\nUse jview --help for help with command-line options.\n"),
        c("--arg without its values: jq's words", ["--arg", "x"], stdout="", exit=2,
          stderr="jview: error: --arg takes two parameters (e.g. --arg NAME VALUE)\n"
                 "Use jview --help for help with command-line options.\n"),
        c("--indent without its value", ["--indent"], stdout="", exit=2,
          stderr="jview: error: --indent takes one parameter (--indent N)\n"
                 "Use jview --help for help with command-line options.\n"),
        c("help: usage names FILTER", ["--help"], stdout_re=r"^Usage: jview \[OPTIONS\] FILTER \[FILE\.\.\.\]\n",
          stderr=""),
        c("help: groups in order, placeholders, examples", ["--help"], stderr="",
          stdout_re=r"(?s)\nInput:\n.*\nOutput:\n.*\nProgram and variables:\n.*\nValidation \(.*\nPerformance:\n"
                    r".*\nHelp:\n.*\nExamples:\n  jview \. data\.json .*"),
        c("help: placeholders name the values", ["--help"], stderr="",
          stdout_re=r"(?s)\n      --indent N  .*\n      --numbers source\|shortest\n.*\n      --arg NAME VALUE  "),
        c("help: no line over 80 columns", ["--help"], env={"COLUMNS": ""}, stderr="",
          stdout_re=r"^(?:[^\n]{0,80}\n)+$"),
        c("help: no line over COLUMNS=70 (the narrowest it wraps to)", ["--help"], env={"COLUMNS": "70"}, stderr="",
          stdout_re=r"^(?:[^\n]{0,70}\n)+$"),
        c("help: COLUMNS=120 makes it wider", ["--help"], env={"COLUMNS": "120"}, stderr="",
          stdout_re=r"\n  -n, --null-input          use null as the single input \(read the inputs with input and inputs\)\n"),
        # --- --strict: an input is one RFC 8259 JSON text.
        c("--strict: one value is fine", ["--strict", "-c", "."], " [1] \n", stdout="[1]\n"),
        c("--strict: a second value is an error after the first is written", ["--strict", "-c", "."], "[1]\n[2]",
          stdout="[1]\n", exit=5,
          stderr="jview: error: <stdin>:2:1: unexpected data after the JSON value\n  [2]\n  ^\n"),
        c("--strict: empty input", ["--strict", "."], "", stdout="", exit=5, stderr_re=r"<stdin>:1:1: no JSON value"),
        c("--strict --check: NDJSON is not one text", ["--strict", "--check", "a.json", "b.json"],
          files={"a.json": '{"a":1}\n{"a":2}\n', "b.json": "[]"},
          stdout="a.json:2:1: error: unexpected data after the JSON value\n", exit=1),
        # --- Duplicate keys: one member per key, the last value at the first key's place (as jq).
        c("duplicate keys: identity", ["-c", "."], '{"a":1,"b":2,"a":3}', stdout='{"a":3,"b":2}\n'),
        c("duplicate keys: pretty, nested", ["."], '[{"k":{"x":1,"x":2},"k":0}]',
          stdout='[\n  {\n    "k": 0\n  }\n]\n'),
        c("duplicate keys: -S", ["-S", "-c", "."], '{"b":1,"a":2,"b":3}', stdout='{"a":2,"b":3}\n'),
        c("duplicate keys: iteration", ["-c", "[.[]], keys, length, to_entries"], '{"a":1,"b":2,"a":3}',
          stdout='[3,2]\n["a","b"]\n2\n[{"key":"a","value":3},{"key":"b","value":2}]\n'),
        # --- Parse errors: exit 5, FILE:LINE:COLUMN, values before the error are written.
        c("trailing comma", ["-c", "."], '{"a":1}\n{"a":2,}\n{"a":3}', stdout='{"a":1}\n', exit=5,
          stderr='jview: error: <stdin>:2:8: trailing comma\n  {"a":2,}\n         ^\n'),
        c("unfinished at end", ["-c", "."], '1 2 [', stdout="1\n2\n", exit=5,
          stderr='jview: error: <stdin>:1:6: unexpected end of input\n  1 2 [\n       ^\n'),
        c("error in file names the file", ["-c", ".", "bad.json"], files={"bad.json": '[1,\n 2,\n  x]'}, exit=5,
          stderr='jview: error: bad.json:3:3: unexpected character\n    x]\n    ^\n'),
        c("column counts characters", ["."], '["é", "ü", x]', exit=5,
          stderr='jview: error: <stdin>:1:12: unexpected character\n  ["é", "ü", x]\n             ^\n'),
        c("leading zero", ["."], '[012]', exit=5, stderr_re=r"<stdin>:1:2: 012 is not JSON \(--lenient reads it as jq does\)"),
        c("top-level leading zero", ["."], '012', exit=5, stderr_re=r"<stdin>:1:1: 012 is not JSON \(--lenient"),
        c("literal runs into letters", ["."], 'truex', exit=5, stderr_re=r"<stdin>:1:5: invalid literal"),
        c("number runs into letters", ["."], '1x', exit=5, stderr_re=r"<stdin>:1:2: invalid number"),
        c("bad literal", ["."], 'tru', exit=5, stderr_re=r"<stdin>:1:1: invalid literal"),
        c("unterminated string points at its quote", ["."], '["abc', exit=5,
          stderr_re=r"<stdin>:1:2: unterminated string"),
        c("control character in string", ["."], b'"a\x01b"', exit=5,
          stderr_re=r"<stdin>:1:3: unescaped control character in string"),
        c("bad escape", ["."], r'"a\qb"', exit=5, stderr_re=r"<stdin>:1:3: invalid escape in string"),
        c("bad unicode escape", ["."], r'"\u12G4"', exit=5, stderr_re=r"<stdin>:1:2: invalid \\u escape"),
        c("lone high surrogate", ["."], r'"\ud800x"', exit=5, stderr_re=r"<stdin>:1:2: lone surrogate"),
        c("lone low surrogate", ["."], r'"\udc00"', exit=5, stderr_re=r"<stdin>:1:2: lone surrogate"),
        c("invalid utf8 is an error", ["."], b'["ok", "a\xffb"]', exit=5,
          stderr_re=r"<stdin>:1:10: invalid UTF-8"),
        c("overlong utf8 is an error", ["."], b'"\xc0\xaf"', exit=5, stderr_re=r"<stdin>:1:2: invalid UTF-8"),
        c("encoded surrogate is an error", ["."], b'"\xed\xa0\x80"', exit=5, stderr_re=r"invalid UTF-8"),
        c("replace invalid utf8", ["-c", "--replace-invalid-utf8", "."], b'["a\xffb", "\xc0\xaf", "\\ud800"]',
          stdout='["a\ufffdb","\ufffd\ufffd","\ufffd"]\n'),
        c("missing colon", ["."], '{"a" 1}', exit=5, stderr_re=r"<stdin>:1:6: expected ':'"),
        c("missing comma in object", ["."], '{"a":1 "b":2}', exit=5, stderr_re=r"<stdin>:1:8: expected ',' or '}'"),
        c("key must be a string", ["."], '{a:1}', exit=5, stderr_re=r"<stdin>:1:2: expected a string key"),
        c("closing bracket alone", ["."], ']', exit=5, stderr_re=r"<stdin>:1:1: expected a value"),
        c("depth limit", ["--max-depth", "3", "-c", "."], '[[[1]]] [[[[1]]]]', stdout="[[[1]]]\n", exit=5,
          stderr_re=r"<stdin>:1:12: exceeds maximum nesting depth"),
        c("default depth 10000 accepted", ["-c", "."], "[" * 10000 + "]" * 10000, stdout="[" * 10000 + "]" * 10000 + "\n"),
        c("depth 10001 rejected", ["-c", "."], "[" * 10001 + "]" * 10001, exit=5,
          stderr_re=r"exceeds maximum nesting depth"),
        # --- --check.
        c("check valid and invalid", ["--check", "good.json", "bad.json", "nd.json"],
          files={"good.json": '{"a":[1,2]}', "bad.json": '{"a":\n [1,,2]}', "nd.json": '{"a":1}\n{"a":2}\n'},
          stdout="bad.json:2:5: error: expected a value\n", exit=1, stderr=""),
        c("check all valid", ["--check", "a.json", "b.json"], files={"a.json": "[]", "b.json": "1 2 3"}, stdout="", exit=0),
        c("check missing file is exit 2, reported on stdout like the others",
          ["--check", "a.json", "nope.json", "bad.json"], files={"a.json": "[]", "bad.json": "[1,]"},
          stdout="nope.json:1:1: error: No such file or directory\nbad.json:1:4: error: trailing comma\n", exit=2,
          stderr=""),
        c("check a directory", ["--check", "d", "a.json"], files={"d/x.json": "[]", "a.json": "{"},
          stdout="d:1:1: error: Is a directory\na.json:1:2: error: unexpected end of input\n", exit=2),
        c("check stdin", ["--check"], "[1, 2", stdout="<stdin>:1:6: error: unexpected end of input\n", exit=1),
        c("check: empty and whitespace-only files are valid (as for jq empty)", ["--check", "e.json", "w.json"],
          files={"e.json": "", "w.json": " \n\t\r\n"}, stdout="", exit=0, stderr=""),
        c("check --strict: an empty or whitespace-only file holds no JSON text", ["--strict", "--check", "e.json", "w.json"],
          files={"e.json": "", "w.json": " \n\t\r\n"},
          stdout="e.json:1:1: error: no JSON value\nw.json:1:1: error: no JSON value\n", exit=1),
        c("check: columns count characters, the JSON format has the byte offset too",
          ["--check", "--check-format=json", "u.json"], files={"u.json": '["\u00e9", x]'},
          stdout='{"file":"u.json","line":1,"column":7,"byte_offset":7,"message":"unexpected character"}\n', exit=1),
        # --check-format: every problem in one format; github is GitHub Actions' `::error` workflow command
        # (tests/cli/run_cli_tests.py github_checks parses these lines as the runner does).
        c("check-format plain is the default", ["--check", "--check-format", "plain", "bad.json"],
          files={"bad.json": "[1,]"}, stdout="bad.json:1:4: error: trailing comma\n", exit=1),
        c("check-format github", ["--check", "--check-format=github", "good.json", "bad.json", "nope.json"],
          files={"good.json": "{}", "bad.json": '{"a":\n [1,,2]}'},
          stdout="::error file=bad.json,line=2,col=5::expected a value\n"
                 "::error file=nope.json::No such file or directory\n", exit=2, stderr=""),
        c("check-format github escapes ',' and ':' in the file property", ["--check", "--check-format=github", "a,b:c%.json"],
          files={"a,b:c%.json": "[1,]"}, stdout="::error file=a%2Cb%3Ac%25.json,line=1,col=4::trailing comma\n", exit=1),
        c("check-format json", ["--check", "--check-format=json", "bad.json", "nope.json"],
          files={"bad.json": '{"a":\n [1,,2]}'},
          stdout='{"file":"bad.json","line":2,"column":5,"byte_offset":10,"message":"expected a value"}\n'
                 '{"file":"nope.json","line":null,"column":null,"byte_offset":null,"message":"No such file or directory"}\n',
          exit=2),
        c("check-format json escapes the file name", ["--check", "--check-format=json", 'q"\\.json'],
          files={'q"\\.json': "[1,]"},
          stdout='{"file":"q\\"\\\\.json","line":1,"column":4,"byte_offset":3,"message":"trailing comma"}\n', exit=1),
        c("check-format: an unknown format is a usage error", ["--check", "--check-format=xml", "a.json"],
          files={"a.json": "[]"}, stdout="", exit=2, stderr_re="check-format"),
        # --- --utf8.
        c("utf8 valid files", ["--utf8", "a.txt", "b.txt"], files={"a.txt": "héllo\nwörld\n", "b.txt": ""}, stdout=""),
        c("utf8 invalid", ["--utf8", "a.txt", "bad.txt"],
          files={"a.txt": "ok\n", "bad.txt": b"line one\nli\xc3\xa9ne \xe2\x82 two\n"},
          stdout="bad.txt:2:7: error: invalid UTF-8 (byte offset 16)\n", exit=1),
        c("utf8 stdin", ["--utf8", "-"], b"ab\n\xf4\x90\x80\x80",
          stdout="<stdin>:2:1: error: invalid UTF-8 (byte offset 3)\n", exit=1),
        c("utf8 missing file", ["--utf8", "nope.txt"], exit=2, stdout="nope.txt:1:1: error: No such file or directory\n",
          stderr=""),
        c("utf8 check-format github", ["--utf8", "--check-format=github", "bad.txt", "d"],
          files={"bad.txt": b"ok\n\xc3\xa9\xff\n", "d/x": ""},
          stdout="::error file=bad.txt,line=2,col=2::invalid UTF-8 (byte offset 5)\n::error file=d::Is a directory\n",
          exit=2),
        c("utf8 check-format json", ["--utf8", "--check-format=json", "bad.txt", "nope"],
          files={"bad.txt": b"ok\n\xc3\xa9\xff\n"},
          stdout='{"file":"bad.txt","line":2,"column":2,"byte_offset":5,"message":"invalid UTF-8 (byte offset 5)"}\n'
                 '{"file":"nope","line":null,"column":null,"byte_offset":null,"message":"No such file or directory"}\n',
          exit=2),
        # --- -i / --in-place: each FILE rewritten with the program's one output value for it, or left as it was.
        c("in-place rewrites the file and keeps its mode", ["-i", '.version = "1.2.3"', "package.json"],
          files={"package.json": '{"version":"1.0.0","name":"x"}\n'}, modes={"package.json": 0o640},
          after={"package.json": '{\n  "version": "1.2.3",\n  "name": "x"\n}\n'}, after_modes={"package.json": 0o640},
          stdout="", stderr=""),
        c("in-place keeps the owner and group (as root)", ["-i", "-c", ".a += 1", "o.json"], files={"o.json": '{"a":1}'},
          owners={"o.json": (1234, 5678)}, modes={"o.json": 0o604}, after={"o.json": '{"a":2}\n'},
          after_modes={"o.json": 0o604}),
        c("in-place with output options", ["-i", "-S", "--indent", "3", ".", "a.json"], files={"a.json": '{"b":[1],"a":2}'},
          after={"a.json": '{\n   "a": 2,\n   "b": [\n      1\n   ]\n}\n'}),
        c("in-place lays out -r -a as the filter mode does (a quoted ASCII string)", ["-i", "-r", "-a", ".", "s.json"],
          files={"s.json": '"\u00e9"'},
          after={"s.json": '"\\u00e9"\n'}),
        c("in-place with --seq: RS before a JSON value, not before a raw string", ["-i", "--seq", "-c", ".", "q.json"],
          files={"q.json": "[1]"}, after={"q.json": "\x1e[1]\n"}),
        c("in-place: a failing program leaves the file byte-identical", ["-i", '.version |= error("no")', "p.json"],
          files={"p.json": '{ "version" : "1" }\n'}, same_inode=["p.json"], after={"p.json": '{ "version" : "1" }\n'},
          stdout="", exit=5, stderr="jview: error (at p.json:1): no\njview: p.json: left unchanged\n"),
        c("in-place: two files, one invalid: the other is rewritten", ["-i", "-c", ".n += 1", "a.json", "bad.json", "b.json"],
          files={"a.json": '{"n":1}', "bad.json": '[1,\n2,', "b.json": '{"n":5}'}, same_inode=["bad.json"],
          after={"a.json": '{"n":2}\n', "bad.json": '[1,\n2,', "b.json": '{"n":6}\n'}, exit=5,
          stderr="jview: error: bad.json:2:3: unexpected end of input\n  2,\n    ^\njview: bad.json: left unchanged\n"),
        c("in-place: two output values are an error", ["-i", ".[]", "a.json"], files={"a.json": '{"a":1,"b":2}'},
          after={"a.json": '{"a":1,"b":2}'}, same_inode=["a.json"], exit=5,
          stderr="jview: error: a.json: the program wrote 2 values for it; -i writes exactly one\n"
                 "jview: a.json: left unchanged\n"),
        c("in-place: no output value is an error", ["-i", "empty", "a.json"], files={"a.json": "[]"}, after={"a.json": "[]"},
          exit=5, stderr="jview: error: a.json: the program wrote no values for it; -i writes exactly one\n"
                         "jview: a.json: left unchanged\n"),
        c("in-place: NDJSON gives one output per value: an error unless -s", ["-i", "-c", ".a", "nd.json"],
          files={"nd.json": '{"a":1}\n{"a":2}\n'}, after={"nd.json": '{"a":1}\n{"a":2}\n'}, exit=5,
          stderr_re="the program wrote 2 values"),
        c("in-place -s: the file's values as one array", ["-i", "-c", "-s", "map(.a)", "nd.json"],
          files={"nd.json": '{"a":1}\n{"a":2}\n'}, after={"nd.json": "[1,2]\n"}),
        c("in-place: input and inputs read the same file", ["-i", "-c", "[., input]", "a.json", "b.json"],
          files={"a.json": "1 2", "b.json": "10 20"}, after={"a.json": "[1,2]\n", "b.json": "[10,20]\n"}),
        c("in-place: input_filename is the file's name", ["-i", "input_filename", "a.json"], files={"a.json": "1"},
          after={"a.json": '"a.json"\n'}),
        c("in-place -r writes the string's text", ["-i", "-r", ".s", "a.txt"], files={"a.txt": '{"s":"line"}'},
          after={"a.txt": "line\n"}),
        c("in-place: a symbolic link is followed: the target is rewritten, the link stays", ["-i", "-c", ".x = 1", "link.json"],
          files={"real.json": "{}"}, symlinks={"link.json": "real.json"}, after={"real.json": '{"x":1}\n'}),
        c("in-place: a missing file is reported, the others rewritten", ["-i", "-c", ". + 1", "nope.json", "a.json"],
          files={"a.json": "1"}, after={"a.json": "2\n"}, exit=2,
          stderr="jview: error: Could not open file nope.json: No such file or directory\n"),
        c("in-place: a directory is not a regular file", ["-i", ".", "d"], files={"d/a.json": "1"}, after={"d/a.json": "1"},
          exit=2, stderr="jview: error: d: not a regular file (-i rewrites regular files only)\n"),
        c("in-place: halt_error ends the run, the file unchanged", ["-i", "halt_error", "h.json", "a.json"],
          files={"h.json": '"bye\\n"', "a.json": "1"}, after={"h.json": '"bye\\n"', "a.json": "1"}, exit=5,
          stderr="bye\njview: h.json: left unchanged\n"),
        c("in-place needs files", ["-i", "."], "1", exit=2, stderr_re="-i needs FILE arguments"),
        c("in-place with -n is a usage error", ["-i", "-n", "1", "a.json"], files={"a.json": "1"}, after={"a.json": "1"},
          exit=2, stderr_re="-i cannot be used with -n"),
        c("in-place: a compile error touches nothing", ["-i", ".[", "a.json"], files={"a.json": "1"}, after={"a.json": "1"},
          exit=3, stderr_re="compile error"),
        # --- --check-formatted: files whose bytes differ from what `jview .` with the same output options writes.
        c("check-formatted lists each file at its first difference",
          ["--check-formatted", "ok.json", "flat.json", "nonl.json", "four.json", "extra.json", "empty.json"],
          files={"ok.json": '{\n  "a": [\n    1\n  ]\n}\n', "flat.json": '{"a": 1}\n', "nonl.json": '{\n  "a": 1\n}',
                 "four.json": '{\n    "a": 1\n}\n', "extra.json": '1\n\n', "empty.json": ""},
          stdout="flat.json:1:2: error: not formatted as jview writes it\n"
                 "nonl.json:3:2: error: not formatted as jview writes it\n"
                 "four.json:2:3: error: not formatted as jview writes it\n"
                 "extra.json:2:1: error: not formatted as jview writes it\n", exit=1, stderr=""),
        c("check-formatted with --indent, -c, --tab and -S", ["--check-formatted", "--indent", "4", "-S", "a.json", "b.json"],
          files={"a.json": '{\n    "a": 1,\n    "b": 2\n}\n', "b.json": '{\n    "b": 1,\n    "a": 2\n}\n'},
          stdout="b.json:2:6: error: not formatted as jview writes it\n", exit=1),
        c("check-formatted -c over NDJSON", ["--check-formatted", "-c", "nd.json"], files={"nd.json": '{"a":1}\n[2]\n'},
          stdout="", exit=0),
        c("check-formatted --tab", ["--check-formatted", "--tab", "t.json"], files={"t.json": '[\n\t1\n]\n'}, stdout=""),
        c("check-formatted: an invalid or missing file", ["--check-formatted", "bad.json", "nope.json"],
          files={"bad.json": '{"a" 1}'},
          stdout="bad.json:1:6: error: expected ':' after object key\nnope.json:1:1: error: No such file or directory\n",
          exit=2),
        c("check-formatted github", ["--check-formatted", "--check-format=github", "flat.json"], files={"flat.json": "[1]"},
          stdout="::error file=flat.json,line=1,col=2::not formatted as jview writes it\n", exit=1),
        c("check-formatted json: the column in characters, the offset in bytes", ["--check-formatted", "--check-format=json",
          "é.json"], files={"é.json": '{\n  "é":1\n}\n'},
          stdout='{"file":"é.json","line":2,"column":7,"byte_offset":9,"message":"not formatted as jview writes it"}\n',
          exit=1),
        # --- Issue 22: jq 1.8's output options and program arguments (expected bytes from jq 1.8.2).
        c("-r -a writes strings as ASCII JSON (jq 1.8)", ["-r", "-a", "."], '"é" ["é"] "x"',
          stdout='"\\u00e9"\n[\n  "\\u00e9"\n]\n"x"\n'),
        c("-j -a", ["-j", "-a", "."], '"é\\u0000" "x"', stdout='"\\u00e9\\u0000""x"'),
        c("--raw-output0 -a: no NUL check, the string escaped", ["--raw-output0", "-a", "."], '"a\\u0000"',
          stdout='"a\\u0000"\x00'),
        c("--seq: no RS before a raw string", ["-n", "--seq", "-r", '"a",[1]'], "", stdout='a\n\x1e[\n  1\n]\n'),
        c("--raw-output0 then -j keeps the NULs", ["-n", "--raw-output0", "-j", '"a","b"'], "", stdout='a\x00b\x00'),
        c("-j then --raw-output0 keeps the NULs", ["-n", "-j", "--raw-output0", '"a","b"'], "", stdout='a\x00b\x00'),
        c("--args and --jsonargs switch for the arguments after them",
          ["-n", "-c", "$ARGS.positional", "--args", "a", "--jsonargs", "1", "{}", "--args", "2"], "",
          stdout='["a",1,{},"2"]\n'),
        c("a positional before --args is a file", ["-c", "$ARGS.positional", "f.json", "--args", "a"], "",
          files={"f.json": "1 2"}, stdout='["a"]\n["a"]\n'),
        # Every option that takes a value has it skipped when the command line is read for --args (the names come
        # from the option table: --threads and --decompress were once missing, and FILE became an argument).
        *[c("a positional before --args is a file, after " + " ".join(opt),
            opt + ["-c", "$ARGS.positional", "f.json", "--args", "a"], "", files={"f.json": "1"}, stdout='["a"]\n')
          for opt in (["--threads", "1"], ["--threads=1"], ["--decompress", "never"], ["--max-depth", "9"],
                      ["--kernels", "portable"], ["--indent", "3"], ["--numbers", "shortest"], ["-L", "."], ["-L."],
                      ["--check-format", "plain"], ["--library-path", "."])],
        c("--arg twice: the first is kept; $ARGS.named in command-line order",
          ["-n", "-c", "[$x, $ARGS.named]", "--arg", "x", "1", "--arg", "x", "2", "--arg", "a", "3", "--argjson", "b",
           "4", "--arg", "c", "5", "--argjson", "x", "9"], "", stdout='["1",{"x":"1","a":"3","b":4,"c":"5"}]\n'),
        c("--rawfile of a name given before is not read",
          ["-n", "-c", "$ARGS.named", "--arg", "a", "1", "--rawfile", "a", "missing.txt", "--slurpfile", "a",
           "missing.json"], "", stdout='{"a":"1"}\n'),
        # Invalid UTF-8 from outside the parser becomes U+FFFD as jq 1.8 replaces it (issue 25, item 7): B holds a, E2,
        # A, C0 80, E0 80 80, z, F8 (surrogate escapes stand for the bytes in arguments and the environment).
        c("--arg with invalid UTF-8 is read with U+FFFD as jq",
          ["-n", "-c", '$x | ., explode, utf8bytelength, test("z"), @base64, @uri', "--arg", "x", BAD_UTF8], "",
          stdout='"a�A���z�"\n[97,65533,65,65533,65533,65533,122,65533]\n18\ntrue\n"Ye+/vUHvv73vv73vv71677+9"\n'
                 '"a%EF%BF%BDA%EF%BF%BD%EF%BF%BD%EF%BF%BDz%EF%BF%BD"\n'),
        c("--args with invalid UTF-8", ["-n", "-c", "$ARGS.positional", "--args", BAD_UTF8, "ok"], "",
          stdout='["a�A���z�","ok"]\n'),
        c("-R lines with invalid UTF-8", ["-R", "-c", "., explode"], b"a\xe2A\n\xc0\x80\xff\n",
          stdout='"a�"\n[97,65533]\n"���"\n[65533,65533,65533]\n'),
        c("-R -s with invalid UTF-8", ["-R", "-s", "-c", "., explode"], b"a\xe2A\n\xc0\x80\xff\n",
          stdout='"a�A\\n���\\n"\n[97,65533,65,10,65533,65533,65533,10]\n'),
        c("--rawfile with invalid UTF-8", ["-n", "-c", "$r | ., length", "--rawfile", "r", "r.txt"], "",
          files={"r.txt": b"x\xe2\x82\xe2\x82ab\n"}, stdout='"x��ab\\n"\n6\n'),
        c("env and $ENV with invalid UTF-8", ["-n", "-c", "env.BAD, $ENV.BAD | explode"], "", env={"BAD": BAD_UTF8},
          stdout='[97,65533,65,65533,65533,65533,122,65533]\n[97,65533,65,65533,65533,65533,122,65533]\n'),
        c("a program string literal with invalid UTF-8", ["-n", "-c", '"' + BAD_UTF8 + '" | ., explode'], "",
          stdout='"a�A���z�"\n[97,65533,65,65533,65533,65533,122,65533]\n'),
        c("input_filename with invalid UTF-8", ["-c", "input_filename | explode", "f\udcff.json"], "",
          files={"f\udcff.json": "1"}, stdout='[102,65533,46,106,115,111,110]\n'),
        # --- Issue 22: colours and -n -s as jq 1.8.
        c('-M after -C wins', ['-C', '-M', '-c', '.'], '[1]', stdout='[1]\n'),
        c('-M before -C wins', ['-M', '-C', '-c', '.'], '[1]', stdout='[1]\n'),
        c('JQ_COLORS: fields past the eighth are ignored', ['-C', '-c', '.'], '{"a":[1,null]}', env={'JQ_COLORS': '0;31:0;32:0;33:0;34:0;35:0;36:0;37:1;31:9;9:x'}, stdout='\x1b[0;37m{\x1b[0m\x1b[1;31m"a"\x1b[0m\x1b[0;37m:\x1b[0m\x1b[0;36m[\x1b[0m\x1b[0;34m1\x1b[0m\x1b[0;36m,\x1b[0m\x1b[0;31mnull\x1b[0m\x1b[0;36m]\x1b[0m\x1b[0;37m}\x1b[0m\n'),
        c('JQ_COLORS: a truecolour field', ['-C', '-c', '.'], '[1]', env={'JQ_COLORS': '0;31:0;32:0;33:38;2;255;100;0'}, stdout='\x1b[1;39m[\x1b[0m\x1b[38;2;255;100;0m1\x1b[0m\x1b[1;39m]\x1b[0m\n'),
        c('JQ_COLORS: an empty last field keeps the defaults from there', ['-C', '-c', '.'], '[null,1]', env={'JQ_COLORS': '0;31:'}, stdout='\x1b[1;39m[\x1b[0m\x1b[0;31mnull\x1b[0m\x1b[1;39m,\x1b[0m\x1b[0;39m1\x1b[0m\x1b[1;39m]\x1b[0m\n'),
        c('JQ_COLORS: a bad character keeps the defaults', ['-C', '-c', '.'], '[null]', env={'JQ_COLORS': '0;31:x'}, stdout='\x1b[1;39m[\x1b[0m\x1b[0;90mnull\x1b[0m\x1b[1;39m]\x1b[0m\n'),
        c('-n -s: input is the slurped array', ['-n', '-s', '-c', '., input'], '1 2', stdout='null\n[1,2]\n'),
        c('-n -s: inputs gives the one array', ['-n', '-s', '-c', '[inputs]'], '1 2', stdout='[[1,2]]\n'),
        c('-n -s --stream: the events slurped', ['-n', '-s', '-c', '--stream', 'input'], '[1]', stdout='[[[0],1],[[0]]]\n'),
        # --- --lenient: input read as jq 1.8 reads it (outputs from jq 1.8.2 without the option); the strict error
        # names the option.
        c("--lenient reads NaN, Infinity and numbers as jq 1.8", ["--lenient", "-c", "."],
          '[NaN,nan,-nan,Infinity,-Infinity,infinity,01,.5,1.,+1] {"a":nan}',
          stdout='[null,null,null,1.7976931348623157e+308,-1.7976931348623157e+308,1.7976931348623157e+308,1,0.5,1,1]\n'
                 '{"a":null}\n'),
        c("--lenient reads invalid UTF-8 as U+FFFD", ["--lenient", "-c", ". , explode"], b'"a\xffb\xc0\x80"',
          stdout='"a\ufffdb\ufffd\ufffd"\n[97,65533,98,65533,65533]\n'),
        c("--lenient skips a byte order mark", ["--lenient", "-c", "."], b'\xef\xbb\xbf[1]', stdout='[1]\n'),
        c("--lenient with -n and inputs", ["--lenient", "-n", "-c", "[inputs]"], 'NaN 1 [2]', stdout='[null,1,[2]]\n'),
        c("--lenient: a parse error after the values before it", ["--lenient", "-c", "."], '1 [2,', stdout='1\n',
          stderr="jview: error: <stdin>: Unfinished JSON term at EOF at line 1, column 5\n", exit=5),
        c("strict: NaN names --lenient", ["-c", "."], '{"a":NaN}', stdout='',
          stderr_re=r"^jview: error: <stdin>:1:6: NaN is not JSON \(--lenient reads it as jq does\)\n", exit=5),
        c("strict: -Infinity, 01, .5, 1. and +1 name --lenient", ["-c", ".[]"], '[-Infinity]', stdout='',
          stderr_re=r"^jview: error: <stdin>:1:3: -Infinity is not JSON \(--lenient", exit=5),
        c("strict: a leading zero names --lenient", ["-c", "."], '[01]', stdout='',
          stderr_re=r"^jview: error: <stdin>:1:2: 01 is not JSON \(--lenient", exit=5),
        c("strict: 1. names --lenient", ["-c", "."], '[1.]', stdout='',
          stderr_re=r"^jview: error: <stdin>:1:4: 1\. is not JSON \(--lenient", exit=5),
        c("strict: invalid UTF-8 names --lenient", ["-c", "."], b'["a\xff"]', stdout='',
          stderr_re=r"^jview: error: <stdin>:1:4: invalid UTF-8 \(--lenient reads it as jq does\)", exit=5),
        # --- Issue 22: dates in a time zone, as jq 1.8 (the broken-down time normalised by mktime/timegm).
        c("strflocaltime: %z and %Z of the date's own zone and DST (TZ=Europe/Paris)", ['-n', '-c', '[0, 1720000000 | strflocaltime("%H %z %Z")], ([2024,6,3,9,46,40,3,184], [2024,2,31,2,30,0,0,0] | strflocaltime("%F %T %z %Z"))'], '', env={'TZ': 'Europe/Paris'}, stdout='["01 +0100 CET","11 +0200 CEST"]\n"2024-07-03 09:46:40 +0200 CEST"\n"2024-03-31 03:30:00 +0200 CEST"\n'),
        c('strflocaltime in New York (TZ=America/New_York)', ['-n', '-c', '[2024,0,1] , [2024,6,1] | strflocaltime("%F %z %Z")'], '', env={'TZ': 'America/New_York'}, stdout='"2024-01-01 -0500 EST"\n"2024-07-01 -0400 EDT"\n'),
        c('strftime is GMT whatever TZ says', ['-n', '-c', '1720000000 | strftime("%H %z %Z"), (localtime | strftime("%Z"))'], '', env={'TZ': 'Europe/Paris'}, stdout='"09 +0000 GMT"\n"GMT"\n'),
        # --- Issue 22: compile errors and modules as jq 1.8.
        c('every undefined name is reported', ['-n', '$a, foo, bar(1), $b'], '', stdout='', exit=3,
          stderr='jview: error: $a is not defined at <top-level>, line 1, column 1:\n    $a, foo, bar(1), $b\n    ^^\njview: error: foo/0 is not defined at <top-level>, line 1, column 5:\n    $a, foo, bar(1), $b\n        ^^^\njview: error: bar/1 is not defined at <top-level>, line 1, column 10:\n    $a, foo, bar(1), $b\n             ^^^\njview: error: $b is not defined at <top-level>, line 1, column 18:\n    $a, foo, bar(1), $b\n                     ^^\njview: 4 compile errors\n'),
        c("undefined names in a referenced definition, after the program's own", ['-n', 'def g: nope1; def h: nope2; g, h'], '', stdout='', exit=3,
          stderr='jview: error: nope1/0 is not defined at <top-level>, line 1, column 8:\n    def g: nope1; def h: nope2; g, h\n           ^^^^^\njview: error: nope2/0 is not defined at <top-level>, line 1, column 22:\n    def g: nope1; def h: nope2; g, h\n                         ^^^^^\njview: 2 compile errors\n'),
        c("a definition's error when the program has none of its own", ['-n', 'def f: $x; f, $y'], '', stdout='', exit=3,
          stderr='jview: error: $y is not defined at <top-level>, line 1, column 15:\n    def f: $x; f, $y\n                  ^^\njview: 1 compile error\n'),
        c("arguments of a function written in jq are looked at only if the body has no error of its own (jq 1.8)",
          ['-n', 'def f(a): a; f($q), $r'], '', stdout='', exit=3,
          stderr='jview: error: $r is not defined at <top-level>, line 1, column 21:\n    def f(a): a; f($q), $r\n                        ^^\njview: 1 compile error\n'),
        c("closures and called definitions in their order when the body has no error (jq 1.8)",
          ['-n', 'def f: $q; def g(a): a; g($s), f, getpath($t)'], '', stdout='', exit=3,
          stderr='jview: error: $t is not defined at <top-level>, line 1, column 43:\n    def f: $q; def g(a): a; g($s), f, getpath($t)\n                                              ^^\njview: 1 compile error\n'),
        c("closures and called definitions in their order, no error of the body's own",
          ['-n', 'def f: $q; def g(a): a; g($s), f, .[$t] |= 1'], '', stdout='', exit=3,
          stderr='jview: error: $q is not defined at <top-level>, line 1, column 8:\n    def f: $q; def g(a): a; g($s), f, .[$t] |= 1\n           ^^\njview: error: $s is not defined at <top-level>, line 1, column 27:\n    def f: $q; def g(a): a; g($s), f, .[$t] |= 1\n                              ^^\njview: error: $t is not defined at <top-level>, line 1, column 37:\n    def f: $q; def g(a): a; g($s), f, .[$t] |= 1\n                                        ^^\njview: 3 compile errors\n'),
        # --- Issue 23: after jq's text for an undefined function, the defined ones close to it (stdout and exit as jq).
        c("did you mean: a builtin one edit away", ['-n', '1 | flor'], '', stdout='', exit=3,
          stderr='jview: error: flor/0 is not defined at <top-level>, line 1, column 5:\n    1 | flor\n        ^^^^\ndid you mean floor/0?\njview: 1 compile error\n'),
        c("did you mean: the same name with other arities", ['-n', 'range(1;2;3;4)'], '', stdout='', exit=3,
          stderr='jview: error: range/4 is not defined at <top-level>, line 1, column 1:\n    range(1;2;3;4)\n    ^^^^^\ndid you mean range/1, range/2 or range/3?\njview: 1 compile error\n'),
        c("did you mean: the program's own definition", ['-n', 'def myfunc: 1; myfun'], '', stdout='', exit=3,
          stderr='jview: error: myfun/0 is not defined at <top-level>, line 1, column 16:\n    def myfunc: 1; myfun\n                   ^^^^^\ndid you mean myfunc/0?\njview: 1 compile error\n'),
        c("did you mean: an imported module's function", ['-n', 'import "m" as m; m::ff'], '', files={"m.jq": 'def f: "m";'},
          stdout='', exit=3,
          stderr='jview: error: m::ff/0 is not defined at <top-level>, line 1, column 18:\n    import "m" as m; m::ff\n                     ^^^^^\ndid you mean m::f/0?\njview: 1 compile error\n'),
        c("did you mean: the beginning of one name", ['-n', 'ascii_down'], '', stdout='', exit=3,
          stderr='jview: error: ascii_down/0 is not defined at <top-level>, line 1, column 1:\n    ascii_down\n    ^^^^^^^^^^\ndid you mean ascii_downcase/0?\njview: 1 compile error\n'),
        c("did you mean: nothing close, jq's text alone", ['-n', 'foo, tostr'], '', stdout='', exit=3,
          stderr='jview: error: foo/0 is not defined at <top-level>, line 1, column 1:\n    foo, tostr\n    ^^^\njview: error: tostr/0 is not defined at <top-level>, line 1, column 6:\n    foo, tostr\n         ^^^^^\njview: 2 compile errors\n'),
        c("did you mean: under its own error among several", ['-n', '1 | fx(2), $a, flor'], '', stdout='', exit=3,
          stderr='jview: error: fx/1 is not defined at <top-level>, line 1, column 5:\n    1 | fx(2), $a, flor\n        ^^\njview: error: $a is not defined at <top-level>, line 1, column 12:\n    1 | fx(2), $a, flor\n               ^^\njview: error: flor/0 is not defined at <top-level>, line 1, column 16:\n    1 | fx(2), $a, flor\n                   ^^^^\ndid you mean floor/0?\njview: 3 compile errors\n'),
        c("an undefined function's arguments are not looked at", ['-n', 'foo($a)'], '', stdout='', exit=3,
          stderr='jview: error: foo/1 is not defined at <top-level>, line 1, column 1:\n    foo($a)\n    ^^^\njview: 1 compile error\n'),
        c('module names with two equal consecutive components', ['-n', 'import "a/a" as a; .'], '', stdout='', exit=3,
          stderr='jview: error: module names must not have equal consecutive components: a/a\n\njview: 1 compile error\n'),
        c('include: module names with two equal consecutive components', ['-n', 'include "a/b/b"; .'], '', stdout='', exit=3,
          stderr='jview: error: module names must not have equal consecutive components: a/b/b\n\njview: 1 compile error\n'),
        c("modulemeta looks only in the library paths, not in the current directory (jq 1.8)",
          ["-n", "-c", '"m" | modulemeta'], "", files={"m.jq": 'def f: 1;'}, stdout="", exit=5,
          stderr="jview: error (at <unknown>): module not found: m\n"),
        c("modulemeta with -L", ["-L", ".", "-n", "-c", '"m" | modulemeta'], "", files={"m.jq": 'def f: 1;'},
          stdout='{"deps":[],"defs":["f/0"]}\n'),
        c("modules are searched in the current directory first (jq 1.8)", ["-n", 'import "mods/sub/helper" as h; h::h'], "",
          files={"mods/sub/helper.jq": 'def h: "helper";'}, stdout='"helper"\n'),
        c("a module -f imports is searched in the current directory, not beside the program",
          ["-n", "-f", "prog/p.jq"], "", files={"prog/p.jq": 'include "util"; u', "prog/util.jq": 'def u: 1;'},
          stdout="", exit=3, stderr_re="module not found: util"),
        c("a package's jq/main.jq", ["-n", 'import "pk" as p; p::m'], "", files={"pk/jq/main.jq": 'def m: "main";'},
          stdout='"main"\n'),
        c("get_prog_origin: the -f file's directory", ["-n", "-f", "prog/o.jq"], "", files={"prog/o.jq": "get_prog_origin"},
          stdout_re=r'^"/.+/prog"\n$'),
        c("get_prog_origin: the current directory; get_jq_origin: the executable's", ["-n", "-c",
          "[get_prog_origin, get_jq_origin] | map(type == \"string\" and startswith(\"/\"))"], "", stdout="[true,true]\n"),
        c("-n -R -s: input is the whole text", ["-n", "-R", "-s", "-c", "input, try input catch ."], "1 2\n[3]",
          stdout='"1 2\\n[3]"\n"break"\n'),
    ]
    out += compressed_cases.cases(shared)  # gzip, zstd, xz, bzip2 (tests/cli/compressed_cases.py)
    return out
