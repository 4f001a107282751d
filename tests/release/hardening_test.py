#!/usr/bin/env python3
"""The built executable is an ordinary hardened one (issue 19): readelf shows a PIE (ELF type DYN) with GNU_RELRO and
BIND_NOW, a non-executable GNU_STACK, references to __stack_chk_fail and fortified *_chk functions, libonig.so.5 in
NEEDED, no dlopen; and it is under 3 MB stripped (a stripped copy is measured)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIMIT = 3 * 1000 * 1000


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    args = ap.parse_args()
    if shutil.which("readelf") is None or shutil.which("strip") is None:
        print("SKIP: readelf/strip (binutils) not installed")
        return 77
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    header = readelf("-h", args.jview)
    check(re.search(r"Type:\s+DYN\b", header) is not None, "ELF type DYN (position-independent executable)")
    segments = readelf("-l", args.jview)
    check(re.search(r"^\s*GNU_RELRO\b", segments, re.M) is not None, "GNU_RELRO segment")
    stack = re.search(r"^\s*GNU_STACK\s.*\s(R?W?E?)\s+0x[0-9a-f]+\s*$", segments, re.M)
    check(stack is not None and "E" not in stack.group(1), "GNU_STACK present and not executable")
    entry = re.search(r"Entry point address:\s+(0x[0-9a-f]+)", header)
    symbols = readelf("-s", args.jview)
    start = re.search(r"^\s*\d+:\s+([0-9a-f]+)\s+\d+\s+FUNC\s+GLOBAL\s+DEFAULT\s+\d+\s+_start$", symbols, re.M)
    if start is not None and entry is not None:
        check(int(start.group(1), 16) == int(entry.group(1), 16), "entry point is libc's _start")
    dynamic = readelf("-d", args.jview)
    check(re.search(r"\(FLAGS\)\s+.*BIND_NOW", dynamic) is not None or
          re.search(r"\(FLAGS_1\)\s+Flags:.*\bNOW\b", dynamic) is not None, "BIND_NOW (FLAGS/FLAGS_1 NOW)")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    check("libonig.so.5" in needed, f"libonig.so.5 in NEEDED ({', '.join(needed)})")
    dynsyms = readelf("--dyn-syms", args.jview)
    undefined = set(re.findall(r"\sUND\s+([A-Za-z_][\w]*)", dynsyms))
    check("__stack_chk_fail" in undefined, "__stack_chk_fail referenced")
    fortified = sorted(s for s in undefined if s.startswith("__") and s.endswith("_chk") and s != "__stack_chk_fail")
    check(len(fortified) >= 2, f"fortified functions referenced ({', '.join(fortified)})")
    check(not any(s.startswith("dlopen") or s.startswith("dlsym") for s in undefined), "no dlopen/dlsym")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "jview")
        shutil.copyfile(args.jview, copy)
        subprocess.run(["strip", copy], check=True)
        size = os.path.getsize(copy)
    check(size < LIMIT, f"stripped size {size} bytes < {LIMIT}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all hardening checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
