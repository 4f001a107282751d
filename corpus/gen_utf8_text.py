#!/usr/bin/env python3
"""corpus/gen_utf8_text.py: writes valid UTF-8 text (not JSON) for the `jview --utf8` benchmark: lines of about 80
characters, about half ASCII and the rest 2-, 3- and 4-byte sequences in short runs (Latin, Greek, Cyrillic, Arabic,
CJK, the rest of the BMP without surrogates, emoji and other astral planes), the mix of bench_utf8's
`mixed-utf8-64MiB`. An 8 MiB pool of random lines is generated, then written rotated to a random line boundary
until the size is reached, so 1 GB takes seconds, and no long stretch repeats at the same offset.
Deterministic: the same arguments give the same bytes on any Python 3. Written where asked (build dir or /tmp).

usage: gen_utf8_text.py OUT [--size-mb 1000] [--seed 1]
"""
import argparse
import random


def make_pool(rnd, size):
    lines, total = [], 0
    while total < size:
        chars = []
        while len(chars) < 80:
            x = rnd.random()
            run = 1 + int(rnd.random() * 8)
            if x < 0.50:
                lo, hi = 0x21, 0x7f          # ASCII (a space ends each run)
            elif x < 0.70:
                lo, hi = 0x80, 0x800         # 2 bytes
            elif x < 0.95:
                lo, hi = 0x800, 0xd800       # 3 bytes, below the surrogates
            else:
                lo, hi = 0x10000, 0x20000    # 4 bytes
            chars.extend(chr(rnd.randrange(lo, hi)) for _ in range(run))
            chars.append(" ")
        line = ("".join(chars).rstrip(" ") + "\n").encode("utf-8")
        lines.append(line)
        total += len(line)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size-mb", type=float, default=1000.0, help="size in MB (10^6 bytes), cut at a line end")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rnd = random.Random(args.seed)
    target = int(args.size_mb * 1e6)
    lines = make_pool(rnd, min(target, 8 << 20))
    pool = b"".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line))
    written = 0
    with open(args.out, "wb") as f:
        while written < target:
            s = starts[rnd.randrange(len(starts))]
            chunk = pool[s:] + pool[:s]
            if written + len(chunk) > target:  # cut at the last line end that fits (at least one line)
                cut = chunk.rfind(b"\n", 0, target - written)
                chunk = chunk[:cut + 1] if cut >= 0 else chunk[:chunk.find(b"\n") + 1]
            f.write(chunk)
            written += len(chunk)


if __name__ == "__main__":
    main()
