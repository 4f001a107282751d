#!/usr/bin/env python3
"""--stream and --stream-errors against jq 1.8 on random broken JSON (random values, then bytes inserted, deleted,
replaced or cut off): the events before an error must be jq's, and the error event's text (message, line, column)
and path jq's, up to the first error.

Where jview stops at something jq reads (jview reads strict JSON: nan, 01, 1., invalid UTF-8, a missing comma
between two containers...), jview's events must be a prefix of jq's and its error event is in its own words (a
lower-case message); those cases are counted, not compared. After the first error both read on at the next line,
but jq's line numbers then leave out the lines it dropped (README): the comparison stops at the first error.

Usage: stream_difftest.py --jview PATH --jq PATH [--count N] [--seed S]
Exit 0 when every case agrees, 1 otherwise, 77 when jq 1.8 is missing."""
import argparse
import json
import os
import random
import subprocess
import sys


def gen(rnd, depth=0):
    r = rnd.random()
    if depth > 3 or r < 0.3:
        return rnd.choice([0, 1, -2.5, 1e3, True, False, None, "a", "\u00e9\n", "x\"y", ""])
    if r < 0.65:
        return [gen(rnd, depth + 1) for _ in range(rnd.randint(0, 3))]
    return {rnd.choice(["a", "b", "k", "\u00e9"]) + str(i): gen(rnd, depth + 1) for i in range(rnd.randint(0, 3))}


NOISE = b' \n,:[]{}"\\tfnu0123-.eExa\x01\xc3'


def corrupt(rnd, b):
    b = bytearray(b)
    for _ in range(rnd.randint(1, 2)):
        i = rnd.randint(0, len(b))
        op = rnd.random()
        if op < 0.3 and b:
            del b[min(i, len(b) - 1)]
        elif op < 0.6:
            b.insert(i, rnd.choice(NOISE))
        elif op < 0.8 and b:
            b[min(i, len(b) - 1)] = rnd.choice(NOISE)
        else:
            b = b[:i]
    return bytes(b)


def run(cmd, data):
    return subprocess.run(cmd, input=data, capture_output=True).stdout.split(b"\n")


def is_error_event(line):
    return line.startswith(b'["')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--jq", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args()
    if not os.access(args.jq, os.X_OK):
        print(f"SKIPPED: stream difftest: {args.jq} missing")
        return 77
    rnd = random.Random(args.seed)
    failures, same, strict_only = [], 0, 0
    for _ in range(args.count):
        values = [json.dumps(gen(rnd), ensure_ascii=False, separators=(rnd.choice([",", ", "]), ":"))
                  for _ in range(rnd.randint(1, 3))]
        text = corrupt(rnd, rnd.choice(["\n", " "]).join(values).encode())
        jq = run([args.jq, "-c", "--stream-errors", "."], text)
        jv = run([args.jview, "-c", "--stream-errors", "."], text)
        k = next((i for i, line in enumerate(jv) if is_error_event(line)), None)
        if k is None:
            ok = jv == jq
        elif jv[k][2:3].islower():  # jview's own words: jq read on
            ok = jv[:k] == jq[:k]
            strict_only += ok
        else:
            ok = jv[:k + 1] == jq[:k + 1]
            same += ok
        # --stream: the events before the error are jq's (all of them, or a prefix where jq read on).
        jq_plain = run([args.jq, "-c", "--stream", "."], text)[:-1]
        jv_plain = run([args.jview, "-c", "--stream", "."], text)[:-1]
        ok = ok and jq_plain[:len(jv_plain)] == jv_plain and (
            k is None or jv[k][2:3].islower() or jq_plain == jv_plain)
        if not ok:
            failures.append((text, jq, jv, jq_plain, jv_plain))
    for text, jq, jv, jq_plain, jv_plain in failures[:10]:
        print(f"DIFF {text!r}\n  jq   {jq!r}\n  jview {jv!r}\n  jq --stream    {jq_plain!r}\n"
              f"  jview --stream {jv_plain!r}")
    print(f"stream difftest: {args.count} texts, {len(failures)} differ; errors in jq's words: {same}, "
          f"where jq reads on: {strict_only}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
