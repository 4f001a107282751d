#!/usr/bin/env python3
"""tests/benchmarks/plot_test.py: plot.py over bench.json files with rows missing: no rows, in-process rows only,
a file without jview's row, whole commands without jq, threads rows; it must exit 0 each time and write exactly the
charts that have rows, each a well-formed SVG. Skipped (status 77) when no Python here has matplotlib."""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINE = {"cpu": "test CPU", "cores": 2, "date": "2026-12-04T00:00:00Z", "load_average_at_start": "0.10"}


def python_with_matplotlib():
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if py and os.access(py, os.X_OK) and \
                subprocess.run([py, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return py
    return None


def row(file, workload, engine, us, **kw):
    r = {"file": file, "workload": workload, "engine": engine, "median_us": us, "best_us": us, "bytes": 1000}
    r.update(kw)
    return r


CASES = [
    ("no rows", [], []),
    ("in-process rows only, one file without jview",
     [row("a.json", "parse", "jview-reuse", 100), row("a.json", "parse", "simdjson-dom-reuse", 90),
      row("a.json", "parse", "rapidjson", 900), row("b.json", "parse", "rapidjson", 50),
      row("a.json", "dump-compact", "jview", 200)],  # dump-compact: no competitor
     ["inprocess-parse.svg"]),
    ("commands without jq, and a timed-out row",
     [row("twitter.json", "cmd-minify", "jview", 3000, command="build/jview -c . twitter.json | (read)"),
      row("twitter.json", "cmd-minify", "gojq", 30000, command="gojq -c . twitter.json | (read)"),
      row("log.ndjson", "cmd-pretty", "jview", 9e6, timed_out=True),
      row("log.ndjson", "cmd-pretty", "jq-1.8", 5e6)],
     ["commands.svg"]),
    ("threads rows", [row("log.ndjson", "cmd-minify", "jview-threads-%d" % n, 1000 / n) for n in (1, 2, 4)] +
     [row("log.ndjson", "cmd-minify", "jview-threads-x", 1), {"file": "broken"}],
     ["threads.svg"]),
    ("the --huge rows: --threads 1, 2 and every core from the file; pipes and compressed files left out",
     [row("big.ndjson", "cmd-path", e, us) for e, us in (("jview", 900), ("jview-t2", 480), ("jview-tall", 470),
                                                         ("cat|jview", 950), ("zcat|jq-1.8", 20000))] +
     [row("big.ndjson.gz", "cmd-path", "jview", 1200)],
     ["threads.svg"]),
    ("a single thread count is no scaling", [row("big.ndjson", "cmd-path", "jview", 900)], []),
]


def series_cases():
    """thread_series without matplotlib: on a 2-core machine `jview-tall` is 2 threads, as `jview-t2` is, and the
    row that names its count is the one kept, in either order."""
    sys.path.insert(0, HERE)
    import plot
    huge = [row("big.ndjson", "cmd-path", e, us) for e, us in (("jview", 900), ("jview-t2", 480), ("jview-tall", 470))]
    want = {("cmd-path", "big.ndjson"): {1: 900, 2: 480}}
    orders = (("t2 before tall", huge), ("tall before t2", huge[::-1]))
    failed = []
    for name, rows in orders:
        got = plot.thread_series(rows, MACHINE)
        if got != want:
            failed.append((name, "series %s, not %s" % (got, want)))
    return len(orders) - len(failed), failed


def main():
    s_passed, s_failed = series_cases()
    py = python_with_matplotlib()
    if py is None:
        for name, detail in s_failed:
            print("FAIL %s: %s" % (name, detail))
        print("plot: %d passed, %d failed, charts skipped (no matplotlib)" % (s_passed, len(s_failed)))
        return 1 if s_failed else 77
    passed, failed = s_passed, list(s_failed)
    for name, rows, want in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            bench = os.path.join(tmp, "bench.json")
            with open(bench, "w") as f:
                json.dump({"machine": MACHINE, "rows": rows}, f)
            out = os.path.join(tmp, "plots")
            p = subprocess.run([py, os.path.join(HERE, "plot.py"), "--bench", bench, "--out", out],
                               capture_output=True, text=True)
            got = sorted(os.listdir(out)) if os.path.isdir(out) else []
            problems = []
            if p.returncode != 0:
                problems.append("exit %d: %s" % (p.returncode, p.stderr[-300:]))
            if got != sorted(want):
                problems.append("charts %s, not %s" % (got, sorted(want)))
            for svg in got:
                try:
                    ET.parse(os.path.join(out, svg))
                except ET.ParseError as e:
                    problems.append("%s: %s" % (svg, e))
            if not problems and got:  # the same data give the same bytes (no date, fixed ids)
                first = {svg: open(os.path.join(out, svg), "rb").read() for svg in got}
                subprocess.run([py, os.path.join(HERE, "plot.py"), "--bench", bench, "--out", out],
                               capture_output=True)
                for svg in got:
                    if open(os.path.join(out, svg), "rb").read() != first[svg]:
                        problems.append("%s differs when drawn again" % svg)
            if problems:
                failed.append((name, "; ".join(problems)))
            else:
                passed += 1
    for name, detail in failed:
        print("FAIL %s: %s" % (name, detail))
    print("plot: %d passed, %d failed" % (passed, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
