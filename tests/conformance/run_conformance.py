#!/usr/bin/env python3
"""The project's own cases (tests/conformance/cases/) and JSONTestSuite (../shared/conformance/JSONTestSuite/
test_parsing, skipped with a SKIPPED line when ../shared is missing), the same rules: every y_ file is accepted
(exit 0, and its compact output parses again to the same bytes), every n_ file is rejected with exit 5 and a
`jview: error: FILE:LINE:COLUMN: ...` message, no i_ file crashes or hangs; `--check` agrees (0 / 1).
Five n_ files are valid jq *streams* (STREAMS): accepted by default as jq does, rejected under --strict, which
every n_ and y_ file is also run with. The own n_ cases hold no stream: each is rejected with and without --strict.
Usage: run_conformance.py --jview PATH --mode default|portable|sse2|ssse3|avx2|avx512 --shared DIR"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
sys.path.insert(0, os.path.join(HERE, ".."))
from run_cli_tests import env_for, skip_unless_runnable  # noqa: E402
import shared_data  # noqa: E402

# n_ files that are valid JSON *streams*: jq (1.6 and 1.8) accepts them, and so does jview's default mode, which
# reads any number of values per input, and --check (a file of no value is valid, as for `jq empty`; --strict
# rejects all five).
STREAMS = {
    "n_structure_double_array.json": (0, 0),               # "[][]": two values
    "n_structure_object_with_trailing_garbage.json": (0, 0),  # '{"a":true} "x"': two values
    "n_single_space.json": (0, 0),                       # no value
    "n_structure_no_data.json": (0, 0),
    "n_structure_UTF8_BOM_no_data.json": (0, 0),
}

MSG = re.compile(rb"^jview: error: .+:\d+:\d+: .+\n")


def run(cmd, env, stdin=b""):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--mode", default="default")
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    skip_unless_runnable(args.jview, args.mode)
    env = env_for(args.mode)
    suites = [("own cases", os.path.join(HERE, "cases"))]
    jts = shared_data.need(os.path.join(args.shared, "conformance", "JSONTestSuite", "test_parsing"), "JSONTestSuite",
                           "dir", args.shared)
    if jts:
        suites.append(("JSONTestSuite files", jts))
    passed, failed = 0, []
    for label, suite in suites:
        counts = {"y": 0, "n": 0, "i": 0}
        for name in sorted(os.listdir(suite)):
            if name.endswith(".json"):
                counts[name[0]] = counts.get(name[0], 0) + 1
                problems = check_file(args.jview, env, os.path.join(suite, name), suite is not jts)
                if problems:
                    failed.append((os.path.relpath(os.path.join(suite, name), os.path.dirname(suite)),
                                   "; ".join(problems)))
                else:
                    passed += 1
        print(f"{label}: {counts['y']} y, {counts['n']} n, {counts['i']} i")
    for name, why in failed:
        print(f"FAIL {name}: {why}")
    print(f"conformance ({args.mode}): {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


def check_file(jview, env, path, own):
    """The problems of one y_, n_ or i_ file (none: it passed). STREAMS apply to JSONTestSuite's names only."""
    name = os.path.basename(path)
    kind = name[0]
    streams = {} if own else STREAMS
    rc, out, err = run([jview, "-c", ".", path], env)
    crc, cout, cerr = run([jview, "--check", path], env)
    problems = []
    if rc < 0 or crc < 0:
        problems.append(f"killed by signal {-min(rc, crc)}")
    if kind == "y":
        if rc != 0:
            problems.append(f"rejected (exit {rc}): {err[:200]!r}")
        else:
            rc2, out2, err2 = run([jview, "-c", "."], env, out)
            if rc2 != 0 or out2 != out:
                problems.append(f"round trip differs: {out[:100]!r} -> {out2[:100]!r}")
        if crc != 0 or cout:
            problems.append(f"--check gave {crc} {cout[:200]!r}")
    elif name in streams:
        want_rc, want_check = streams[name]
        if rc != want_rc or crc != want_check:
            problems.append(f"stream semantics: exit {rc} (want {want_rc}), --check {crc} (want {want_check})")
    if kind == "n":
        # Under --strict an input is one RFC 8259 JSON text: every n_ file is rejected, streams included.
        src, sout, serr = run([jview, "--strict", "-c", ".", path], env)
        scrc, scout, _ = run([jview, "--strict", "--check", path], env)
        if src != 5 or not MSG.match(serr):
            problems.append(f"--strict: exit {src} (want 5), stderr {serr[:200]!r}")
        if scrc != 1 or not scout.startswith(path.encode() + b":"):
            problems.append(f"--strict --check gave {scrc} {scout[:200]!r}")
    if kind == "y":
        src, sout, _ = run([jview, "--strict", "-c", ".", path], env)
        if src != 0 or sout != out:
            problems.append(f"--strict rejected a y_ file (exit {src})")
    if kind == "n" and name not in streams:
        if rc != 5:
            problems.append(f"accepted or wrong status (exit {rc}, out {out[:100]!r})")
        elif not MSG.match(err):
            problems.append(f"message not FILE:LINE:COLUMN: {err[:200]!r}")
        if crc != 1 or not cout.startswith(path.encode() + b":"):
            problems.append(f"--check gave {crc} {cout[:200]!r}")
    elif kind == "i":
        if rc not in (0, 5):
            problems.append(f"exit {rc}")
        if (rc == 0) != (crc == 0):
            problems.append(f"--check disagrees: {rc} vs {crc}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
