#!/usr/bin/env python3
"""The GNU parallel recipes of examples/parallel/README.md: `parallel --pipepart -k` over one file and one job per
shard (plain and gzip'd) print byte for byte what one jview run prints; a broken shard is reported by file and line
and the other shards' output is kept. Skipped (77) without GNU parallel."""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shards  # noqa: E402

PROGRAM = "select(.status >= 500) | {id, user: .user.id, latency}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jview", required=True)
    args = parser.parse_args()
    jview = os.path.abspath(args.jview)
    parallel = shutil.which("parallel")
    if parallel is None or b"GNU parallel" not in subprocess.run([parallel, "--version"],
                                                                 capture_output=True).stdout:
        print("skipped: GNU parallel is not installed (Debian: apt-get install parallel)")
        return 77
    failures = []

    def check(what, got, want):
        # (parallel's own exit status is the number of jobs that failed)
        if (bool(got.returncode), got.stdout, got.stderr) != (bool(want.returncode), want.stdout, want.stderr):
            failures.append("%s: exit %d (want %d), %d bytes out (want %d), stderr %r (want %r)"
                            % (what, got.returncode, want.returncode, len(got.stdout), len(want.stdout),
                               got.stderr[-300:], want.stderr[-300:]))

    with tempfile.TemporaryDirectory() as work:
        paths = shards.write_log_shards(work, 6, 17000)
        if not shards.reads_gzip(jview):
            failures.append("this jview does not read gzip input")
        whole = shards.concatenated(paths, os.path.join(work, "all.ndjson"))
        one = subprocess.run([jview, "-c", PROGRAM, whole], capture_output=True)
        part = subprocess.run([parallel, "--will-cite", "-q", "--pipepart", "-a", whole, "--block", "1M", "-k",
                               jview, "-c", PROGRAM], capture_output=True, timeout=60)
        check("--pipepart -k", part, one)
        one = subprocess.run([jview, "-c", PROGRAM] + paths, capture_output=True)
        per_file = subprocess.run([parallel, "--will-cite", "-q", "-k", jview, "-c", PROGRAM, ":::"] + paths,
                                  capture_output=True, timeout=60)
        check("one job per shard", per_file, one)

        with open(paths[0], "rb") as f:
            lines = f.read().split(b"\n")
        lines[9000] = b"{" + lines[9000]
        with open(paths[0], "wb") as f:
            f.write(b"\n".join(lines))
        one = subprocess.run([jview, "-c", ".id"] + paths, capture_output=True)
        per_file = subprocess.run([parallel, "--will-cite", "-q", "-k", jview, "-c", ".id", ":::"] + paths,
                                  capture_output=True, timeout=60)
        error = one.stderr.split(b"\n")[0]
        if not error.startswith(b"jview: error: " + paths[0].encode() + b":9001:"):
            failures.append("jview's own error is not where expected: %r" % error)
        if error not in per_file.stderr.split(b"\n"):
            failures.append("broken shard: %r not reported (stderr %r)" % (error, per_file.stderr[-300:]))
        if per_file.stdout != one.stdout:
            failures.append("broken shard: the other shards' output differs")
        if per_file.returncode == 0:
            failures.append("broken shard: parallel exits 0")
    for failure in failures:
        print("FAIL:", failure)
    print("GNU parallel recipes: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
