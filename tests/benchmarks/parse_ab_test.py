#!/usr/bin/env python3
"""tests/benchmarks/parse_ab_test.py: parse_ab.py's table on made-up bench runs (no benchmark is run): the figure
read from best_us or median_us, each build's median ratio, the change of the last build over the first, the
geometric means, and builds whose runs lack an engine."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parse_acceptance as pa  # noqa: E402
import parse_ab  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def lines(rows):
    """One bench run's stdout; each row (file, engine, best µs, median µs)."""
    return [json.dumps({"file": f, "workload": "parse", "engine": e, "best_us": best, "median_us": med, "bytes": 1})
            for f, e, best, med in rows]


def run(file, jv, sj, stat):
    rows = [(file, "jview-reuse", jv, 2 * jv), (file, "simdjson-dom-reuse", sj, sj),
            (file, "jview-avx2", jv, jv), (file, "simdjson-dom-reuse-haswell", sj, sj),
            (file, "jview-avx2-one-pass", sj, sj)]
    return pa.parse_run(lines(rows), stat)


# Build A: twitter at 1.0, 1.1, 1.2 of simdjson (median 1.1); build B: 0.9 every run. A tiny file (0.5 µs) is in
# the table but not in the geometric mean.
a = [run("twitter.json", x, 100, "best_us") for x in (100, 110, 120)]
b = [run("twitter.json", 90, 100, "best_us") for _ in range(3)]
for r in a + b:
    r.update(run("small/t.json", 1.0, 0.5, "best_us"))
per_file, means = parse_ab.figures([a, b])
check("A twitter", round(per_file[0]["twitter.json"]["512/sj"], 3), 1.1)
check("B twitter", round(per_file[1]["twitter.json"]["512/sj"], 3), 0.9)
check("geomean leaves out the tiny file", round(means[1]["512/sj"], 3), 0.9)
text = parse_ab.report(["A", "B"], [a, b])
check("row", [ln for ln in text.splitlines() if ln.startswith("| twitter.json |")][0].split(" | ")[1:4],
      ["1.100", "0.900", "0.818"])
check("tiny file shown", "| small/t.json | 2.000 | 2.000 | 1.000 |" in text, True)
check("header", "| file | 512/sj A | 512/sj B | 512/sj change | avx2/hw A |" in text, True)

# median_us is read when asked: jview-reuse's median is twice its best here.
med = [run("twitter.json", 100, 100, "median_us")]
check("median_us", pa.ratio_table(med)["twitter.json"]["512/sj"], [2.0])

# A build without the haswell engine: its cells are "-", no exception.
partial = [pa.parse_run(lines([("twitter.json", "jview-reuse", 1, 1), ("twitter.json", "simdjson-dom-reuse", 1, 1)]),
                        "best_us")]
text = parse_ab.report(["A", "B"], [partial, partial])
check("missing ratio", "| twitter.json | 1.000 | 1.000 | 1.000 | - | - | - | - | - | - |" in text, True)
check("no runs", parse_ab.report(["A", "B"], [[], []]).count("geometric mean"), 1)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("parse_ab: all checks passed")
