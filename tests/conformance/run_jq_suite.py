#!/usr/bin/env python3
"""jq's own test suite (the tests/*.test files of a jq source tree, e.g. jq 1.8.2's) run against jview with the rules of
jq's src/jq_test.c: a block is a program line, an input line and the expected outputs up to a blank line; outputs
are compared as values (numbers exactly, as decimals); an error after the expected outputs is allowed; a `%%FAIL`
block must fail to compile with the given message (`%%FAIL IGNORE MSG`: any message). Modules come from the
suite's tests/modules (`-L`, as jq's tests/jqtest passes). jq's suite is not part of this repository: pass its
folder with --suite (it skips with status 77 when absent).
Usage: run_jq_suite.py --jview PATH --suite JQ_SOURCE/tests [--lenient] [--expect N] [-v]"""
import argparse
import decimal
import json
import os
import subprocess
import sys

decimal.getcontext().prec = 2000
ENV = dict(os.environ, PAGER="less")  # as jq's tests/mantest sets it
MAX_DOUBLE = decimal.Decimal("1.7976931348623157e+308")


def skipline(line):
    s = line.lstrip(" \t")
    return s == "" or s[0] in "#\n"


def blocks(path):
    """Yields (lineno, kind, program, lines): kind is 'run', 'fail' (check the message) or 'fail-any'."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.readlines()
    i, kind = 0, "run"
    while i < len(lines):
        line = lines[i]
        i += 1
        if skipline(line):
            continue
        if line in ("%%FAIL\n", "%%FAIL IGNORE MSG\n"):
            kind = "fail" if line == "%%FAIL\n" else "fail-any"
            continue
        start, prog, body = i, line.rstrip("\n"), []
        while i < len(lines) and not skipline(lines[i]):
            body.append(lines[i].rstrip("\n"))
            i += 1
        yield start, kind, prog, body
        kind = "run"


def parse_values(text):
    """Values of a JSON text as Python objects, numbers as Decimals (jq's literals compare exactly); NaN as nan."""
    return json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal,
                      parse_constant=lambda c: decimal.Decimal(c.replace("Infinity", "Inf")))


def norm(v):
    if isinstance(v, decimal.Decimal):
        if v.is_infinite():
            return MAX_DOUBLE.copy_sign(v)
        return v
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def equal(a, b):
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        if a.is_nan() or b.is_nan():
            return False
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    return a == b


def run_block(jview, mods, lenient, kind, prog, body):
    base = [jview, "-c", "-L", mods] + (["--lenient"] if lenient else [])
    if kind != "run":
        p = subprocess.run(base + ["-n", prog], stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
                           env=ENV)
        if p.returncode != 3:
            return f"should fail to compile, exit {p.returncode}"
        if kind == "fail-any":
            return None
        # One message per "jview: " line with its excerpt lines; jq_test.c keeps the last message that starts
        # with "jq: error" and compares the expected lines with it.
        msgs = []
        for line in p.stderr.decode("utf-8", "replace").replace("jview: error", "jq: error").split("\n"):
            if line.startswith(("jq: ", "jview: ")) or not msgs:
                msgs.append(line)
            else:
                msgs[-1] += "\n" + line
        errs = [m.rstrip("\n") for m in msgs if m.startswith("jq: error")]
        got = errs[-1] if errs else ""
        want = "\n".join(body)
        if got != want:
            return f"message {got!r}, want {want!r}"
        return None
    if not body:
        return "no input line"
    inp, expected = body[0], body[1:]
    p = subprocess.run(base + [prog], input=inp.encode("utf-8", "surrogateescape"), capture_output=True,
                       timeout=30, env=ENV)
    if p.returncode == 3:
        return "failed to compile: " + p.stderr.decode("utf-8", "replace")[:200]
    outs = [o for o in p.stdout.decode("utf-8", "replace").split("\n") if o]
    if len(outs) < len(expected):
        return f"insufficient results: {outs!r}, stderr {p.stderr[:200]!r}"
    for o, e in zip(outs, expected):
        try:
            if not equal(norm(parse_values(e)), norm(parse_values(o))):
                return f"expected {e}, got {o}"
        except ValueError as exc:
            return f"unparsable {o!r} / {e!r}: {exc}"
    if len(outs) > len(expected):
        return f"superfluous result {outs[len(expected)]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--suite", required=True, help="a jq source tree's tests/ folder")
    ap.add_argument("--lenient", action="store_true")
    ap.add_argument("--expect", type=int, help="the least number of blocks that must pass")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    tests = sorted(os.path.join(args.suite, f) for f in os.listdir(args.suite) if f.endswith(".test")) \
        if os.path.isdir(args.suite) else []
    if not tests:
        print(f"skipped: no *.test in {args.suite}")
        return 77
    mods = os.path.join(args.suite, "modules")
    passed, failed = 0, []
    cwd = os.getcwd()
    os.chdir(os.path.dirname(os.path.abspath(args.suite)))  # jq's suite runs from the source tree's root
    try:
        for test in tests:
            for lineno, kind, prog, body in blocks(test):
                why = run_block(os.path.join(cwd, args.jview), mods, args.lenient, kind, prog, body)
                if why is None:
                    passed += 1
                else:
                    failed.append((f"{os.path.basename(test)}:{lineno}", prog, why))
    finally:
        os.chdir(cwd)
    for lineno, prog, why in failed:
        if args.v or len(failed) <= 20:
            print(f"FAIL {lineno}: {prog}\n    {why}")
    total = passed + len(failed)
    print(f"jq suite{' (--lenient)' if args.lenient else ''}: {passed} of {total} blocks passed")
    if args.expect is not None:
        return 0 if passed >= args.expect else 1
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
