#!/usr/bin/env python3
"""tests/benchmarks/parse_ab.py: two or more builds of the bench program compared on issue 24's parse ratios
(parse_acceptance.py's engines and ratios), in runs that alternate between the builds, so that a change to the
parser is judged against the code before it on the same machine in the same minutes.

Each run starts the build from a fresh copy of its executable, the order of the builds rotates from run to run,
and each ratio's figure is the median over runs of the per-run ratio of two engines' best time (bench's best_us, the
least of its rounds) by default; --stat median_us gives the acceptance's figure instead. On the 2-vCPU VMs of issue
24 (RESULTS.md, twelfth round), two copies of one executable compared this way agreed within 1-2% per corpus file
in two sets of 6-8 runs, where medians of median_us had differed by 5-15% on some files; in a third set, as the
machine's state moved, they differed by up to 10% on single files (geometric mean 0.4%). So compare builds in
two sets, and believe only what holds in both.

  python3 tests/benchmarks/parse_ab.py /tmp/bench-main build/tests/benchmarks/bench --runs 8
  python3 tests/benchmarks/parse_ab.py A B --runs 8 --only twitter.json,small/truenull.json

It prints, per corpus file and ratio, each build's figure and the last build's over the first (below 1: faster),
then the geometric means (files that take simdjson over 1 µs, as parse_acceptance.py counts them).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parse_acceptance as pa  # noqa: E402


def figures(runs_by_build):
    """[{file: {ratio name: median over runs}}] per build, and [{ratio name: geometric mean}] per build."""
    per_file, means = [], []
    for runs in runs_by_build:
        table = pa.ratio_table(runs)
        per_file.append({f: {n: statistics.median(v) for n, v in r.items()} for f, r in table.items()})
        means.append(pa.geomeans(runs, table))
    return per_file, means


def report(names, runs_by_build):
    """The Markdown table: per file and ratio, each build's figure and the last over the first."""
    per_file, means = figures(runs_by_build)
    ratios = [n for n, _, _ in pa.RATIOS]
    head = ["file"]
    for n in ratios:
        head += ["%s %s" % (n, b) for b in names] + ["%s change" % n]
    lines = ["%d runs of each build; each cell: the median over runs of the ratio; change: %s / %s." %
             (min((len(r) for r in runs_by_build), default=0), names[-1], names[0]), "",
             "| " + " | ".join(head) + " |", "|---|" + "--:|" * (len(head) - 1)]

    def row(label, cells_of):
        cells = []
        for n in ratios:
            vals = [cells_of(i, n) for i in range(len(names))]
            cells += ["-" if v is None else "%.3f" % v for v in vals]
            cells.append("%.3f" % (vals[-1] / vals[0]) if vals[0] and vals[-1] else "-")
        return "| %s | " % label + " | ".join(cells) + " |"

    for file in sorted(set().union(*per_file) if per_file else []):
        lines.append(row(file, lambda i, n: per_file[i].get(file, {}).get(n)))
    lines.append(row("geometric mean (over 1 µs)", lambda i, n: means[i].get(n)))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench", nargs="+", help="bench executables, the reference first")
    ap.add_argument("--data", default=os.path.join(pa.ROOT, "..", "shared", "corpus"))
    ap.add_argument("--runs", type=int, default=8, help="runs of each build (default 8)")
    ap.add_argument("--rounds", type=int, default=30, help="bench --rounds (default 30)")
    ap.add_argument("--only", help="bench --only: these corpus files")
    ap.add_argument("--stat", default="best_us", choices=["best_us", "median_us"])
    args = ap.parse_args()
    if len(args.bench) < 2:
        sys.exit("parse_ab: give two or more bench executables")
    for b in args.bench:
        if not os.access(b, os.X_OK):
            sys.exit("parse_ab: %s is not an executable" % b)
    if not os.path.isdir(args.data):
        sys.exit("parse_ab: no corpus at %s (../shared/corpus)" % args.data)
    tail = pa.bench_args(args.data, args.rounds, args.only)
    runs_by_build = [[] for _ in args.bench]
    with tempfile.TemporaryDirectory(prefix="parse_ab.") as tmp:
        for r in range(args.runs):
            # The order rotates from run to run: in some sets without it, the build run first in each round came
            # out 10-20% off on the small files.
            for i in [(r + k) % len(args.bench) for k in range(len(args.bench))]:
                exe = args.bench[i]
                fresh = os.path.join(tmp, "bench%d_%d" % (i, r))
                shutil.copy2(exe, fresh)  # a fresh copy: its pages are not those of the previous run
                out = subprocess.run([fresh] + tail, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     check=True).stdout
                os.unlink(fresh)
                runs_by_build[i].append(pa.parse_run(out.splitlines(), args.stat))
            print("run %d of %d" % (r + 1, args.runs), file=sys.stderr, flush=True)
    names = [chr(ord("A") + i) for i in range(len(args.bench))]
    print(pa.cpu_name())
    print("; ".join("%s: %s" % (n, b) for n, b in zip(names, args.bench)))
    sys.stdout.write(report(names, runs_by_build))


if __name__ == "__main__":
    main()
