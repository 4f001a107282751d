#!/usr/bin/env python3
"""examples/dask/jview_dask.py on a LocalCluster of 2 worker processes over TCP on 127.0.0.1: over ~20 MB of
generated NDJSON in plain and gzip'd shards its output is byte for byte one jview run's; a shard with a parse error
is reported by file, line and column and the other shards' output is kept. Skipped (77) without python3-distributed."""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shards  # noqa: E402

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "dask", "jview_dask.py")
PROGRAM = "select(.status >= 500) | {id, user: .user.id, latency}"


def python_with_dask():
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run([python, "-c", "import dask.distributed"],
                                                     capture_output=True).returncode == 0:
            return python
    return None


def run_example(python, jview, arguments):
    return subprocess.run([python, EXAMPLE, "--jview", jview, "--workers", "2", "--blocksize", "1MiB"] + arguments,
                          capture_output=True, timeout=100)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jview", required=True)
    args = parser.parse_args()
    jview = os.path.abspath(args.jview)
    python = python_with_dask()
    if python is None:
        print("skipped: no Python with dask.distributed (Debian: apt-get install python3-distributed)")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as work:
        paths = shards.write_log_shards(work, 8, 17000)
        if not shards.reads_gzip(jview):
            failures.append("this jview does not read gzip input")
        one = subprocess.run([jview, "-c", PROGRAM] + paths, capture_output=True)
        many = run_example(python, jview, ["-c", PROGRAM] + paths)
        if (many.returncode, many.stdout, many.stderr) != (0, one.stdout, b""):
            failures.append("clean shards: exit %d, %d bytes out (jview: %d), stderr %r"
                            % (many.returncode, len(many.stdout), len(one.stdout), many.stderr[-600:]))
        elif one.stdout.count(b"\n") < 10000:
            failures.append("clean shards: only %d outputs" % one.stdout.count(b"\n"))

        # A parse error in the middle of a plain shard, in a block after its first.
        broken = paths[1]
        with open(broken, "rb") as f:
            lines = f.read().split(b"\n")
        lines[12000] = lines[12000][:-5]
        with open(broken, "wb") as f:
            f.write(b"\n".join(lines))
        one = subprocess.run([jview, "-c", ".id"] + paths, capture_output=True)
        many = run_example(python, jview, ["-c", ".id"] + paths)
        first_error = one.stderr.split(b"\n")[0]
        if not first_error.startswith(b"jview: error: " + broken.encode() + b":12002:1:"):
            failures.append("jview's own error is not where expected: %r" % first_error)
        if first_error not in many.stderr.split(b"\n"):
            failures.append("broken shard: error %r not reported; stderr %r" % (first_error, many.stderr[-600:]))
        if many.returncode != one.returncode:
            failures.append("broken shard: exit %d, jview %d" % (many.returncode, one.returncode))
        broken_ids = range(17000, 2 * 17000)
        kept = [line for line in many.stdout.split(b"\n") if line and int(line) not in broken_ids]
        wanted = [line for line in one.stdout.split(b"\n") if line and int(line) not in broken_ids]
        if kept != wanted or len(kept) != 7 * 17000:
            failures.append("broken shard: the other shards' output differs (%d values, %d wanted)"
                            % (len(kept), len(wanted)))
        # Programs that need the whole input are refused.
        refused = subprocess.run([python, EXAMPLE, "--jview", jview, "-c", "[inputs]"] + paths, capture_output=True)
        if refused.returncode != 2 or b"uses inputs" not in refused.stderr:
            failures.append("[inputs] not refused: exit %d, %r" % (refused.returncode, refused.stderr))
    for failure in failures:
        print("FAIL:", failure)
    print("dask example: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
