#!/usr/bin/env python3
"""corpus/gen_own.py: the project's own test corpus, written into OUT_DIR (the build directory's corpus-own/), so
that a clone without ../shared still tests parsing, writing and every kernel mode on documents of each kind the
shared corpus holds: a jeopardy-like array and an NDJSON log (gen_jeopardy.py, gen_ndjson_log.py at 1 MB), numbers
of every grammar form (canada/numbers-like), strings with every escape and non-ASCII (twitterescaped-like), deep
and wide nesting, pretty-printed text with long whitespace runs, and the samples in corpus/samples/.
Deterministic: the same bytes on every run and any Python 3; a file already up to date is not rewritten.

usage: gen_own.py OUT_DIR
"""
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def numbers(rnd):
    vals = []
    for _ in range(20000):
        k = rnd.randrange(8)
        if k == 0:
            vals.append(str(rnd.randrange(-10**6, 10**6)))
        elif k == 1:
            vals.append(str(rnd.randrange(10**18, 10**25)))  # beyond int64: kept as written
        elif k == 2:
            vals.append(repr(rnd.uniform(-180, 180)))
        elif k == 3:
            vals.append(f"{rnd.randrange(1, 10)}.{rnd.randrange(0, 10**16):016d}e{rnd.randrange(-330, 310)}")
        elif k == 4:
            vals.append(f"-{rnd.randrange(1, 999)}.{rnd.randrange(0, 10**6):06d}E+{rnd.randrange(0, 20)}")
        elif k == 5:
            vals.append(rnd.choice(["0", "-0", "0.0", "1.50", "1e2", "1E-2", "-0.0e0", "123456789012345678"]))
        elif k == 6:
            vals.append(f"{rnd.randrange(0, 100)}.{'0' * rnd.randrange(1, 30)}1")
        else:
            vals.append(repr(rnd.random() * 10 ** rnd.randrange(-10, 10)))
    rows = [", ".join(vals[i:i + 8]) for i in range(0, len(vals), 8)]
    return ('{"type": "numbers", "rows": [\n  [' + "],\n  [".join(rows) + "]\n]}\n").encode()


def escapes(rnd):
    pieces = ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u00e9",
              "\\ud83d\\ude00", "\\uFFFF", "caf\u00e9", "\u65e5\u672c", "\U0001f600", "\u0394\u03b5", "plain text ",
              "a" * 40, "<tag attr='x'>", "\u2028"]
    items = []
    for i in range(4000):
        s = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(0, 12)))
        key = "k" + "".join(rnd.choice(pieces[:9] + ["x", "y"]) for _ in range(rnd.randrange(0, 3)))
        items.append(f'{{"id":{i},"{key}":"{s}","t":[{"true" if i % 3 else "false"},null]}}')
    return ("[" + ",".join(items) + "]\n").encode()


def nested(rnd):
    out = []
    for depth in (1, 2, 31, 32, 33, 64, 65, 200, 1000):  # around vector widths and stack growth
        out.append("[" * depth + "1" + "]" * depth)
        out.append('{"a":' * depth + "{}" + "}" * depth)
    wide = "{" + ",".join(f'"key{i}":{{"v":[{i},{{}},[]]}}' for i in range(5000)) + "}"
    out.append(wide)
    return ("\n".join(out) + "\n").encode()


def pretty(rnd):
    def value(d):
        k = rnd.randrange(6 if d < 6 else 3)
        if k == 0:
            return str(rnd.randrange(-1000, 1000))
        if k == 1:
            return '"' + "".join(rnd.choice("abc \u00e9") for _ in range(rnd.randrange(0, 20))) + '"'
        if k == 2:
            return rnd.choice(["true", "false", "null"])
        pad = "\n" + " " * (4 * (d + 1))
        if k in (3, 4):
            return "[" + ",".join(pad + value(d + 1) for _ in range(rnd.randrange(0, 5))) + "\n" + " " * (4 * d) + "]"
        return "{" + ",".join(f'{pad}"f{j}" :  ' + value(d + 1) for j in range(rnd.randrange(0, 5))) + \
            "\n" + " " * (4 * d) + "}"
    return ("[" + ",\n".join(value(1) for _ in range(400)) + "]\r\n").encode()


def write_if_changed(path, data):
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n")[-1], file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in (("numbers.json", numbers), ("escapes.json", escapes), ("nested.ndjson", nested),
                       ("pretty.json", pretty)):
        write_if_changed(os.path.join(out, name), make(random.Random(name)))
    for gen, name in (("gen_jeopardy.py", "jeopardy.json"), ("gen_ndjson_log.py", "log.ndjson")):
        path = os.path.join(out, name)
        subprocess.run([sys.executable, os.path.join(HERE, gen), path + ".new", "--size-mb", "1"], check=True)
        with open(path + ".new", "rb") as f:
            write_if_changed(path, f.read())
        os.remove(path + ".new")
    for name in sorted(os.listdir(os.path.join(HERE, "samples"))):
        if name.endswith(".json") and name != "broken.json":
            with open(os.path.join(HERE, "samples", name), "rb") as f:
                write_if_changed(os.path.join(out, "sample_" + name), f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
