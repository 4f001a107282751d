#!/usr/bin/env python3
"""Beyond one machine, measured: one jview process against the Dask example on a LocalCluster and the GNU parallel
recipes, on the same generated NDJSON log (plain shards), wall time and the total CPU time of every process involved
(this script's children: jview, parallel, the Dask scheduler and workers; the cluster's start-up included).
Prints a Markdown table for tests/benchmarks/RESULTS.md ("Beyond one machine"); with --json FILE also the rows
in bench.json's form (workload "cmd-distributed"; compare.py --distributed runs this script and merges them).

    python3 tests/benchmarks/distributed_bench.py --jview build/jview [--size-mb 200] [--shards 8] [--runs 3]
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "distributed"))
import shards  # noqa: E402

EXAMPLE = os.path.join(HERE, "..", "..", "examples", "dask", "jview_dask.py")
PROGRAM = "select(.status >= 500) | .user.id"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(argv, runs):
    """Median wall and CPU seconds of `runs` runs of argv (stdout discarded), the output of the last run and the
    best wall time."""
    walls, cpus, out = [], [], b""
    for _ in range(runs):
        cpu0, t0 = children_cpu(), time.monotonic()
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        walls.append(time.monotonic() - t0)
        cpus.append(children_cpu() - cpu0)
        out = done.stdout
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2], cpus[len(cpus) // 2], out, walls[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--size-mb", type=int, default=200)
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the rows as JSON lines into this file")
    args = ap.parse_args()
    jview = os.path.abspath(args.jview)
    python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    with tempfile.TemporaryDirectory() as work:
        per_shard = args.size_mb * (1 << 20) // 190 // args.shards  # ~190 bytes a record
        paths = shards.write_log_shards(work, args.shards, per_shard)
        plain = []
        for p in paths:  # plain shards only: the comparison is of the fan-out, not of decompression
            if p.endswith(".gz"):
                q = p[:-3]
                shards.concatenated([p], q)
                os.unlink(p)
                p = q
            plain.append(p)
        whole = shards.concatenated(plain, os.path.join(work, "all.ndjson"))
        size = os.path.getsize(whole)
        cases = [("jview, one process (--threads 1)", [jview, "--threads", "1", "-c", PROGRAM, whole]),
                 ("jview --threads 2", [jview, "--threads", "2", "-c", PROGRAM, whole])]
        if shutil.which("parallel"):
            cases += [("GNU parallel --pipepart --block 16M -k, 2 jobs",
                       ["parallel", "--will-cite", "-q", "-j2", "--pipepart", "-a", whole, "--block", "16M", "-k",
                        jview, "--threads", "1", "-c", PROGRAM]),
                      ("GNU parallel -k, one job per shard, 2 jobs",
                       ["parallel", "--will-cite", "-q", "-j2", "-k", jview, "--threads", "1", "-c", PROGRAM,
                        ":::"] + plain)]
        cases.append(("Dask LocalCluster, 2 workers, 32 MiB blocks (start-up included)",
                      [python, EXAMPLE, "--jview", jview, "--workers", "2", "--blocksize", "32MiB", "-c", PROGRAM]
                      + plain))
        reference = None
        rows = []
        print(f"{size / 1e6:.0f} MB of NDJSON in {len(plain)} shards, `{PROGRAM}`, medians of {args.runs} runs, "
              f"{os.cpu_count()} CPUs; CPU = user + system of every process started")
        print()
        print("| run | wall s | CPU s | output same |")
        print("|---|---:|---:|---|")
        for label, argv in cases:
            if "--threads" in argv and subprocess.run([jview, "--threads", "1", "-n", "1"],
                                                      capture_output=True).returncode != 0:
                argv = [a for i, a in enumerate(argv) if a != "--threads" and argv[i - 1] != "--threads"]
            wall, cpu, out, best = measure(argv, args.runs)
            if reference is None:
                reference = out
            print(f"| {label} | {wall:.2f} | {cpu:.2f} | {'yes' if out == reference else 'NO'} |", flush=True)
            rows.append({"file": f"ndjson-log shards ({size / 1e6:.0f} MB, {len(plain)} shards)",
                         "workload": "cmd-distributed", "engine": label, "median_us": round(wall * 1e6, 1),
                         "best_us": round(best * 1e6, 1), "peak_rss_kb": 0,
                         "cpu_us": round(cpu * 1e6, 1), "bytes": size, "runs": args.runs,
                         "same_output": out == reference})
        if args.json:
            with open(args.json, "w") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    sys.exit(main())
