#!/usr/bin/env python3
"""`cmake --install` into a temporary DESTDIR with prefix /usr: the binary, the man page and the three completion
files land in their standard places, and the installed binary runs from another directory."""
import argparse
import os
import subprocess
import sys
import tempfile

EXPECTED = ["usr/bin/jview", "usr/share/man/man1/jview.1", "usr/share/bash-completion/completions/jview",
            "usr/share/zsh/vendor-completions/_jview", "usr/share/fish/vendor_completions.d/jview.fish"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cmake", default="cmake")
    args = ap.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as dest:
        env = dict(os.environ, DESTDIR=dest)
        subprocess.run([args.cmake, "--install", args.build_dir, "--prefix", "/usr"], check=True, env=env,
                       capture_output=True)
        for rel in EXPECTED:
            ok = os.path.isfile(os.path.join(dest, rel))
            print(("ok   " if ok else "FAIL ") + rel)
            if not ok:
                failed.append(rel)
        binary = os.path.join(dest, "usr/bin/jview")
        with tempfile.TemporaryDirectory() as elsewhere:
            r = subprocess.run([binary, "-c", ".a | test(\"b+\")"], input=b'{"a":"abbb"}', cwd=elsewhere,
                               capture_output=True)
            ok = r.returncode == 0 and r.stdout == b"true\n" and r.stderr == b""
            print(("ok   " if ok else "FAIL ") + f"installed binary runs from {elsewhere}: {r.stdout!r} {r.stderr!r}")
            if not ok:
                failed.append("run")
            r = subprocess.run([binary, "--version"], cwd=elsewhere, capture_output=True, text=True)
            ok = r.returncode == 0 and r.stdout.startswith("jview 0.2.0\n")
            print(("ok   " if ok else "FAIL ") + "--version: " + r.stdout.splitlines()[0] if r.stdout else "")
            if not ok:
                failed.append("version")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
