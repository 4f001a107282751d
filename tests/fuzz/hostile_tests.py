#!/usr/bin/env python3
"""Hostile and broken input, and system faults, against the jview executable: each case asserts the exact exit
status, the stdout bytes (values before an error are still written) and a stderr pattern, and that jview neither
crashes (no signal, no sanitizer report, no uncaught exception) nor hangs (every run has a timeout).

A case marked `known=` documents a bug that is not fixed yet: when it fails it is counted as a known failure
(listed, but the suite still passes); when it passes it is reported as fixed, so the mark can be removed.

Usage: hostile_tests.py --jview PATH [--shared DIR] [--only REGEX] [--slow]
  --slow adds the real (not sparse) 4.2 GiB file (about 35 s and 4.2 GB of disk).
Prints `hostile: N passed, N failed` (and the known failures) at the end; exit 1 when any unmarked case failed."""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 20  # seconds for any one run: a correct jview needs well under one for every case here


class Result:
    def __init__(self, rc, out, err, timed_out=False, seconds=0.0):
        self.rc, self.out, self.err, self.timed_out, self.seconds = rc, out, err, timed_out, seconds


def run(cmd, stdin=b"", timeout=TIMEOUT, preexec=None, cwd=None, stdin_file=None, stdout_file=None):
    """Runs cmd; stdin bytes (or an open file), stdout captured (or sent to stdout_file). Never raises on timeout."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=stdin_file if stdin_file is not None else subprocess.PIPE,
                             stdout=stdout_file if stdout_file is not None else subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=preexec, cwd=cwd)
    except OSError as e:
        return Result(-999, b"", str(e).encode())
    try:
        out, err = p.communicate(None if stdin_file is not None else stdin, timeout=timeout)
        return Result(p.returncode, out or b"", err, seconds=time.monotonic() - t0)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return Result(p.returncode, out or b"", err, timed_out=True, seconds=time.monotonic() - t0)


def excerpt(b, n=300):
    return repr(b[:n]) + ("..." if len(b) > n else "")


class Suite:
    def __init__(self, jview, shared, tmp, only):
        self.jview = jview
        self.shared = shared
        self.tmp = tmp
        self.only = re.compile(only) if only else None
        self.passed = 0
        self.failed = []
        self.known = []   # (name, note, detail)
        self.fixed = []   # known bugs that passed
        self.verbose = False

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, data):
        """Writes a file in the temporary directory (every run's working directory); returns its relative name,
        which is what jview prints in messages."""
        with open(self.path(name), "wb") as f:
            f.write(data)
        return name

    def wanted(self, name):
        return self.only is None or self.only.search(name)

    def problems(self, r, exit=0, stdout=None, stdout_re=None, stderr=None, stderr_re=None, max_seconds=None):
        """The differences between a run and its expectations (empty when it behaved)."""
        p = []
        if r.timed_out:
            p.append(f"did not finish within the timeout ({r.seconds:.1f} s)")
        elif r.rc < 0:
            p.append(f"killed by signal {-r.rc} ({signal.Signals(-r.rc).name})")
        elif r.rc not in (exit if isinstance(exit, tuple) else (exit,)):
            p.append(f"exit {r.rc} != {exit}")
        for marker in (b"AddressSanitizer", b"runtime error:", b"terminate called", b"Segmentation fault"):
            if marker in r.err:
                p.append(f"stderr has {marker.decode()!r}")
        if stdout is not None and r.out != stdout:
            p.append(f"stdout {excerpt(r.out)} != {excerpt(stdout)}")
        if stdout_re is not None and not re.search(stdout_re, r.out):
            p.append(f"stdout {excerpt(r.out)} !~ {stdout_re!r}")
        if stderr is not None and r.err != stderr:
            p.append(f"stderr {excerpt(r.err)} != {excerpt(stderr)}")
        if stderr_re is not None and not re.search(stderr_re, r.err):
            p.append(f"stderr {excerpt(r.err)} !~ {stderr_re!r}")
        if max_seconds is not None and r.seconds > max_seconds and not r.timed_out:
            p.append(f"took {r.seconds:.1f} s (more than {max_seconds} s)")
        return p

    def record(self, name, problems, known=None):
        if not self.wanted(name):
            return
        if self.verbose:
            print(f"{'ok' if not problems else 'KNOWN' if known else 'FAIL'}: {name}")
        if not problems:
            if known:
                self.fixed.append(name)
            self.passed += 1
        elif known:
            self.known.append((name, known, "; ".join(problems)))
        else:
            self.failed.append((name, "; ".join(problems)))

    def case(self, name, cmd, known=None, stdin=b"", timeout=TIMEOUT, preexec=None, stdin_file=None, **expect):
        if not self.wanted(name):
            return None
        r = run(cmd, stdin, timeout=timeout, preexec=preexec, cwd=self.tmp, stdin_file=stdin_file)
        self.record(name, self.problems(r, **expect), known)
        if self.verbose and r.seconds > 1:
            print(f"hostile: {r.seconds:.1f} s: {name}")
        return r

    def jv(self, *args):
        return [self.jview] + list(args)


# ---------------------------------------------------------------------------------------------------------------
# Helpers for the position-by-position cases.

def top_level_ends(text):
    """Byte offsets one past each top-level value of a JSON text (values are containers or strings)."""
    dec = json.JSONDecoder()
    s = text.decode("utf-8")
    ends, i = [], 0
    while True:
        while i < len(s) and s[i] in " \t\r\n":
            i += 1
        if i == len(s):
            return ends
        _, i = dec.raw_decode(s, i)
        ends.append(len(s[:i].encode("utf-8")))


def line_col(data, k):
    """jview's location of byte k: 1-based line, 1-based column in characters."""
    before = data[:k]
    line = before.count(b"\n") + 1
    last = before[before.rfind(b"\n") + 1:]
    col = sum(1 for b in last if (b & 0xC0) != 0x80) + 1
    return line, col


def string_spans(data):
    """(start, end) byte ranges of string contents (between the quotes) in a valid JSON text."""
    spans, i, n = [], 0, len(data)
    while i < n:
        if data[i] == 0x22:
            j = i + 1
            while data[j] != 0x22:
                j += 2 if data[j] == 0x5C else 1
            spans.append((i + 1, j))
            i = j + 1
        else:
            i += 1
    return spans


def char_boundaries_outside_escapes(data, start, end):
    """Positions in [start, end] that start a character and are not inside an escape sequence."""
    out, i = [], start
    while i <= end:
        out.append(i)
        if i == end:
            break
        if data[i] == 0x5C:
            i += 6 if data[i + 1] == ord("u") else 2
        elif data[i] >= 0xC0:
            i += 2 if data[i] < 0xE0 else 3 if data[i] < 0xF0 else 4
        else:
            i += 1
    return out


UTF8_DOC = ('{"name": "caf\\u00e9 ok", "text": "h\u00e9llo w\u00f6rld \u20acuro \U0001F600 end",\n'
            ' "list": ["ascii", "\u65e5\u672c\u8a9e\u30c6\u30ad\u30b9\u30c8", 12.5e3, {"k": "\u03c9"}]}\n'
            '["second value", "\u03c9mega"]\n"third \u00fc"\n').encode("utf-8")

TRUNC_DOCS = [
    ('{"a":[1,-2.5e+3,true,false,null,{"b":"x\\"y\\\\z\\u00e9\\ud83d\\ude00"}],"c":{}}\n'
     '[[],[{}],"",0]\n{"deep":[[[[{"k":[-0.0, 1E400, 100000000000000000001]}]]]]}').encode(),
    UTF8_DOC,
]

# Invalid UTF-8 sequences: stray continuation, overlong, surrogate, above U+10FFFF, bad lead bytes, truncated.
BAD_UTF8 = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
            b"\xf5\x80\x80\x80", b"\xf8", b"\xfe", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98"]

LENIENT_HINT = rb"( \(--lenient reads it as jq does\))?"
TRUNC_MESSAGES = (rb"(unexpected end of input|unterminated string|invalid literal|invalid number|[-+.0-9]+ is not JSON|"
                  rb"invalid \\u escape in string|lone surrogate in \\u escape|invalid UTF-8)")


def parallel(jobs, fn):
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        return list(ex.map(fn, jobs))


# ---------------------------------------------------------------------------------------------------------------

def empty_and_whitespace(s):
    for name, data in (("empty file", b""), ("whitespace only", b" \n\t\r\n  "), ("lone BOM (jq 1.8: no output)",
                       b"\xef\xbb\xbf"), ("BOM then whitespace", b"\xef\xbb\xbf \n")):
        f = s.write("in.json", data)
        s.case(f"{name}: file", s.jv(".", f), stdout=b"", stderr=b"", exit=0)
        s.case(f"{name}: stdin", s.jv("."), stdin=data, stdout=b"", stderr=b"", exit=0)
    s.case("BOM then a value", s.jv("-c", "."), stdin=b"\xef\xbb\xbf[1]", stdout=b"[1]\n", exit=0)
    s.case("a BOM after the first value is an error", s.jv("-c", "."), stdin=b"[1]\xef\xbb\xbf[2]",
           stdout=b"[1]\n", exit=5, stderr_re=rb"^jview: error: <stdin>:1:4: unexpected character\n")
    s.case("-e on empty input: no output, exit 4", s.jv("-e", "."), stdin=b"", stdout=b"", exit=4)


def nul_bytes(s):
    cases = [
        ("NUL alone", b"\x00", b"", b"1:1: unexpected character"),
        ("NUL after a value", b"1 \x00", b"1\n", b"1:3: unexpected character"),
        ("NUL in an array", b"[1,\x00]", b"", b"1:4: unexpected character"),
        ("NUL in a string", b'"a\x00b"', b"", b"1:3: unescaped control character in string"),
        ("NUL in a key", b'{"a\x00":1}', b"", b"1:4: unescaped control character in string"),
        ("NULs after a newline", b'{"a":1}\n\x00\x00\x00', b'{"a":1}\n', b"2:1: unexpected character"),
    ]
    for name, data, out, msg in cases:
        f = s.write("nul.json", data)
        s.case(f"{name}: file", s.jv("-c", ".", f), stdout=out, exit=5,
               stderr_re=b"^jview: error: " + re.escape(f.encode()) + b":" + re.escape(msg) + b"\n")
        s.case(f"{name}: stdin", s.jv("-c", "."), stdin=data, stdout=out, exit=5,
               stderr_re=b"^jview: error: <stdin>:" + re.escape(msg) + b"\n")
    s.case("-R keeps NUL bytes of raw lines", s.jv("-R", "."), stdin=b"a\x00b\n", stdout=b'"a\\u0000b"\n')


def invalid_utf8_everywhere(s):
    """A bad sequence inserted at every character boundary of UTF8_DOC: inside strings it is "invalid UTF-8", outside
    some syntax error, always at that byte's line and column, with the complete values before it written."""
    if not s.wanted("invalid UTF-8 at every position"):
        return
    full = run(s.jv("-c", "."), UTF8_DOC)
    if full.rc != 0:
        s.record("invalid UTF-8 at every position: the clean document", [f"exit {full.rc}: {full.err[:300]!r}"])
        return
    lines = full.out.splitlines(keepends=True)
    ends = top_level_ends(UTF8_DOC)
    inside = set()
    for a, b in string_spans(UTF8_DOC):
        inside.update(char_boundaries_outside_escapes(UTF8_DOC, a, b))
    positions = sorted(set(char_boundaries_outside_escapes(UTF8_DOC, 0, len(UTF8_DOC))))
    rnd = random.Random(8)
    jobs = []
    for k in positions:
        bad = BAD_UTF8[k % len(BAD_UTF8)]
        for via in ("file", "stdin"):
            jobs.append((k, bad, via))
    # And every bad sequence at a few fixed places.
    for bad in BAD_UTF8:
        for k in rnd.sample(sorted(inside), 3):
            jobs.append((k, bad, "file"))

    def one(job):
        k, bad, via = job
        data = UTF8_DOC[:k] + bad + UTF8_DOC[k:]
        before = b"".join(lines[:sum(1 for e in ends if e <= k)])
        line, col = line_col(data, k)
        if via == "file":
            name = f"u{k}_{bad.hex()}.json"
            f = s.write(name, data)
            r = run(s.jv("-c", ".", f), cwd=s.tmp)
            where = name.encode()
        else:
            r = run(s.jv("-c", "."), data)
            where = b"<stdin>"
        # (the strict reader names --lenient, which reads such input as jq does)
        msg = (rb"invalid UTF-8" if k in inside else rb"[a-z',:{}\[\] ]+") + LENIENT_HINT
        pat = b"^jview: error: " + re.escape(where) + f":{line}:{col}: ".encode() + msg + b"\n"
        return (k, bad, via), s.problems(r, exit=5, stdout=before, stderr_re=pat)

    bad_runs = [(j, p) for j, p in parallel(jobs, one) if p]
    s.record(f"invalid UTF-8 at every position ({len(jobs)} runs)",
             [f"{len(bad_runs)} runs failed; first: insert {bad_runs[0][0][1].hex()} at byte {bad_runs[0][0][0]} "
              f"({bad_runs[0][0][2]}): {'; '.join(bad_runs[0][1])}"] if bad_runs else [])
    # Replacement mode (jq's default behaviour) turns the same inputs into values.
    s.case("invalid UTF-8 with --replace-invalid-utf8 becomes U+FFFD", s.jv("-c", "--replace-invalid-utf8", "."),
           stdin=b'{"a":"x\xffy\xc0\x80"} ["\xed\xa0\x80"]',
           stdout='{"a":"x\ufffdy\ufffd\ufffd"}\n["\ufffd"]\n'.encode())


def truncation_everywhere(s):
    """Every prefix of a few documents: the complete values are written; then either the prefix ends cleanly
    (exit 0) or a truncation error (exit 5); never a crash or a hang. Mapped files and stdin both."""
    if not s.wanted("truncation at every byte"):
        return
    docs = list(TRUNC_DOCS)
    demo = os.path.join(s.shared, "corpus", "small", "demo.json")
    if not os.path.isfile(demo):  # a clone without ../shared: the repository's own sample
        print(f"SKIPPED: truncation of ../shared's corpus/small/demo.json: {demo} missing (corpus/samples/demo.json "
              "instead)")
        demo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "corpus", "samples", "demo.json")
    with open(demo, "rb") as f:
        docs.append(f.read())
    for d, doc in enumerate(docs):
        full = run(s.jv("-c", "."), doc)
        if full.rc != 0:
            s.record(f"truncation at every byte: document {d} is clean", [f"exit {full.rc}: {full.err[:300]!r}"])
            continue
        lines = full.out.splitlines(keepends=True)
        ends = top_level_ends(doc)

        def one(job):
            k, via = job
            prefix = doc[:k]
            m = sum(1 for e in ends if e <= k)
            rest = prefix[ends[m - 1] if m else 0:]
            clean = rest.strip(b" \t\r\n") == b""
            if via == "file":
                name = f"t{d}_{k}.json"
                f = s.write(name, prefix)
                r = run(s.jv("-c", ".", f), cwd=s.tmp)
                where = name.encode()
            else:
                r = run(s.jv("-c", "."), prefix)
                where = b"<stdin>"
            if clean:
                return job, s.problems(r, exit=0, stdout=b"".join(lines[:m]), stderr=b"")
            pat = b"^jview: error: " + re.escape(where) + rb":\d+:\d+: " + TRUNC_MESSAGES + LENIENT_HINT + b"\n"
            return job, s.problems(r, exit=5, stdout=b"".join(lines[:m]), stderr_re=pat)

        # Every cut as a mapped file; the two small documents also through a pipe.
        jobs = [(k, via) for k in range(len(doc) + 1) for via in (("file", "stdin") if d < 2 else ("file",))]
        bad = [(j, p) for j, p in parallel(jobs, one) if p]
        s.record(f"truncation at every byte of document {d} ({len(doc)} bytes, {len(jobs)} runs)",
                 [f"{len(bad)} runs failed; first: cut at {bad[0][0][0]} ({bad[0][0][1]}): {'; '.join(bad[0][1])}"]
                 if bad else [])


def deep_nesting(s):
    n = 10 ** 6
    deep = s.write("deep.json", b"[" * n + b"]" * n)
    s.case("10^6 nested arrays: depth error at column 10001", s.jv("-c", ".", deep), stdout=b"", exit=5,
           stderr_re=rb"^jview: error: deep\.json:1:10001: exceeds maximum nesting depth\n", max_seconds=5)
    s.case("10^6 nested arrays on stdin", s.jv("-c", "."), stdin=b"[" * n + b"]" * n, stdout=b"", exit=5,
           stderr_re=rb"^jview: error: <stdin>:1:10001: exceeds maximum nesting depth\n", max_seconds=5)
    s.case("10^6 unclosed arrays", s.jv("-c", "."), stdin=b"[" * n, stdout=b"", exit=5,
           stderr_re=rb"^jview: error: <stdin>:1:10001: exceeds maximum nesting depth\n")
    deepo = s.write("deepo.json", b'{"a":' * n + b"1" + b"}" * n)
    s.case("10^6 nested objects: depth error", s.jv("-c", ".", deepo), stdout=b"", exit=5,
           stderr_re=rb"^jview: error: deepo\.json:1:50001: exceeds maximum nesting depth\n")
    s.case("depth 10000 is accepted (jq's limit)", s.jv("-c", "."), stdin=b"[" * 10000 + b"]" * 10000,
           stdout=b"[" * 10000 + b"]" * 10000 + b"\n")
    s.case("10^6 nested arrays with --max-depth 2000000: written back", s.jv("--max-depth", "2000000", "-c", ".", deep),
           stdout=b"[" * n + b"]" * n + b"\n", max_seconds=5)
    s.case("10^6 nested arrays with --max-depth: a path into it", s.jv("--max-depth", "2000000", "-c",
           ".[0][0][0]|length", deep), stdout=b"1\n")
    s.case("10^6 nested arrays with --max-depth: walk (native, issue 25.12)", s.jv("--max-depth", "2000000", "-c",
           "walk(.)|length", deep), stdout=b"1\n", stderr=b"")
    rec_w = "def w: if type == \"array\" then map(w) else . end; w | length"
    s.case("ulimit -v 1000 MB: 10^6 nested arrays with --max-depth: a jq-defined recursion fails cleanly", s.jv(
           "--max-depth", "2000000", "-c", rec_w, deep), preexec=limit_memory(1000),
           stdout=b"", exit=5, stderr_re=rb"Maximum recursion depth exceeded")
    half = s.write("deep4e5.json", b"[" * 400000 + b"]" * 400000)
    s.case("4 * 10^5 nested arrays: a jq-defined recursion over them (issue 25.12)",
           s.jv("--max-depth", "2000000", "-c", rec_w, half), stdout=b"1\n", stderr=b"", timeout=60)
    s.case("10^6 nested arrays with --max-depth: tojson", s.jv("--max-depth", "2000000", "tojson|length", deep),
           exit=0, stdout_re=rb"^\d+\n$")
    s.case("a constructed value 10^5 deep is written",
           s.jv("-nc", "reduce range(100000) as $i (null; [.])"), stdin=b"",
           stdout=b"[" * 100000 + b"null" + b"]" * 100000 + b"\n")
    s.case("a constructed value 10^6 deep is freed",
           s.jv("-nc", "reduce range(1000000) as $i (null; [.]) | length"), stdin=b"", stdout=b"1\n")
    # An error's value leaves the evaluation (and its large stack) and is freed on the main thread's 8 MB.
    s.case("a constructed value 10^6 deep as an error's value",
           s.jv("-nc", "reduce range(1000000) as $i (null; {a: [.]}) | error"), stdin=b"", exit=5, stdout=b"",
           stderr_re=rb'^jview: error \(at <unknown>\) \(not a string\): \{"a":\[\{"a":\[\{')
    # The same in a --threads worker, between other inputs' outputs (jq 1.8's exit status: the last input's, 0).
    lines = s.write("ten.ndjson", b"".join(b'{"i":%d}\n' % i for i in range(10)))
    s.case("a constructed value 10^6 deep as an error's value in a --threads worker",
           s.jv("--threads", "2", "-c", "if .i == 5 then (reduce range(1000000) as $x (null; [.]) | error) else .i end",
                lines), exit=0, stdout=b"0\n1\n2\n3\n4\n6\n7\n8\n9\n",
           stderr_re=rb'^jview: error \(at ten.ndjson:6\) \(not a string\): \[\[\[')


def big_values(s):
    n = 100 * 1000 * 1000
    big = s.write("str100m.json", b'"' + b"x" * n + b'"')
    s.case("100 MB string: length", s.jv("length", big), stdout=b"100000000\n", max_seconds=10)
    r = run(s.jv(".", big), timeout=60, cwd=s.tmp)
    s.record("100 MB string: written back", s.problems(r, stdout=None) +
             ([] if r.out == b'"' + b"x" * n + b'"\n' else [f"output of {len(r.out)} bytes differs"]))
    with open(s.path(big), "rb") as f:
        s.case("100 MB string on stdin", s.jv("length"), stdin_file=f, stdout=b"100000000\n", max_seconds=10)
    keys = b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(10 ** 6)) + b"}"
    kf = s.write("keys1m.json", keys)
    s.case("object with 10^6 keys: length", s.jv("length", kf), stdout=b"1000000\n", max_seconds=10)
    s.case("object with 10^6 keys: written back", s.jv("-c", ".", kf), stdout=keys + b"\n", max_seconds=10)
    s.case("object with 10^6 keys: last key", s.jv(".k999999", kf), stdout=b"999999\n", max_seconds=10)
    s.case("object with 10^6 keys: keys|length", s.jv("keys|length", kf), stdout=b"1000000\n", max_seconds=20)
    digits = b"1" * 100000
    frac = b"-0." + b"5" * 100000
    expo = b"1e" + b"9" * 100000
    nf = s.write("digits.json", digits + b" " + frac + b" " + expo + b" [" + digits + b"]")
    s.case("numbers with 10^5 digits are kept as written", s.jv("-c", ".", nf),
           stdout=digits + b"\n" + frac + b"\n" + expo + b"\n[" + digits + b"]\n")
    s.case("numbers with 10^5 digits on stdin", s.jv("-c", "."), stdin=digits + b" " + frac,
           stdout=digits + b"\n" + frac + b"\n")
    s.case("arithmetic on 10^5-digit numbers: jq's clamped double", s.jv("-c", ". + 0", nf),
           stdout=b"1.7976931348623157e+308\n-0.5555555555555556\n1.7976931348623157e+308\n", exit=5,
           stderr_re=rb"cannot be added")
    s.case("10^5 zeros after the point", s.jv("-c", "."), stdin=b"0." + b"0" * 100000 + b"1",
           stdout=b"0." + b"0" * 100000 + b"1\n")


def duplicate_keys(s):
    # jq keeps one member per key: the last value, at the first key's position. The parser flags such objects
    # (core/parser.cpp, core/object_keys.cpp); every reader of the view honours the flag.
    dup = b'{"a":1,"b":2,"a":3}'
    s.case("duplicate keys: .a is the last value", s.jv(".a"), stdin=dup, stdout=b"3\n")
    s.case("duplicate keys: keys", s.jv("-c", "keys"), stdin=dup, stdout=b'["a","b"]\n')
    s.case("duplicate keys: . + {} (constructed)", s.jv("-c", ". + {}"), stdin=dup, stdout=b'{"a":3,"b":2}\n')
    s.case("duplicate keys: . (identity)", s.jv("-c", "."), stdin=dup, stdout=b'{"a":3,"b":2}\n')
    s.case("duplicate keys: pretty", s.jv("."), stdin=dup, stdout=b'{\n  "a": 3,\n  "b": 2\n}\n')
    s.case("duplicate keys: sorted", s.jv("-S", "-c", "."), stdin=dup, stdout=b'{"a":3,"b":2}\n')
    s.case("duplicate keys: length", s.jv("length"), stdin=dup, stdout=b"2\n")
    s.case("duplicate keys: values", s.jv("-c", ". | [.[]]"), stdin=dup, stdout=b"[3,2]\n")
    s.case("duplicate keys: to_entries", s.jv("-c", "to_entries"), stdin=dup,
           stdout=b'[{"key":"a","value":3},{"key":"b","value":2}]\n')
    s.case("duplicate keys: tojson", s.jv("-c", "tojson"), stdin=dup, stdout=b'"{\\"a\\":3,\\"b\\":2}"\n')
    s.case("duplicate keys: equality", s.jv("-c", '. == {"a":3,"b":2}'), stdin=dup, stdout=b"true\n")
    s.case("duplicate keys: nested, in an array", s.jv("-c", "."), stdin=b'[{"x":{"k":1,"k":[2]}}]',
           stdout=b'[{"x":{"k":[2]}}]\n')
    s.case("duplicate keys: escaped spelling of the same key", s.jv("-c", "."), stdin=b'{"\\u0061":1,"a":2}',
           stdout=b'{"a":2}\n')
    s.case("duplicate keys: deeper than the parser's key table", s.jv("-c", "."),
           stdin=b"[" * 40 + b'{"k":1,"j":0,"k":2}' + b"]" * 40, stdout=b"[" * 40 + b'{"k":2,"j":0}' + b"]" * 40 + b"\n")
    # 10^6 distinct keys, then the same 10^6 keys again with new values: one pass, no quadratic work.
    n = 1000000
    body = b",".join(b'"k%d":%d' % (i, i) for i in range(n))
    again = b",".join(b'"k%d":%d' % (i, -i) for i in range(n))
    big = s.write("dupkeys.json", b"{" + body + b"," + again + b"}")
    s.case("10^6 keys, each twice: last values win", s.jv("-c", "[length, .k0, .k999999, ([.[]] | add)]", big),
           stdout=b"[1000000,0,-999999,-499999500000]\n", timeout=60)
    distinct = s.write("manykeys.json", b"{" + body + b"}")
    s.case("10^6 distinct keys: length, identity", s.jv("-c", "length", distinct), stdout=b"1000000\n", timeout=60)


# ---------------------------------------------------------------------------------------------------------------
# Issue 25: lookups in big parsed objects, hash flooding of the key tables.

# 17 pairs of 9-character blocks; in each pair both blocks take 64-bit FNV-1a (the key hash before issue 25) from
# the same state to states equal in their low 50 bits: any choice of one block per pair, in order, gives a key whose
# slot in a table of up to 2^50 slots (h ^ h >> 32 or h ^ h >> 29, masked) is the same. Made by
# tests/fuzz/gen_fnv_collisions.cpp (see there).
FNV_PAIRS = [
    ('Thdq39Y8B', '7L1hPhwbC'),
    ('SqiaOs7MC', 'sO1BYpGkA'),
    ('WW-OnkbqC', 'p24HY--GC'),
    ('pNN_NXlDA', 'i0RXyu8aD'),
    ('TR_K6wAED', 'KOctQZV6C'),
    ('dhWrEEloA', 'M5kt8_CiC'),
    ('UWk7ME-OC', '99DcZA3mA'),
    ('6rOZGqp-A', 'Up68-bGJB'),
    ('Te1wj56cB', 'jRjc56DRA'),
    ('yqWo9V0KA', '0UJtHVy6C'),
    ('QSfH_858C', 'QbTvzHI_D'),
    ('jXWq9HZED', 'bW-JSqW_D'),
    ('FUHegSTQA', '6lBGzrW9C'),
    ('FY5V8exlC', 'xNI4iglqB'),
    ('hpm41MeaC', 'Rg1Z1djUB'),
    ('gzkt2UQQA', 'ZYPR-OKeC'),
    ('N6GnGaCSA', 'z7cLjYSCA'),
]


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def colliding_keys(n):
    """n keys (at most 2^17) of 153 characters that all share a slot of jview's old key tables."""
    return [b"".join(p[(i >> j) & 1].encode() for j, p in enumerate(FNV_PAIRS)) for i in range(n)]


def object_text(keys, extra=b""):
    return b"{" + b",".join(b'"%s":%d' % (k, i) for i, k in enumerate(keys)) + extra + b"}"


def key_lookups(s):
    # Lookups by key in a parsed object were a scan of its members: to_entries, with_entries and `$o[.]` over keys
    # were quadratic (10^6 keys: over 60 s; jq 1.8: 3.9 s). A big object gets a key index on its second lookup.
    # (Wall-clock bounds loose enough for a loaded machine: about 0.5 s of CPU each now.)
    n = 10 ** 6
    big = s.write("lookup1m.json", b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(n)) + b"}")
    s.case("to_entries on 10^6 keys", s.jv("-c", "to_entries | [length, .[0], .[-1]]", big), max_seconds=30, timeout=60,
           stdout=b'[1000000,{"key":"k0","value":0},{"key":"k999999","value":999999}]\n')
    s.case("with_entries on 10^6 keys", s.jv("-c", "with_entries(.value += 1) | [length, .k0, .k999999]", big),
           max_seconds=30, timeout=60, stdout=b"[1000000,1,1000000]\n")
    s.case("$o[.] over keys of 10^6 keys", s.jv(". as $o | [keys_unsorted[] | $o[.]] | add", big), max_seconds=30, timeout=60,
           stdout=b"499999500000\n")
    s.case("has over keys of 10^6 keys", s.jv(". as $o | [keys[] | select(. as $k | $o | has($k))] | length", big),
           max_seconds=30, timeout=60, stdout=b"1000000\n")
    s.case("absent keys of a 10^6-key object", s.jv(". as $o | [range(100000) | \"x\\(.)\" | $o[.]] | unique", big),
           max_seconds=30, timeout=60, stdout=b"[\n  null\n]\n")
    # The index decodes escaped keys, as a scan does (and a key that differs only by an escape is the same key).
    keys = [b"k%d" % i for i in range(40)] + [b"\\u00e9t\\u00e9", b"a\\nb", b"\\ud83d\\ude00", b""]
    esc = s.write("lookupesc.json", object_text(keys))
    prog = '. as $o | [$o["k39", "k0", "\u00e9t\u00e9", "a\\nb", "\U0001F600", "", "nope"]], [keys[] | $o[.]]'
    s.case("lookups in a big object with escaped keys", s.jv("-c", prog, esc),
           stdout=b"[39,0,40,41,42,43,null]\n[43,41,0,1,10,11,12,13,14,15,16,17,18,19,2,20,21,22,23,24,25,26,27,28,"
                  b"29,3,30,31,32,33,34,35,36,37,38,39,4,5,6,7,8,9,40,42]\n")
    # Each big object of one input has its own index (several at once, more than the box keeps).
    many = s.write("lookupmany.json", b"[" + b",".join(
        b"{" + b",".join(b'"k%d":%d' % (i, i + 1000 * j) for i in range(50)) + b"}" for j in range(20)) + b"]")
    s.case("lookups in 20 big objects, interleaved", s.jv("-c", '[range(50) as $i | .[] | .["k\\($i)"]] | add', many),
           stdout=b"%d\n" % sum(i + 1000 * j for i in range(50) for j in range(20)))


def hash_flooding(s):
    # Keys crafted against an unseeded hash made one table slot hold them all: 131,072 such keys made `length` take
    # 17.7 s (ordinary keys: 0.05 s). The key hash is seeded per process (core/key_index.hpp), a table whose probes
    # pass a bound falls back to sorting, and owned objects use the same seeded hash.
    keys = colliding_keys(1 << 17)
    slot = {(lambda h: (h ^ (h >> 32)) & ((1 << 18) - 1))(fnv1a64(k)) for k in keys[:64]}
    s.record("the flooding keys do collide under the old hash", [] if len(slot) == 1 else [f"{len(slot)} slots"])
    flood = s.write("flood.json", object_text(keys))
    rnd = random.Random(25)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    plain = s.write("plain.json", object_text([bytes(rnd.choice(alphabet) for _ in range(153))
                                                for _ in range(1 << 17)]))
    for prog, out in (("length", b"131072\n"), ("with_entries(.) | length", b"131072\n"),
                      (". + {} | length", b"131072\n"), (". as $o | [keys[] | $o[.]] | add", b"8589869056\n")):
        r0 = run(s.jv(prog, plain), cwd=s.tmp)
        r = s.case(f"131072 colliding keys: `{prog}`", s.jv(prog, flood), stdout=out, max_seconds=6)
        if r is not None and s.verbose:
            print(f"hostile: `{prog}`: colliding keys {r.seconds:.2f} s, ordinary keys {r0.seconds:.2f} s")
    # The same keys with one repeated: the object keeps one member per key (core/object_keys.cpp) through an owned
    # object (value.cpp), both over the seeded hash.
    dup = s.write("flooddup.json", object_text(keys, b',"%s":-1' % keys[0]))
    s.case("131072 colliding keys, one repeated", s.jv("-c", "[length, .[keys_unsorted[0]], (to_entries | .[0].value)]",
           dup), stdout=b"[131072,-1,-1]\n", max_seconds=6)


def deep_recursion(s):
    """jq programs that recurse 10^5-10^6 levels deep (issue 25.12), which jq 1.8 runs on its heap-allocated stack.
    jview's evaluation stack is reserved for about 1.7 million levels of a simple jq function and committed as it is
    used (core/filter/eval_run.cpp); builtins that recurse on a value's depth are iterative or fail as jq 1.8 does.
    Under `ulimit -v` the stack takes at most a quarter of the address space allowed (at least 256 MiB, else the
    thread's own stack): a recursion too deep for it fails cleanly."""
    n = 10 ** 6
    deep = "reduce range(%d) as $i (0; [.])" % n
    # The stack is at most half the machine's memory: 2 GiB from 4 GiB of memory on (up to 1.7 GB is used here).
    if os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") < 4 << 30:
        print("SKIPPED: hostile: 10^6 levels of recursion: less than 4 GiB of memory")
        n = 0
    for name, prog, out in () if n == 0 else (
            ("tail recursion", "def f: if . < %d then .+1|f else . end; 0|f" % n, b"1000000\n"),
            ("non-tail recursion", "def g: if . == 0 then 0 else (.-1|g)+1 end; %d|g" % n, b"1000000\n"),
            ("recurse(f) as a generator", "[0 | recurse(if . < %d then .+1 else empty end)] | length" % n,
             b"1000001\n"),
            ("recurse(f; cond)", "[0 | recurse(. + 1; . < %d)] | length" % n, b"1000000\n"),
            ("limit of repeat", "[limit(%d; repeat(1))] | length" % n, b"1000000\n"),
            ("range/3", "[range(0; %d; 1)] | length" % n, b"1000000\n"),
            ("while", "[while(. < %d; . + 1)] | length" % n, b"1000000\n"),
            ("until", "0 | until(. >= %d; . + 1)" % n, b"1000000\n"),
            ("[..] of a value 10^6 deep", deep + " | [..] | length", b"1000001\n"),
            ("flatten of a value 10^6 deep", deep + " | flatten | length", b"1\n"),
            ("== of values 10^6 deep", deep + " | . == .", b"true\n"),
            ("tojson of a value 10^6 deep (cut at 10000, as jq)", deep + " | tojson | length", b"20021\n")):
        s.case(f"10^6 levels: {name}", s.jv("-nc", prog), stdout=out, stderr=b"", timeout=60)
    # jq 1.8 fails on these too: a clean error.
    for name, prog, msg in () if n == 0 else (("sort", "[%s, %s] | sort" % (deep, deep), rb"Comparison too deep"),
                            ("getpath", deep + " | getpath([range(%d) | 0])" % n, rb"Path too deep"),
                            ("tostream", deep + " | [tostream] | length",
                             rb"Path too deep|Maximum recursion depth exceeded")):
        s.case(f"10^6 levels: {name} fails as in jq", s.jv("-nc", prog), stdout=b"", exit=5, stderr_re=msg,
               timeout=60)
    g = "def g: if . == 0 then 0 else (.-1|g)+1 end; %d|g"
    s.case("ulimit -v 1000 MB: 10^5 levels of recursion run", s.jv("-n", g % 10 ** 5), preexec=limit_memory(1000),
           stdout=b"100000\n", stderr=b"")
    s.case("ulimit -v 1000 MB: 10^6 levels of recursion: a clean error", s.jv("-n", g % 10 ** 6),
           preexec=limit_memory(1000), stdout=b"", exit=5, stderr_re=rb"Maximum recursion depth exceeded")
    s.case("ulimit -v 200 MB: 10^5 levels of recursion: a clean error", s.jv("-n", g % 10 ** 5),
           preexec=limit_memory(200), stdout=b"", exit=5, stderr_re=rb"Maximum recursion depth exceeded")


def linear_memory_builtins(s):
    # split/2 and splits cut their offsets with a recursive _nwise that copied the rest at every level (50,000
    # matches: out of memory after 3.6 GB; jq 1.8: 50 MB). Under a 500 MB cap of address space.
    for prog, out in (('"a" * 50000 | [splits("a")] | length', b"50001\n"),
                      ('"a" * 50000 | split("a"; null) | length', b"50001\n"),
                      ('"ab" * 50000 | [splits("b"; "g")] | map(length) | add', b"50000\n"),
                      ('"x," * 100000 | split(","; null) | length', b"100001\n")):
        s.case(f"ulimit -v 500 MB: `{prog}`", s.jv("-n", prog), preexec=limit_memory(500), stdout=out, max_seconds=10)


def jq_replace_invalid_utf8(data):
    """jq 1.8's decoder (jvp_utf8_next) on bytes: the code points it gives, U+FFFD for each invalid sequence."""
    out, i, n = [], 0, len(data)
    while i < n:
        c = data[i]
        if c < 0x80:
            out.append(c)
            i += 1
            continue
        size = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 1
        if size == 1:
            out.append(0xFFFD)
            i += 1
            continue
        if i + size > n:
            out.append(0xFFFD)
            break
        k = next((j for j in range(1, size) if data[i + j] & 0xC0 != 0x80), size)
        if k < size:
            out.append(0xFFFD)
            i += k
            continue
        cp = c & (0x1F if size == 2 else 0x0F if size == 3 else 0x07)
        for j in range(1, size):
            cp = cp << 6 | data[i + j] & 0x3F
        ok = cp >= (0x80, 0x800, 0x10000)[size - 2] and not 0xD800 <= cp <= 0xDFFF and cp <= 0x10FFFF
        out.append(cp if ok else 0xFFFD)
        i += size
    return out


def base64d_replacement(s):
    # @base64d replaced a run of bad bytes by one U+FFFD; jq's decoder makes one per sequence it rejects (C0 80: two,
    # ED A0 80: one). One replacer (core/utf8.hpp) for @base64d, --replace-invalid-utf8 and explode.
    import base64
    for raw in (b"\xc0\x80", b"\xc0\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82x", b"\xe2x", b"\xf8\x80", b"\xf4\x90\x80\x80",
                b"a\xffb\xfe", b"\xf0\x9f\x98\x80\x80"):
        b64 = base64.b64encode(raw).decode()
        s.case(f"@base64d of {raw!r}: jq's replacement", s.jv("-nc", f'"{b64}" | @base64d | explode'),
               stdout=json.dumps(jq_replace_invalid_utf8(raw), separators=(",", ":")).encode() + b"\n")
    data = random.Random(11).randbytes(1 << 20)
    f = s.write("random1m.b64", json.dumps(base64.b64encode(data).decode()).encode())
    s.case("@base64d of 1 MB of random bytes: jq's code points", s.jv("-c", "@base64d | explode | [length, add]", f),
           stdout=b"[%d,%d]\n" % (len(jq_replace_invalid_utf8(data)), sum(jq_replace_invalid_utf8(data))),
           max_seconds=10)


def module_names(s):
    # A module's name may not leave its search directories: `import "../secret" as $s;` with -L lib read
    # lib/../secret.json. jq 1.8's rules and messages (its validate_relpath), for data and code modules.
    os.makedirs(s.path("mods/lib/d"), exist_ok=True)
    s.write("mods/secret.json", b'{"x":1}')
    s.write("mods/secret.jq", b"def f: 1;")
    s.write("mods/lib/ok.jq", b"def g: 2;")
    s.write("mods/lib/d/d.jq", b"def h: 3;")
    def err(msg):
        return b"jview: error: " + msg + b"\n\njview: 1 compile error\n"
    trav = b"Relative paths to modules may not traverse to parent directories (%s)"
    for name, msg in (("../secret", trav % b"../secret"), ("lib/../../secret", trav % b"lib/../../secret"),
                      ("./../secret", trav % b"./../secret"), ("..", trav % b".."), ("x/..", trav % b"x/.."),
                      ("d/d", b"module names must not have equal consecutive components: d/d"),
                      ("a\\\\b", b"Modules must be named by relative paths using '/', not '\\' (a\\b)")):
        for form in (f'import "{name}" as $s; $s', f'import "{name}" as s; s::f', f'include "{name}"; f'):
            s.case(f"module name `{form}` -L mods/lib: jq's error", s.jv("-L", "mods/lib", "-nc", form), stdout=b"",
                   exit=3, stderr=err(msg))
    s.case("module names inside the search path still work", s.jv("-L", "mods/lib", "-nc",
           'import "ok" as o; import "./ok" as p; import "d" as d; [o::g, p::g, d::h]'), stdout=b"[2,2,3]\n")


def seq_input_resync(s):
    # --seq input (RFC 7464), as jq 1.8 reads it: text before the first RS is abandoned; after a bad text jq warns
    # "ignoring parse error" and goes on at the next RS; an RS inside a value truncates it; a number that ends the
    # input without whitespace may be truncated. Exit 0. (jview stopped at the first error, exit 5.)
    note = None
    w = b"jq: ignoring parse error: "
    for name, data, out, err in (
            ("a bad text between good ones", b"\x1e1\n\x1egarbage\n\x1e[2]\n\x1e3\n", b"\x1e1\n\x1e[2]\n\x1e3\n",
             w + b"Invalid numeric literal at line 3, column 0 (need RS to resync)\n"),
            ("values without RS", b"1 2\n", b"", w + b"Unfinished abandoned text at EOF at line 2, column 0\n"),
            ("a value truncated by RS", b'\x1e{"a":\x1e[3]\n', b"\x1e[3]\n", w + b"Truncated value at line 1, column 7\n"),
            ("a number at the end without whitespace", b"\x1e1", b"",
             w + b"Potentially truncated top-level numeric value at EOF at line 1, column 2\n"),
            ("empty input", b"", b"", w + b"Unfinished abandoned text at EOF at line 1, column 0\n"),
            ("jq reads on after the byte of an error", b'\x1e{"a":1,"b":[1,2,{"c":nul}]}\n\x1e"\\u00e9"\n',
             '\x1e"\u00e9"\n'.encode(), w + b"Invalid literal at line 1, column 26 (need RS to resync)\n" + w +
             b"Unmatched ']' at line 1, column 27 (need RS to resync)\n" + w +
             b"Unmatched '}' at line 1, column 28 (need RS to resync)\n"),
            ("a value cut by RS after whitespace is dropped quietly", b"\x1e[1,2\n\x1e[3]\n", b"\x1e[3]\n", b""),
            ("a number right before RS", b"\x1e1\x1e 2 \n", b"\x1e2\n",
             w + b"Potentially truncated top-level numeric value at line 1, column 3\n"),
            ("a number then a bracket", b"\x1e1[2]\n", b"\x1e1\n\x1e[2]\n", b""),
            ("a number then a closing brace", b"\x1e2}\n3\n", b"\x1e3\n",
             w + b"Unmatched '}' at line 1, column 3 (need RS to resync)\n")):
        s.case(f"--seq input: {name} (jq 1.8's output and warnings)", s.jv("-c", "--seq", "."), stdin=data,
               stdout=out, stderr=err.replace(b"jq:", b"jview:"), exit=0, known=note)


def files_that_are_not_files(s):
    d = "adir"
    os.makedirs(s.path(d), exist_ok=True)
    s.case("a directory", s.jv(".", d), stdout=b"", exit=2,
           stderr=f"jview: error: Could not open file {d}: Is a directory\n".encode())
    ok = s.write("ok.json", b"[1]")
    s.case("a directory between files: the others are read, exit 2", s.jv("-c", ".", ok, d, ok),
           stdout=b"[1]\n[1]\n", exit=2, stderr_re=rb"Is a directory")
    s.case("a missing file", s.jv(".", s.path("nope.json")), stdout=b"", exit=2,
           stderr_re=rb"^jview: error: Could not open file .*nope\.json: No such file or directory\n$")
    fifo = s.path("fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    if s.wanted("a FIFO"):
        p = subprocess.Popen(s.jv("-c", ".", fifo), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=s.tmp)
        with open(fifo, "wb") as w:
            w.write(b'{"a":1}\n')
            w.flush()
            time.sleep(0.05)
            w.write(b"[2]")
        try:
            out, err = p.communicate(timeout=TIMEOUT)
            s.record("a FIFO given as a file", s.problems(Result(p.returncode, out, err), stdout=b'{"a":1}\n[2]\n'))
        except subprocess.TimeoutExpired:
            p.kill()
            s.record("a FIFO given as a file", ["hangs"])
    s.case("/dev/null", s.jv(".", "/dev/null"), stdout=b"", exit=0)
    s.case("/dev/zero as a file fails fast (NUL bytes)", s.jv(".", "/dev/zero"), timeout=2, stdout=b"", exit=5,
           stderr_re=rb"^jview: error: /dev/zero:1:1: unexpected character\n")
    with open("/dev/zero", "rb") as z:
        s.case("/dev/zero on stdin fails fast", s.jv("."), stdin_file=z, timeout=2, stdout=b"", exit=5,
               stderr_re=rb"^jview: error: <stdin>:1:1: unexpected character\n")
    # Endless NUL bytes after the start of a value (was: read forever, the buffer doubling until std::bad_alloc).
    # A scalar ends at the first byte that cannot continue it; a container or string still open after 8 MiB is
    # parsed as far as it goes and its error reported (the reader re-checks each time the value has grown 4x).
    for start, where, msg in ((b"1", 2, rb"unexpected character"), (b"[", 2, rb"unexpected character"),
                              (b'{"a": [1, "x", ', 16, rb"unexpected character"),
                              (b'"', 2, rb"unescaped control character in string"),
                              (b"\n\n  tru", 3, rb"invalid literal")):
        line = start.count(b"\n") + 1
        col = where if line == 1 else len(start.split(b"\n")[-1]) - 2
        sh = "printf '%s'; cat /dev/zero" % "".join("\\%03o" % c for c in start)
        piped_case(s, f"{start!r} then /dev/zero on stdin fails fast", sh, ["-c", "."], timeout=10,
                   stdout=b"1\n" if start == b"1" else b"", exit=5,
                   stderr_re=rb"^jview: error: <stdin>:%d:%d: %s\n" % (line, col, msg), max_seconds=5)
    # Whitespace between values is not buffered: 200 MB of spaces in 64 MB of address space.
    piped_case(s, "200 MB of spaces on stdin in 64 MB of address space",
               "head -c 200000000 /dev/zero | tr '\\0' ' '", ["."], preexec=limit_memory(64), timeout=20,
               stdout=b"", stderr=b"", exit=0)
    s.case("a stream of garbage without separators fails fast", s.jv("."),
           stdin=b"\x01" * (8 << 20), timeout=10, stdout=b"", exit=5,
           stderr_re=rb"^jview: error: <stdin>:1:1: unexpected character\n", max_seconds=5)
    spaces = s.path("spaces100m.json")
    with open(spaces, "wb") as f:
        f.write(b"1" + b" " * (100 << 20) + b"2\n")
    s.case("a regular file of 100 MB of spaces between two values in 64 MB of address space",
           s.jv(".", "spaces100m.json"), preexec=limit_memory(64), timeout=20, stdout=b"1\n2\n", stderr=b"", exit=0)
    os.unlink(spaces)
    s.case("a regular file of 100 MB of NULs fails at once", s.jv(".", sparse_zeros(s, 100 << 20)), stdout=b"",
           exit=5, stderr_re=rb":1:1: unexpected character\n", max_seconds=2)


def piped_case(s, name, producer, args, timeout=TIMEOUT, preexec=None, **expect):
    """jview reading a pipe fed by a shell command (its own process group, killed afterwards: a timed-out
    jview is killed by run(), and the producer must not keep writing)."""
    if not s.wanted(name):
        return
    prod = subprocess.Popen(["sh", "-c", producer], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        r = run(s.jv(*args), timeout=timeout, preexec=preexec, cwd=s.tmp, stdin_file=prod.stdout)
    finally:
        prod.stdout.close()
        try:
            os.killpg(prod.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        prod.wait()
    s.record(name, s.problems(r, **expect))


def sparse_zeros(s, size):
    with open(s.path("zeros.bin"), "wb") as f:
        f.truncate(size)
    return "zeros.bin"


def unreadable(s):
    secret = s.write("secret.json", b"[1]")
    os.chmod(s.path(secret), 0)
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else []
        if nobody and s.wanted("unreadable file"):
            os.chmod(s.tmp, 0o755)  # the temporary directory must be searchable by nobody
        if nobody and s.wanted("unreadable file") and run(nobody + [s.jview, "--version"]).rc != 0:
            print("hostile: SKIP unreadable file: nobody cannot run jview here (a directory on its path is private)")
        elif nobody and s.wanted("unreadable file"):
            # Root reads anything: run jview as nobody instead.
            s.case("unreadable file (as nobody)", [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                   s.jview, ".", secret], stdout=b"", exit=2,
                   stderr=f"jview: error: Could not open file {secret}: Permission denied\n".encode())
        elif s.wanted("unreadable file"):
            print("hostile: SKIP unreadable file: running as root and setpriv is missing")
    else:
        s.case("unreadable file", s.jv(".", secret), stdout=b"", exit=2,
               stderr=f"jview: error: Could not open file {secret}: Permission denied\n".encode())
    # A read that fails after a successful open: /proc/self/mem reads EIO at address 0.
    s.case("a read error (EIO) after open", s.jv(".", "/proc/self/mem"), stdout=b"", exit=2,
           stderr_re=rb"^jview: error: /proc/self/mem: Input/output error\n$")
    s.case("--rawfile of a directory", s.jv("-n", "$x", "--rawfile", "x", "."), stdout=b"", exit=2,
           stderr_re=rb"Is a directory")
    s.case("--slurpfile of invalid JSON", s.jv("-n", "$x", "--slurpfile", "x", s.write("bad.json", b"[1,")),
           stdout=b"", exit=2, stderr_re=rb"unexpected end of input")
    s.case("--arg before the filter (jq's usual order)", s.jv("-n", "--arg", "x", "1", "$x"), stdout=b'"1"\n')
    s.case("--arg twice, --argjson, then the filter and files", s.jv("-c", "--arg", "x", "1", "--arg", "y", "[2]",
           "--argjson", "z", "[3]", "[$x, $y, $z, .]", s.write("a.json", b"0")), stdout=b'["1","[2]",[3],0]\n')


def shrinking_file(s):
    """The file is truncated while jview reads it. A large one (read in chunks) ends in an error naming it after the
    values read before; a small one is mapped, and the pages past the new end raise SIGBUS, which must become an
    error message after the values already computed."""
    if not s.wanted("shrinks while"):
        return
    line = b'{"id":12345,"name":"abcdefghij","tags":[1,2,3]}\n'
    f = s.write("shrink.json", line * (40 * 1000 * 1000 // len(line)))
    p = subprocess.Popen(s.jv("-c", ".", f), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=s.tmp, bufsize=0)
    head = p.stdout.read(1000)  # jview now blocks on a full pipe with most of the file unread
    time.sleep(0.2)
    os.truncate(s.path(f), 1000)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        r = Result(p.returncode, head + out, err)
    except subprocess.TimeoutExpired:
        p.kill()
        r = Result(0, b"", b"", timed_out=True)
    pr = s.problems(r, exit=2, stderr=b"jview: error: shrink.json: the file shrank while it was being read\n")
    # The values of the chunks read before the truncation, whole (not the one cut short by it).
    lines = r.out.split(b"\n")
    if len(lines) < 20 or any(l != line.rstrip(b"\n") for l in lines[:-1]) or lines[-1] != b"":
        pr.append("the values before the error are not whole: %r" % r.out[-100:])
    s.record("a 40 MB file that shrinks while read in chunks: its values, then an error", pr)

    # A small file (under 64 KiB) is read whole when opened: truncated to 0 bytes while value 2 computes, it is
    # still read to its end as it was (it used to be mapped, and the truncation faulted the reader with SIGBUS).
    # Value 2 writes a line to stderr (the test's signal), emits `2` and computes a while.
    f = s.write("shrink2.json", b"".join(b'{"id":%d}\n' % i for i in range(1, 4000)))
    prog = ('if .id == 2 then ("sync\\n" | stderr | empty), 2, ([range(3000000)] | .[-1] | empty) '
            'else .id end')
    p = subprocess.Popen(s.jv("--threads", "1", "-c", prog, f), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=s.tmp)
    sync = p.stderr.read(5)
    os.truncate(s.path(f), 0)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        r = Result(p.returncode, out, sync + err)
    except subprocess.TimeoutExpired:
        p.kill()
        r = Result(0, b"", b"", timed_out=True)
    s.record("a small file that shrinks while a value computes: it is read as it was when opened",
             s.problems(r, exit=0, stdout=b"".join(b"%d\n" % i for i in range(1, 4000)),
                        stderr_re=rb'^"?sync'))


def huge_files(s, slow):
    p = "sparse.json"
    with open(s.path(p), "wb") as f:
        f.write(b'{"a":1}\n')
        f.seek(5 << 30)
        f.write(b'\n{"b":2}\n')
    s.case("sparse 5 GiB file: values, then an error at the hole (NUL bytes)", s.jv("-c", ".", p),
           stdout=b'{"a":1}\n', exit=5, stderr_re=rb"^jview: error: sparse\.json:2:1: unexpected character\n",
           max_seconds=3)
    os.unlink(s.path(p))
    # A file over 32 MiB is read in chunks into one buffer, and the lines of the chunks behind the parser are
    # counted only when asked for: then read again from the file, and counted right.
    p = "lines72m.ndjson"
    lines = (72 << 20) // 8
    with open(s.path(p), "wb") as f:
        f.write(b'{"a":1}\n' * lines)
    s.case("72 MB of NDJSON: input_line_number at the end, after its chunks were dropped",
           s.jv("-n", "reduce inputs as $x (0; . + $x.a), input_line_number", p),
           stdout=b"%d\n%d\n" % (lines, lines), max_seconds=10)
    with open(s.path(p), "ab") as f:
        f.write(b'{"a":\n')
    s.case("72 MB of NDJSON, cut short at the end: the error's line counted after its chunks were dropped",
           s.jv("empty", p), stdout=b"", exit=5,
           stderr_re=rb"^jview: error: lines72m\.ndjson:%d:1: unexpected end of input\n" % (lines + 2), max_seconds=10)
    os.unlink(s.path(p))
    if not slow:
        return
    p = "big.json"
    with open(s.path(p), "wb") as f:
        f.write(b'{"a":1}\n')
        chunk = b" " * (64 << 20)
        for _ in range((4 << 30) // len(chunk) + 2):
            f.write(chunk)
        f.write(b'\n{"b":2}\n"over 4 GiB"\nx')
    s.case("a real 4.2 GiB file: values past 4 GiB, error line counted", s.jv("-c", ".", p), timeout=300,
           stdout=b'{"a":1}\n{"b":2}\n"over 4 GiB"\n', exit=5,
           stderr_re=rb"^jview: error: big\.json:5:1: unexpected character\n")
    # The same bytes streamed (standard input is read, not mapped): offsets past 4 GiB in the stream reader, and
    # the 4 GiB of spaces between values are not buffered (256 MB of address space is plenty).
    with open(s.path(p), "rb") as f:
        s.case("a real 4.2 GiB file on stdin: values past 4 GiB, in bounded memory", s.jv("-c", "."), stdin_file=f,
               timeout=300, preexec=limit_memory(256), stdout=b'{"a":1}\n{"b":2}\n"over 4 GiB"\n', exit=5,
               stderr_re=rb"^jview: error: <stdin>:5:1: unexpected character\n")
    os.unlink(s.path(p))


def programs(s):
    for prog in ("def f: f; f", "def f: 1 + f; f", "def f: [f]; f", "def f(g): f(g|g); f(.)"):
        s.case(f"endless recursion `{prog}`: a clear error", s.jv("-n", prog), stdout=b"", exit=5,
               stderr_re=rb"Maximum recursion depth exceeded")
    s.case("1000 nested parentheses: a compile error, not a crash", s.jv("-n", "(" * 1000 + "1" + ")" * 1000),
           stdout=b"", exit=3, stderr_re=rb"nests too deeply")
    for name, text in (("100000 unary minus", "-" * 100000 + "1"), ("100000 nested parentheses",
                       "(" * 100000 + "1" + ")" * 100000)):
        f = s.write("prog.jq", text.encode())
        s.case(f"program of {name} (-f): no crash", s.jv("-n", "-f", f), exit=3, stderr_re=rb"error")
    s.case("1000 unary minus: still a program", s.jv("-n", "--", "-" * 1000 + "1"), stdout=b"1\n")
    s.case("30000 unary minus: a compile error, not a crash", s.jv("-n", "--", "-" * 30000 + "1"), stdout=b"", exit=3,
           stderr_re=rb"nests too deeply")
    s.case("a filter written [1,2] (CLI11's vector syntax must not split it)", s.jv("-nc", "[1,2]"),
           stdout=b"[1,2]\n")
    s.case("a filter written []", s.jv("-nc", "[]"), stdout=b"[]\n")
    s.case("a file name in brackets", s.jv("-c", ".", s.write("[x].json", b"1")), stdout=b"1\n")
    s.case("a file name in brackets with a comma", s.jv("-c", ".", s.write("[x,y].json", b"1")), stdout=b"1\n")


def long_programs(s):
    """Issue 25.1: programs of 10^5-10^6 terms (operator chains, suffix chains, runs of `def`, `as`, `label`,
    `elif`, constructions with that many members) compile and run in constant stack, as jq runs the array, `+` and
    `,` chains; a program whose evaluation really nests that deep (10^6 `as` bindings) fails with a clean error. Never
    a signal. Each under a timeout and a 2 GB address-space cap."""
    n5, n6 = 100000, 1000000
    rows = [
        ("an array of 10^6 elements", "[" + ",".join(["1"] * n6) + "] | length", b"1000000\n", ()),
        ("a 10^6-term `+` chain", "+".join(["1"] * n6), b"1000000\n", ()),
        ("a 10^6-term `,` chain", ",".join(["1"] * n6), b"1\n" * n6, ()),
        ("10^6 pipes", "|".join(["."] * n6), b"null\n", (5,)),
        # The leaf's value climbs back through every level without an eval (the continuations check the stack).
        ("a 10^6-term `or` chain whose first term is true", "true" + " or false" * n6, b"true\n", (5,)),
        ("10^6 `?` suffixes", "1" + "?" * n6, b"1\n", (5,)),
        ("10^6 `as` bindings", "".join(". as $x%d | " % i for i in range(n6)) + "$x0", b"null\n", (5,)),
        ("a 10^5-term `-` chain", "-".join(["1"] * n5), b"-99998\n", ()),
        ("a 10^5-term `*` chain", "*".join(["1"] * n5), b"1\n", ()),
        ("a 10^5-term `+` chain of `.x` and `$v`", "{x: 1} | .x as $v | .x" + " + .x + $v" * (n5 // 2),
         b"100001\n", ()),
        ("a 10^5-term `+` chain of arrays (linear, not quadratic)", "+".join(["[1]"] * n5) + " | length",
         b"100000\n", ()),
        ("a 10^5-term `+` chain of strings", "+".join(['"a"'] * n5) + " | length", b"100000\n", ()),
        ("a 10^5-term `//` chain", "null // " * n5 + "1", b"1\n", ()),
        ("a 10^5-term `and` chain", " and ".join(["true"] * n5), b"true\n", ()),
        ("a 10^5-term `or` chain", " or ".join(["false"] * n5), b"false\n", ()),
        ("10^5 pipes", "|".join(["."] * n5), b"null\n", ()),
        ("10^5 `.a` suffixes", ".a" * n5, b"null\n", ()),
        ("10^5 `.a?` suffixes on a number", "1 | " + ".a?" * n5, b"", ()),
        ("10^5 `.[0]` suffixes", "." + "[0]" * n5, b"null\n", ()),
        ("10^5 `[]?` suffixes", "." + "[]?" * n5, b"", ()),
        ("10^5 `?` suffixes", "1" + "?" * n5, b"1\n", ()),
        ("path() of 10^5 `.a` suffixes", "path(" + ".a" * n5 + ") | length", b"100000\n", ()),
        ("10^5 definitions", "".join("def f%d: %d; " % (i, i) for i in range(n5)) + "f0", b"0\n", ()),
        ("10^5 definitions calling the one before", "def f0: 0; " +
         "".join("def f%d: f%d + 1; " % (i, i - 1) for i in range(1, n5)) + "f%d" % (n5 - 1), b"99999\n", ()),
        ("10^5 `as` bindings", "".join(". as $x%d | " % i for i in range(n5)) + "$x0", b"null\n", ()),
        ("10^5 labels", "label $a | " * n5 + "1", b"1\n", ()),
        # Destructuring binds one element (one entry) per level: 10^5 of them fit, 10^6 fit or fail cleanly.
        ("an array pattern of 10^5 variables", ". as [" + ", ".join(["$x"] * n5) + "] | 1", b"1\n", ()),
        ("an array pattern of 10^6 variables", "[1] as [" + ", ".join(["$x"] * n6) + "] | $x", b"null\n", (5,)),
        ("an object pattern of 10^5 entries", "{a: 2} as {" + ", ".join(["a: $x"] * n5) + "} | $x", b"2\n", ()),
        ("an object pattern of 10^6 entries", ". as {" + ", ".join(["$a"] * n6) + "} | $a", b"null\n", (5,)),
        ("10^5 `elif`", "if false then 0 " + "elif false then 0 " * n5 + "else 1 end", b"1\n", ()),
        ("an object of 10^5 members", "{" + ",".join("a%d: 1" % i for i in range(n5)) + "} | length",
         b"100000\n", ()),
        ("an object member of 10^5 pipes", "{a: " + "|".join(["."] * n5) + "} | .a", b"null\n", ()),
        ("a string of 10^5 interpolations", '"' + "\\(1)" * n5 + '" | length', b"100000\n", ()),
        ("reduce over a 10^5-term `,` chain", "reduce (" + ",".join(["1"] * n5) + ") as $x (0; . + $x)",
         b"100000\n", ()),
    ]
    for name, text, want, alternatives in rows:
        if not s.wanted(f"{name}: runs"):
            continue
        f = s.write("long.jq", text.encode())
        r = run(s.jv("-n", "-c", "-f", f), cwd=s.tmp, preexec=limit_memory(2048), timeout=60)
        if 5 in alternatives and r.rc == 5 and not r.timed_out:
            problems = s.problems(r, exit=5, stdout=b"", stderr_re=rb"Maximum recursion depth exceeded")
        else:
            problems = s.problems(r, stdout=want, stderr=b"")
        s.record(f"{name}: runs" + (" or a clean error" if alternatives else ""), problems)
    # Nesting the parser allows (1999 definitions, each in the body of the one before) compiles on the usual 8 MB
    # stack; on a small one (ulimit -s) it, and 999 parentheses, compile or fail to, never overflowing it.
    nested_defs = "def f: " * 1999 + "1" + "; f" * 1999
    parens = "(" * 999 + "1" + ")" * 999
    if s.wanted("1999 nested definitions: runs"):
        f = s.write("nested_defs.jq", nested_defs.encode())
        r = run(s.jv("-n", "-f", f), cwd=s.tmp)
        s.record("1999 nested definitions: runs", s.problems(r, stdout=b"1\n", stderr=b""))
    for name, text in (("1999 nested definitions", nested_defs), ("999 nested parentheses", parens)):
        for kb in (1024, 256):
            label = f"{name} on a {kb} KB stack: runs or a compile error"
            if not s.wanted(label):
                continue
            f = s.write("nested.jq", text.encode())
            r = run(s.jv("-n", "-f", f), cwd=s.tmp, preexec=limit_stack(kb))
            if r.rc == 0:
                problems = s.problems(r, stdout=b"1\n", stderr=b"")
            else:
                problems = s.problems(r, exit=3, stdout=b"", stderr_re=rb"^jview: error: program nests too deeply")
            s.record(label, problems)
    # Issue 25.12: the depth of values is not bounded by the evaluator's stack where jq's is not (walk is native,
    # with its own stack on the heap; jq 1.8 prints 1 in 7.6 s and 421 MB).
    s.case("walk(.) over a constructed value 10^6 deep", s.jv("-n", "reduce range(1000000) as $i (0; [.]) | walk(.) | length"),
           preexec=limit_memory(2048), timeout=60, stdout=b"1\n", stderr=b"")
    # Real nesting is bounded by the parser: a compile error (exit 3), never a crash in the compiler.
    for name, text in (("10^5 nested array patterns", ". as " + "[" * n5 + "$x" + "]" * n5 + " | $x"),
                       ("10^5 nested object constructions", "{a:" * n5 + "1" + "}" * n5),
                       ("10^5 nested `reduce`", "reduce . as $x (" * n5 + "1" + "; .)" * n5),
                       ("10^5 nested definitions", "def f: " * n5 + "1" + "; f" * n5)):
        f = s.write("long.jq", text.encode())
        s.case(f"{name}: a compile error", s.jv("-n", "-f", f), preexec=limit_memory(2048), stdout=b"", exit=3,
               stderr_re=rb"nests too deeply")


def closed_and_full_outputs(s):
    nd = s.write("nd.json", b'{"id":12345,"name":"abcdefghij","tags":[1,2,3]}\n' * 200000)
    # A closed pipe stops the run at once (issue 25.2: also inside one input's endless or long generator), quietly,
    # and jview then ends as jq 1.8 does: killed by SIGPIPE (141 in a shell).
    for name, args, stdin in (("identity", ["-c", ".", nd], None), ("filter", ["-c", ".id", nd], None),
                              ("-n generator", ["-n", "range(100000000)"], None),
                              ("-n repeat(1)", ["-n", "repeat(1)"], None), ("-n range(1e9)", ["-n", "range(1e9)"], None),
                              ("range(1e9) per input of `yes 1`", ["range(1e9)"], "yes 1")):
        if not s.wanted(f"closed stdout ({name})"):
            continue
        feeder = subprocess.Popen(stdin, shell=True, stdout=subprocess.PIPE) if stdin else None
        p = subprocess.Popen(s.jv(*args), stdin=feeder.stdout if feeder else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=s.tmp)
        if feeder:
            feeder.stdout.close()
        first = p.stdout.readline()
        t0 = time.monotonic()
        p.stdout.close()  # like `| head -1`
        try:
            err = p.stderr.read()
            p.wait(timeout=TIMEOUT)
            seconds = time.monotonic() - t0
            r = Result(141 if p.returncode == -signal.SIGPIPE else p.returncode, first, err, seconds=seconds)
        except subprocess.TimeoutExpired:
            p.kill()
            r = Result(0, first, b"", timed_out=True, seconds=TIMEOUT)
        if feeder:
            feeder.kill()
            feeder.wait()
        s.record(f"closed stdout ({name}): quiet, SIGPIPE as jq 1.8, within 2 s",
                 s.problems(r, exit=141, stderr=b"", max_seconds=2) + ([] if first.strip() else ["no first line"]))
    if s.wanted("closed stdout (head -c 10)"):
        r = run(["sh", "-c", '"$0" -n "range(1e8)" | head -c 10 >/dev/null', s.jview], cwd=s.tmp)
        s.record("closed stdout (head -c 10 of range(1e8)): within 2 s", s.problems(r, stdout=b"", stderr=b"",
                                                                                  max_seconds=2))
    for name, args in (("identity", ["-c", ".", nd]), ("one value", ["-n", "1"]), ("filter", ["-c", ".id", nd])):
        if not s.wanted(f"/dev/full ({name})"):
            continue
        with open("/dev/full", "wb") as full:
            p = subprocess.Popen(s.jv(*args), stdout=full, stderr=subprocess.PIPE, cwd=s.tmp)
            err = p.communicate(timeout=TIMEOUT)[1]
        s.record(f"/dev/full ({name}): message, exit 2", s.problems(
            Result(p.returncode, b"", err), exit=2,
            stderr=b"jview: error: writing output: No space left on device\n"))
    if s.wanted("stdout closed"):
        p = subprocess.Popen(s.jv("-n", "1"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=lambda: os.close(1))
        err = p.communicate(timeout=TIMEOUT)[1]
        s.record("stdout closed (fd 1 not open): message, exit 2", s.problems(
            Result(p.returncode, b"", err), exit=2, stderr=b"jview: error: writing output: Bad file descriptor\n"))
    if s.wanted("stderr closed"):
        p = subprocess.Popen(s.jv("-n", '"x"|error'), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             preexec_fn=lambda: os.close(2))
        p.communicate(timeout=TIMEOUT)
        s.record("stderr closed, runtime error: exit 5, no abort",
                 s.problems(Result(p.returncode, b"", b""), exit=5))
        # Every other message goes through the same no-throw helper (cli/sink.hpp eprint): a usage error, a
        # missing file, a compile error, debug, each with stderr closed.
        for name, args, code in (("usage error", ["--indent", "9", "."], 2), ("missing file", [".", "nope"], 2),
                                 ("compile error", ["-n", "1 +"], 3), ("debug", ["-n", "1|debug"], 0)):
            p = subprocess.Popen(s.jv(*args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=s.tmp,
                                 preexec_fn=lambda: os.close(2))
            out = p.communicate(timeout=TIMEOUT)[0]
            s.record(f"stderr closed, {name}: exit {code}, no abort",
                     s.problems(Result(p.returncode, out, b""), exit=code))
        r_fd, w_fd = os.pipe()
        os.close(r_fd)
        p = subprocess.Popen(s.jv("-c", ".", s.write("trunc.json", b"[1] [")), stdout=subprocess.PIPE, stderr=w_fd,
                             cwd=s.tmp)
        out = p.communicate(timeout=TIMEOUT)[0]
        os.close(w_fd)
        s.record("stderr a broken pipe, parse error: exit 5, values written",
                 s.problems(Result(p.returncode, out, b""), exit=5, stdout=b"[1]\n"))
        r_fd, w_fd = os.pipe()
        os.close(r_fd)
        p = subprocess.Popen(s.jv("-n", '1, ("x"|error)'), stdout=subprocess.PIPE, stderr=w_fd, cwd=s.tmp)
        out = p.communicate(timeout=TIMEOUT)[0]
        os.close(w_fd)
        s.record("stderr a broken pipe, runtime error: exit 5, values written",
                 s.problems(Result(p.returncode, out, b""), exit=5, stdout=b"1\n"))
    if s.wanted("stderr /dev/full"):
        with open("/dev/full", "wb") as full:
            p = subprocess.Popen(s.jv("-n", '1, ("x"|error)'), stdout=subprocess.PIPE, stderr=full, cwd=s.tmp)
            out = p.communicate(timeout=TIMEOUT)[0]
        s.record("stderr /dev/full, runtime error: exit 5, values written",
                 s.problems(Result(p.returncode, out, b""), exit=5, stdout=b"1\n"))


def limit_stack(kb):
    def f():
        resource.setrlimit(resource.RLIMIT_STACK, (kb << 10, kb << 10))
    return f


def limit_memory(mb):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
    return f


def out_of_memory(s):
    # std::bad_alloc (and std::length_error) from the filter, the reader or the output end in cli/main.cpp:
    # `jview: error: out of memory`, exit 2 (a system error, as a write error; jq 1.8 prints `jq: error: cannot
    # allocate memory` and aborts, exit 134). The whole values already produced are written first.
    # (`.[-1]`, not `length`: `[f] | length` counts without building the array.)
    for prog in ("[range(100000000)] | .[-1]", '"x" * 1000000000 | length', "[range(10000000)|tostring] | .[-1]"):
        s.case(f"ulimit -v 200 MB: `{prog}`", s.jv("-n", prog), preexec=limit_memory(200), stdout=b"",
               exit=2, stderr=b"jview: error: out of memory\n")
    s.case("ulimit -v 200 MB: values before the allocation failure are written",
           s.jv("-n", "1, 2, ([range(100000000)] | .[-1]), 3"), preexec=limit_memory(200), stdout=b"1\n2\n",
           exit=2, stderr=b"jview: error: out of memory\n")
    s.case("ulimit -v 200 MB: out of memory in the second input's filter",
           s.jv("-c", "if . == 2 then [range(100000000)] else . end", s.write("oom12.json", b"1 2 3")),
           preexec=limit_memory(200), stdout=b"1\n", exit=2, stderr=b"jview: error: out of memory\n")
    # The stream reader's buffer: one string bigger than the limit arrives through a pipe.
    piped_case(s, "ulimit -v 128 MB: a 300 MB string on stdin",
               "printf '[1] \"'; head -c 300000000 /dev/zero | tr '\\0' x; printf '\"'", ["-c", "."],
               preexec=limit_memory(128), stdout=b"[1]\n", exit=2, stderr=b"jview: error: <stdin>: out of memory\n")
    s.case("ulimit -v 128 MB: /dev/zero", s.jv(".", "/dev/zero"), preexec=limit_memory(128), timeout=5,
           stdout=b"", exit=5, stderr_re=rb"^jview: error: /dev/zero:1:1: unexpected character")
    line = b'{"id":12345,"name":"abcdefghij","tags":[1,2,3]}\n'
    nd = s.write("nd30m.json", line * (30 * 1000 * 1000 // len(line)))
    s.case("ulimit -v 200 MB: a 30 MB NDJSON file of small values (read whole)", s.jv(".id", nd),
           preexec=limit_memory(200), exit=0, stdout=b"12345\n" * (30 * 1000 * 1000 // len(line)))
    with open(s.path(nd), "rb") as f:
        s.case("ulimit -v 200 MB: the same NDJSON on stdin", s.jv(".id"), stdin_file=f, preexec=limit_memory(200),
               exit=0, stdout=b"12345\n" * (30 * 1000 * 1000 // len(line)))
    # The node arena grows with the need (core/document.cpp grow: mremap) instead of reserving 8 bytes of address
    # space per input byte: a 100 MB string needs its file and a few MB.
    s.case("ulimit -v 150 MB: a 100 MB string", s.jv("length", "str100m.json"),
           preexec=limit_memory(150), stdout=b"%d\n" % (os.path.getsize(s.path("str100m.json")) - 2), exit=0,
           stderr=b"")
    s.case("ulimit -v 90 MB: a 100 MB string does not fit: clear error", s.jv("length", "str100m.json"),
           preexec=limit_memory(90), stdout=b"", exit=2, stderr=b"jview: error: str100m.json: out of memory\n")
    # A 100 MB array of 2.4 million objects: 24 million nodes (16 bytes each, 366 MiB). It works within the file,
    # the nodes and 64 MiB; it needed 8 bytes per input byte before (900 MB).
    elem = b'{"a":1234,"b":[1,2,3],"c":"xyz"}'
    count = 100 * 1000 * 1000 // (len(elem) + 9)
    with open(s.path("arr100m.json"), "wb") as f:
        f.write(b"[" + b",\n        ".join([elem] * count) + b"]")
    size = os.path.getsize(s.path("arr100m.json"))
    nodes = 1 + 10 * count
    s.case("a 100 MB array of small objects in (file + 16 bytes per node + 64 MiB) of address space",
           s.jv("length", "arr100m.json"), preexec=limit_memory((size + 16 * nodes >> 20) + 64),
           stdout=b"%d\n" % count, exit=0, stderr=b"")


def stream_memory(s):
    """--stream in memory bounded by the largest leaf (issue 25.13): the events come as the bytes arrive and no
    value is held whole. Each under a 64 MB cap of address space (before: 1.2 GB for the strings from a file,
    212 MB from a pipe, 203 MB for the leaves; jq 1.8: 14 MB)."""
    strings = s.write("strings40x5m.json", b"[" + b",".join([b'"' + b"x" * 5000000 + b'"'] * 40) + b"]")
    prog = "select(length == 2) | .[1] | length"
    s.case("ulimit -v 64 MB: --stream over 40 strings of 5 MB", s.jv("-c", "--stream", prog, strings),
           preexec=limit_memory(64), stdout=b"5000000\n" * 40, stderr=b"")
    with open(s.path(strings), "rb") as f:
        s.case("ulimit -v 64 MB: --stream over 40 strings of 5 MB on stdin", s.jv("-c", "--stream", prog),
               stdin_file=f, preexec=limit_memory(64), stdout=b"5000000\n" * 40, stderr=b"")
    n = 10 ** 7
    leaves = s.write("leaves1e7.json", b"[" + b"1," * (n - 1) + b"1]")
    count = "reduce (inputs | select(length == 2)) as $e (0; . + $e[1])"
    s.case("ulimit -v 64 MB: --stream over an array of 10^7 leaves", s.jv("-n", "--stream", count, leaves),
           preexec=limit_memory(64), stdout=b"%d\n" % n, stderr=b"")
    deep = s.write("deep1e4.json", b"[" * 10000 + b'"x"' + b"]" * 10000)
    s.case("ulimit -v 64 MB: --stream over 10^4 nested arrays (jq's depth)",
           s.jv("-nc", "--stream", "[inputs | length] | [length, add]", deep),
           preexec=limit_memory(64), stdout=b"[10001,10002]\n", stderr=b"")
    # A value is not waited for: its events come out as its bytes arrive (here: before its end is sent).
    p = subprocess.Popen(s.jv("-c", "--stream", "."), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(b'[1,{"a":')
    p.stdin.flush()
    ready, _, _ = select.select([p.stdout], [], [], 10)
    first = p.stdout.readline() if ready else b""
    p.stdin.write(b"2}]")
    p.stdin.close()
    rest = p.stdout.read()
    p.wait(timeout=TIMEOUT)
    s.record("--stream: a value's first events before the rest of it is sent",
             [] if first == b"[[0],1]\n" and rest == b'[[1,"a"],2]\n[[1,"a"]]\n[[1]]\n'
             else [f"{first!r} then {rest!r}"])


def compressed_bombs(s):
    """Compressed input that decodes to far more than it is (issue 20): memory stays bounded by the decoder's blocks
    and the reader's buffer; a value that cannot fit is `FILE: out of memory`, after the values before it."""
    import gzip
    import zlib

    def gz_of(pieces):
        z = zlib.compressobj(9, zlib.DEFLATED, 31)
        out = [z.compress(p) for p in pieces]
        return b"".join(out) + z.flush()
    spaces = gz_of([b" " * (1 << 20)] * 500 + [b"[1]\n"])  # 500 MiB of whitespace, then a value
    s.case("ulimit -v 200 MB: 500 MiB of whitespace in 0.5 MB of gzip", s.jv("-c", ".", s.write("spaces.gz", spaces)),
           preexec=limit_memory(200), stdout=b"[1]\n", exit=0, stderr=b"")
    with open(s.path("spaces.gz"), "rb") as f:
        s.case("ulimit -v 200 MB: the same on stdin", s.jv("-c", "."), stdin_file=f, preexec=limit_memory(200),
               stdout=b"[1]\n", exit=0, stderr=b"")
    string = gz_of([b'[1] "'] + [b"x" * (1 << 20)] * 300 + [b'"'])  # a 300 MiB string
    s.case("ulimit -v 128 MB: a 300 MiB string in gzip: out of memory, after the value before it",
           s.jv("-c", ".", s.write("string.gz", string)), preexec=limit_memory(128), stdout=b"[1]\n", exit=2,
           stderr=b"jview: error: string.gz: out of memory\n")
    del gzip


def slow_pipes(s):
    """Short reads and writes: a reader that takes a few bytes at a time with pauses, a writer that sends the input
    in small pieces, and jview stopped and continued (SIGSTOP/SIGCONT) while it writes."""
    if not s.wanted("slow"):
        return
    src = s.write("slow.json", b"".join(b'{"i":%d,"s":"%s"}\n' % (i, b"\xc3\xa9" * (i % 50)) for i in range(50000)))
    want = run(s.jv("-c", ".", src), cwd=s.tmp).out
    rnd = random.Random(3)
    p = subprocess.Popen(s.jv("-c", ".", src), stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                         cwd=s.tmp)
    got, t0 = [], time.monotonic()
    while True:
        b = os.read(p.stdout.fileno(), rnd.choice((1, 7, 100, 4096, 65536)))
        if not b:
            break
        got.append(b)
        if rnd.random() < 0.02:
            time.sleep(0.002)
        if rnd.random() < 0.005:
            p.send_signal(signal.SIGSTOP)
            time.sleep(0.002)
            p.send_signal(signal.SIGCONT)
        if time.monotonic() - t0 > TIMEOUT:
            p.kill()
            break
    err = p.stderr.read()
    p.wait()
    s.record("slow reader with SIGSTOP/SIGCONT: every byte arrives",
             s.problems(Result(p.returncode, b"".join(got), err), stdout=want, stderr=b""))
    with open(s.path(src), "rb") as f:
        data = f.read()
    p = subprocess.Popen(s.jv("-c", "."), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = []

    def drain():
        while True:
            b = p.stdout.read(65536)
            if not b:
                return
            out.append(b)
    t = threading.Thread(target=drain)
    t.start()
    i = 0
    while i < len(data):
        n = rnd.choice((1, 3, 17, 1000, 60000))
        p.stdin.write(data[i:i + n])
        p.stdin.flush()
        i += n
        if rnd.random() < 0.01:
            time.sleep(0.001)
    p.stdin.close()
    t.join(TIMEOUT)
    err = p.stderr.read()
    p.wait(timeout=TIMEOUT)
    s.record("slow writer (short reads): the same values", s.problems(Result(p.returncode, b"".join(out), err),
                                                                     stdout=want, stderr=b""))
    # A value must be written as soon as it is complete, before the writer sends more.
    p = subprocess.Popen(s.jv("-c", ".a"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(b'{"a":1}\n{"a":')
    p.stdin.flush()
    ready, _, _ = select.select([p.stdout], [], [], 10)
    first = p.stdout.readline() if ready else b""
    p.stdin.write(b"2}")
    p.stdin.close()
    rest = p.stdout.read()
    p.wait(timeout=TIMEOUT)
    s.record("a value is written before the next one is complete", [] if first == b"1\n" and rest == b"2\n"
             else [f"{first!r} then {rest!r}"])
    # Issue 25.9: a first read of two bytes (`echo 1`, then nothing for a while) is a whole value: written at once,
    # not after more bytes (a byte order mark has three).
    for prog in (".", ".+1"):
        p = subprocess.Popen(s.jv("--unbuffered", "-c", prog), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdin.write(b"1\n")
        p.stdin.flush()
        ready, _, _ = select.select([p.stdout], [], [], 5)
        first = p.stdout.readline() if ready else b""
        p.stdin.close()
        rest = p.stdout.read()
        p.wait(timeout=TIMEOUT)
        want = b"1\n" if prog == "." else b"2\n"
        s.record(f"a first read of 2 bytes (`{prog}`) is written at once", [] if first == want and rest == b""
                 else [f"{first!r} then {rest!r}"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared"))
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--slow", action="store_true", help="add the real 4.2 GiB file")
    ap.add_argument("--verbose", action="store_true", help="print the time of each group of cases")
    args = ap.parse_args()
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="jview-hostile-")
    try:
        s = Suite(os.path.abspath(args.jview), os.path.abspath(args.shared), tmp, args.only)
        s.verbose = args.verbose
        for group in (empty_and_whitespace, nul_bytes, invalid_utf8_everywhere, truncation_everywhere,
                      deep_nesting, deep_recursion, big_values, duplicate_keys, key_lookups, hash_flooding, linear_memory_builtins,
                      base64d_replacement, module_names, seq_input_resync,
                      files_that_are_not_files, unreadable, shrinking_file, programs, long_programs,
                      closed_and_full_outputs, out_of_memory, stream_memory, compressed_bombs, slow_pipes):
            t = time.monotonic()
            group(s)
            if args.verbose:
                print(f"hostile: {group.__name__}: {time.monotonic() - t:.1f} s")
        huge_files(s, args.slow)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for name, note, detail in s.known:
        print(f"KNOWN BUG {name}: {note}\n    ({detail[:400]})")
    for name in s.fixed:
        print(f"FIXED? {name}: passes although marked as a known bug: remove the mark")
    for name, detail in s.failed:
        print(f"FAIL {name}: {detail}")
    print(f"hostile: {s.passed} passed, {len(s.failed)} failed, {len(s.known)} known failures "
          f"({time.monotonic() - t0:.0f} s)")
    return 1 if s.failed else 0


if __name__ == "__main__":
    sys.exit(main())
