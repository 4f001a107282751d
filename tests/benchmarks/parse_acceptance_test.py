#!/usr/bin/env python3
"""tests/benchmarks/parse_acceptance_test.py: parse_acceptance.py's tables and verdicts on made-up bench runs (no
benchmark is run): ratios and their spread, the three verdicts (met, within noise, missed), files left out of the
geometric mean, and runs where engines are missing (a CPU without AVX-512 or AVX2) or no run at all."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parse_acceptance as pa  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def lines(rows):
    """One bench run's stdout: a machine line, then a JSON line per (file, engine, median µs)."""
    out = ['{"machine": {"clock": "thread-cpu"}}']
    for file, engine, us in rows:
        out.append(json.dumps({"file": file, "workload": "parse", "engine": engine, "median_us": us,
                               "best_us": us, "bytes": 1000}))
    out.append(json.dumps({"file": "twitter.json", "workload": "stage1", "engine": "jview-reuse", "median_us": 1}))
    return out


def run(t512, tsj, a2, hw, onep, file="twitter.json"):
    return [(file, "jview-reuse", t512), (file, "simdjson-dom-reuse", tsj), (file, "jview-avx2", a2),
            (file, "simdjson-dom-reuse-haswell", hw), (file, "jview-avx2-one-pass", onep)]


# Three runs. twitter: AVX-512 0.9, 0.95, 1.05 of simdjson (median meets 1.0, one run does not: within noise);
# citm_catalog: 1.1 every run (missed); canada: AVX2 1.0 of haswell; a tiny file (0.5 µs) at 2x simdjson is left
# out of the geometric mean but counts for "no file above 1.3x".
runs = [pa.parse_run(lines(run(90, 100, 100, 100, 120) + run(110, 100, 100, 100, 90, "citm_catalog.json") +
                           run(60, 100, 100, 100, 110, "canada.json") + run(1.0, 0.5, 1, 1, 1, "small/t.json"))),
        pa.parse_run(lines(run(95, 100, 100, 100, 120) + run(110, 100, 100, 100, 90, "citm_catalog.json") +
                           run(60, 100, 100, 100, 110, "canada.json") + run(1.0, 0.5, 1, 1, 1, "small/t.json"))),
        pa.parse_run(lines(run(105, 100, 100, 100, 120) + run(110, 100, 100, 100, 90, "citm_catalog.json") +
                           run(60, 100, 100, 100, 110, "canada.json") + run(1.0, 0.5, 1, 1, 1, "small/t.json")))]
check("stage1 rows ignored", sorted(runs[0]["twitter.json"]), sorted(pa.ENGINES))
table = pa.ratio_table(runs)
check("twitter 512/sj", [round(x, 3) for x in table["twitter.json"]["512/sj"]], [0.9, 0.95, 1.05])
check("spread", pa.spread(table["twitter.json"]["512/sj"]), "0.950 (0.900-1.050)")
g = pa.geomeans(runs, table)
# (0.95 * 1.1 * 0.6) ** (1/3): small/t.json (simdjson 0.5 µs) left out
check("geomean 512/sj", round(g["512/sj"], 4), round((0.95 * 1.1 * 0.6) ** (1 / 3), 4))
verdicts = {t: v for t, _, v in pa.targets(runs, table)}
check("AVX-512 twitter", verdicts["AVX-512 twitter.json at or below 1.0x simdjson DOM"], "within noise")
check("AVX-512 citm", verdicts["AVX-512 citm_catalog.json at or below 1.0x simdjson DOM"], "missed")
check("AVX2 canada", verdicts["AVX2 canada.json within 1.15x simdjson haswell"], "met")
check("AVX2 one-pass", verdicts["AVX2 two-stage faster than one-pass on every file"], "missed")
check("no file above 1.3x", verdicts["AVX-512 no file above 1.3x"], "missed")  # small/t.json at 2x
figures = {t: f for t, f, _ in pa.targets(runs, table)}
check("one-pass figure", figures["AVX2 two-stage faster than one-pass on every file"],
      "4 files: 2 slower (citm_catalog.json, small/t.json), 0 within noise")
check("verdict met", pa.verdict([0.5, 0.9], 1.0), "met")
check("verdict strict", pa.verdict([1.0, 1.0], 1.0, strict=True), "missed")
check("verdict empty", pa.verdict([], 1.0), "not measured")

# A CPU without AVX-512 and the haswell engine: only jview-reuse against simdjson, and AVX2 against one pass.
partial = [pa.parse_run(lines([("twitter.json", "jview-reuse", 100), ("twitter.json", "simdjson-dom-reuse", 100),
                               ("twitter.json", "jview-avx2", 80), ("twitter.json", "jview-avx2-one-pass", 100)]))]
text = pa.report(partial, "CPU: test")
check("partial: haswell not measured", "| AVX2 twitter.json within 1.15x simdjson haswell | - | not measured |" in text,
      True)
check("partial: one pass met", "| AVX2 two-stage faster than one-pass on every file | 1 files: 0 slower (-), 0 within "
      "noise | met |" in text, True)

# No run at all: every verdict "not measured", no exception.
empty = pa.report([], "")
check("empty: no verdict but not measured",
      [line.rsplit("|", 2)[1].strip() for line in empty.splitlines() if line.startswith("| AVX")],
      ["not measured"] * 8)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("parse_acceptance: all checks passed")
