#!/usr/bin/env python3
# tests/numbers/jq_format_test.py: jq's text format for computed numbers, end to end. A few thousand doubles (random
# bit patterns, powers of two, short decimals, the plain/exponent switch points, integers, subnormals, overflow and
# underflow literals) go through `jview -c '.[] | . * 1'` and jq 1.8's same command; the outputs must be
# byte-identical. /usr/bin/jq (1.6) is run too when present and the values where it differs from jq 1.8 are counted
# and shown (none on 2026-12-02: Debian's jq 1.6 and jq 1.8.2 print computed numbers alike); jq 1.8 is the
# reference. Deterministic (fixed seed). Exit status 1 on any difference from jq 1.8.
# Usage: jq_format_test.py --jview PATH [--jq18 PATH] [--jq16 PATH] [--count N]
import argparse
import math
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILTER = ".[] | . * 1"


def from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def literals(count: int) -> list:
    rng = random.Random(2026)
    vals = []
    # Random bit patterns, both signs (NaN and infinities skipped: JSON cannot carry them).
    while len(vals) < count:
        v = from_bits(rng.getrandbits(64))
        if math.isfinite(v):
            vals.append(v)
    # Subnormals: random mantissas and the extremes.
    vals += [from_bits(rng.getrandbits(52)) for _ in range(200)]
    vals += [5e-324, -5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308, 4.9406564584124654e-324]
    # Powers of two and their neighbours.
    for e in range(-1074, 1024, 7):
        p = math.ldexp(1.0, e)
        vals += [p, math.nextafter(p, math.inf), math.nextafter(p, 0.0)]
    # Short decimals across the exponent range, and the plain/exponent switch points (1e-05, 1e+17, ...).
    for e in range(-330, 310):
        vals.append(float(f"1e{e}"))
        vals.append(float(f"{rng.randint(1, 99999)}e{e}"))
    for n in range(1, 18):
        for shift in range(-8, 20):
            vals.append(float("".join(str(rng.randint(1, 9)) for _ in range(n)) + f"e{shift}"))
    for mant in ["0.1", "0.2", "0.3", "1.5", "12.5", "4.35", "0.0001", "0.00001", "123456789012345678"]:
        vals.append(float(mant))
    # Integers around 2^53 and powers of ten.
    vals += [float(2**53 + k) for k in range(-3, 4)] + [float(10**k) for k in range(0, 25)]
    vals += [1.7976931348623157e308, -1.7976931348623157e308, math.pi, math.e, 1 / 3]
    texts = [repr(v) for v in vals if math.isfinite(v)]
    # Literals whose double is not their text: overflow (jq 1.8: 1.7976931348623157e+308), underflow, zeros.
    texts += ["1e1000", "-1e1000", "1e-400", "-1e-400", "0", "-0", "0.0", "-0.0", "100000000000000000001",
              "0.1e1", "1E5", "12345678901234567890123"]
    return texts


def run(cmd: list, data: str) -> list:
    r = subprocess.run(cmd, input=data, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({r.returncode}): {r.stderr[:500]}")
    return r.stdout.splitlines()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--jq18", default=os.path.join(HERE, "..", "..", "..", "shared", "tools", "jq-1.8"))
    ap.add_argument("--jq16", default="/usr/bin/jq")
    ap.add_argument("--count", type=int, default=4000)
    a = ap.parse_args()
    if not os.path.isfile(a.jq18):  # (a clone without ../shared: ctest's skip, tests/shared_data.py's line)
        print(f"SKIPPED: number formatting against jq 1.8: {a.jq18} missing")
        return 77
    texts = literals(a.count)
    data = "[" + ",".join(texts) + "]\n"
    got = run([a.jview, "-c", FILTER], data)
    want = run([a.jq18, "-c", FILTER], data)
    if len(got) != len(texts) or len(want) != len(texts):
        print(f"line counts: input {len(texts)}, jview {len(got)}, jq 1.8 {len(want)}")
        return 1
    bad = [(t, g, w) for t, g, w in zip(texts, got, want) if g != w]
    for t, g, w in bad[:20]:
        print(f"DIFF input {t}: jview {g}  jq-1.8 {w}")
    if os.path.exists(a.jq16):
        old = run([a.jq16, "-c", FILTER], data)
        diff16 = [(t, o, w) for t, o, w in zip(texts, old, want) if o != w]
        print(f"jq 1.6 differs from jq 1.8 on {len(diff16)} of {len(texts)} values (jq 1.8 is the reference)")
        for t, o, w in diff16[:3]:
            print(f"  {t}: jq-1.6 {o}  jq-1.8 {w}")
    print(f"{len(texts) - len(bad)} of {len(texts)} values identical to jq 1.8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
