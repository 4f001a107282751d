#!/usr/bin/env python3
"""No file of the repository is a byte-for-byte copy of a file in ../shared (the benchmark corpus, JSONTestSuite,
jq 1.8): the project's test data is its own, and a clone without ../shared tests with its own texts, not with
copies (issue 19). Compares SHA-256 digests of every file git tracks (every file under SOURCE_DIR but build
directories and .git when git is not there) with those of every file under SHARED_DIR; exits 77 when SHARED_DIR
is missing. Usage: shared_copies_test.py SOURCE_DIR SHARED_DIR"""
import hashlib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import shared_data  # noqa: E402


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def repo_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        names = [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]
        if names:
            return [os.path.join(root, n) for n in names]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
        files += [os.path.join(dirpath, n) for n in names]
    return files


def main():
    root, shared = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shared_data.need_or_exit(shared, "copies of ../shared files in the repository", "dir", shared)
    theirs = {}
    for dirpath, _, names in os.walk(shared):
        for n in names:
            p = os.path.join(dirpath, n)
            if os.path.isfile(p) and not os.path.islink(p):
                theirs.setdefault(digest(p), os.path.relpath(p, shared))
    copies, count = [], 0
    for p in repo_files(root):
        if os.path.isfile(p) and not os.path.islink(p):
            count += 1
            d = digest(p)
            if d in theirs:
                copies.append((os.path.relpath(p, root), theirs[d]))
    for mine, other in copies:
        print(f"{mine}: the same bytes as {shared}/{other}")
    print(f"shared copies: {count} repository files against {len(theirs)} shared files, {len(copies)} copies")
    return 1 if copies else 0


if __name__ == "__main__":
    sys.exit(main())
