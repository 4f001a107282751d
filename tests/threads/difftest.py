#!/usr/bin/env python3
"""tests/threads/difftest.py: `--threads 1` against `--threads 4` over many inputs and programs: every byte of
stdout and stderr and the exit status must be equal. Inputs: NDJSON, pretty multi-line values, values several to a
line or spread over lines in odd ways, parse errors anywhere, byte order marks, no final newline, several files, a
missing one; pieces as small as 1 byte (JVIEW_CHUNK_SIZE, read by the CLI for tests) so that values span every kind
of boundary; from files, from standard input redirected from a file, and through a pipe. The same over compressed
inputs (tests/threads/compressed_inputs.py: gzip, zstd, xz and bzip2, whole, concatenated members, truncated and
corrupt streams), alone, mixed with plain files, on standard input; intact streams also through a pipe.

usage: difftest.py --jview build/jview [--seed 1] [--quick]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import compressed_inputs


def rand_value(rnd, depth=0):
    k = rnd.random()
    if depth > 2 or k < 0.3:
        return rnd.choice([0, 1, 7, -3, 2.5, 1e3, True, False, None, "x", "h\u00e9", "a\nb", "", 12345678901234567890])
    if k < 0.65:
        return {rnd.choice("abcnxyz"): rand_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}
    return [rand_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]


def texts(rnd):
    """(name, bytes) inputs."""
    vals = [rand_value(rnd) for _ in range(40)]
    for i in range(0, len(vals), 5):  # some objects with the fields the programs look at
        vals[i] = {"a": i, "n": i % 9, "s": "v%d" % i, "b": [i, None, False]}
    nd = "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in vals).encode()
    pretty = "".join(json.dumps(v, indent=2) + "\n" for v in vals).encode()
    odd = []
    for v in vals:  # values split over lines without indentation, several to a line
        t = json.dumps(v, separators=(",", ":"))
        t = t.replace(",", ",\n") if rnd.random() < 0.5 else t
        odd.append(t + (" " if rnd.random() < 0.4 else "\n"))
    odd = "".join(odd).encode()
    out = [("nd", nd), ("pretty", pretty), ("odd", odd), ("nonl", nd.rstrip(b"\n")), ("bom", b"\xef\xbb\xbf" + nd),
           ("empty", b""), ("spaces", b"  \n\n \t\n"), ("scalars", b"1 2 3\n4\n\"s\" true\nnull 5"),
           ("crlf", nd.replace(b"\n", b"\r\n"))]
    for i in range(6):  # parse errors at random places
        base = rnd.choice([nd, pretty, odd])
        at = rnd.randrange(1, len(base))
        junk = rnd.choice([b"}", b"]", b",", b"x", b"\"", b"{", b"\x01", b"\n]\n"])
        out.append(("bad%d" % i, base[:at] + junk + base[at:]))
    for i in range(3):  # cut short
        base = rnd.choice([nd, pretty, odd])
        out.append(("trunc%d" % i, base[: rnd.randrange(1, len(base))]))
    return out


PROGRAMS = [
    ["-c", "."], ["."], ["-c", ".a"], ["-r", ".s?"], ["-c", "debug"], ["-c", "stderr"],
    ["-c", "if .n == 3 then error(\"boom\") else . end"], ["-c", ".a + 1"], ["-c", "if .n == 7 then halt_error else . end"],
    ["-c", "if .n == 4 then halt else .a end"], ["-e", ".n"], ["-e", ".b[2]?"], ["-e", "empty"],
    ["-c", "input_line_number"], ["-c", "input_filename"], ["-c", "limit(1; .[]?)"], ["-c", "first(.[]?)"],
    ["-c", "select(.a? > 10)"], ["-c", ".[]?"], ["-c", "try error catch ."], ["-c", "error({a:1})"],
    ["-j", "tostring"], ["--seq", "-c", "."], ["-c", "[.,input]"], ["-c", "debug(\"d\"; .a?) | .b?"],
    ["--raw-output0", ".s? // empty"], ["-S", "--tab", "."], ["-c", "{a} | tojson | fromjson"],
    ["-e", "if .n == 7 then \"x\\n\" | halt_error(-4) else .b? end"],
    ["-e", "if .n == 7 then \"x\\n\" | halt_error(-1) else .n end"],
]
CHUNKS = ["1", "2", "3", "7", "16", "61", "400", ""]


def run(jview, threads, args, files, stdin_bytes=None, chunk="", pipe=False):
    env = dict(os.environ)
    env.pop("JVIEW_THREADS", None)
    if chunk:
        env["JVIEW_CHUNK_SIZE"] = chunk
    cmd = [jview, "--threads", str(threads)] + args + files
    if pipe:
        p = subprocess.run(cmd, input=stdin_bytes, capture_output=True, env=env, timeout=60)
    elif stdin_bytes is not None:
        with tempfile.TemporaryFile() as f:
            f.write(stdin_bytes)
            f.seek(0)
            p = subprocess.run(cmd, stdin=f, capture_output=True, env=env, timeout=60)
    else:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="fewer chunk sizes")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    inputs = texts(rnd)
    failures = 0
    runs = 0
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, data in inputs:
            paths[name] = os.path.join(d, name + ".json")
            with open(paths[name], "wb") as f:
                f.write(data)
        groups = [[paths[n]] for n, _ in inputs]
        groups.append([paths["nd"], paths["bad0"], paths["pretty"]])
        groups.append([paths["trunc0"], os.path.join(d, "missing.json"), paths["odd"]])
        chunks = CHUNKS if not a.quick else ["1", "7", ""]

        def check(desc, one, four):
            nonlocal failures, runs
            runs += 1
            if one != four:
                failures += 1
                if failures <= 10:
                    print("DIFFERENT:", desc)
                    for what, x, y in zip(("status", "stdout", "stderr"), one, four):
                        if x != y:
                            print("  %s:\n    threads 1: %r\n    threads 4: %r" % (what, x if isinstance(x, int) else x[:600], y if isinstance(y, int) else y[:600]))

        for prog in PROGRAMS:
            for files in groups:
                chunk = rnd.choice(chunks)
                desc = "%s %s JVIEW_CHUNK_SIZE=%s" % (prog, [os.path.basename(f) for f in files], chunk)
                check(desc, run(a.jview, 1, prog, files, chunk=chunk), run(a.jview, 4, prog, files, chunk=chunk))
        for name, data in inputs:  # every chunk size over each input, the identity and an erring program
            for chunk in chunks:
                for prog in (["-c", "."], ["-c", "if .n == 3 then error(\"e\") else input_filename end"]):
                    desc = "%s %s JVIEW_CHUNK_SIZE=%s" % (prog, name, chunk)
                    check(desc, run(a.jview, 1, prog, [paths[name]], chunk=chunk),
                          run(a.jview, 4, prog, [paths[name]], chunk=chunk))
            # standard input: from the file, and through a pipe (line numbers of a pipe depend on how its bytes
            # arrive, with one thread as with jq: only programs that name none)
            chunk = rnd.choice(chunks)
            check("stdin < %s" % name, run(a.jview, 1, ["-c", "."], [], data, chunk),
                  run(a.jview, 4, ["-c", "."], [], data, chunk))
            if not name.startswith(("bad", "trunc")):
                check("pipe %s" % name, run(a.jview, 1, ["-c", ".a?"], [], data, chunk, pipe=True),
                      run(a.jview, 4, ["-c", ".a?"], [], data, chunk, pipe=True))
        # compressed inputs: each variant with two programs at a random chunk size; then a few groups mixing formats,
        # plain files and a missing one, and standard input and a pipe
        packed = compressed_inputs.variants(rnd, inputs, compressed_inputs.available())
        for name, data in packed:
            paths[name] = os.path.join(d, name)
            with open(paths[name], "wb") as f:
                f.write(data)
        for name, data in packed:
            for prog in (["-c", "."], rnd.choice(PROGRAMS)):
                chunk = rnd.choice(chunks)
                desc = "%s %s JVIEW_CHUNK_SIZE=%s" % (prog, name, chunk)
                check(desc, run(a.jview, 1, prog, [paths[name]], chunk=chunk),
                      run(a.jview, 4, prog, [paths[name]], chunk=chunk))
        names = [n for n, _ in packed]
        for i in range(12):
            files = [paths[n] for n in rnd.sample(names, 3)] + [paths[rnd.choice(["nd", "pretty", "bad1"])]]
            if i % 4 == 0:
                files.insert(1, os.path.join(d, "missing.json.gz"))
            rnd.shuffle(files)
            prog, chunk = rnd.choice(PROGRAMS), rnd.choice(chunks)
            desc = "%s %s JVIEW_CHUNK_SIZE=%s" % (prog, [os.path.basename(f) for f in files], chunk)
            check(desc, run(a.jview, 1, prog, files, chunk=chunk), run(a.jview, 4, prog, files, chunk=chunk))
        for name, data in rnd.sample(packed, min(24, len(packed))):
            chunk = rnd.choice(chunks)
            check("stdin < %s" % name, run(a.jview, 1, ["-c", "."], [], data, chunk),
                  run(a.jview, 4, ["-c", "."], [], data, chunk))
        # Through a pipe, intact streams only: as with a plain text cut short, where a broken stream's error falls
        # among the values depends on how its bytes arrive (one thread writes each value as soon as it is complete,
        # then meets the decoder's error; the threads' reader waits for the next newline), so a truncated or
        # corrupt stream is compared from files and redirected stdin above, not through a pipe.
        intact = [(n, d) for n, d in packed if compressed_inputs.intact(n) and not n.startswith(("bad", "trunc"))]
        for name, data in rnd.sample(intact, min(24, len(intact))):
            chunk = rnd.choice(chunks)
            check("pipe %s" % name, run(a.jview, 1, ["-c", ".a?"], [], data, chunk, pipe=True),
                  run(a.jview, 4, ["-c", ".a?"], [], data, chunk, pipe=True))
    print("%d comparisons, %d different" % (runs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
