#!/usr/bin/env python3
"""tests/benchmarks/before_after.py: the whole-command rows of compare.py (the same programs: compare.FILTERS) on
twitter.json, citm_catalog.json and the generated 200 MB NDJSON log, for two or more jview executables side by side,
e.g. the last static non-PIE build before issue 19 against the hardened one. One interleaved comparison: each
command runs once untimed (its output hashed: every executable must write the same bytes), then --runs rounds in a
rotating order (twice as many on the small files); medians of wall and CPU time (compare.run_once: posix_spawn,
stdout a drained pipe). Prints a Markdown table, ratios to the first executable.

  python3 tests/benchmarks/before_after.py --data ../shared/corpus --log build/bench-data/ndjson-log-200mb.ndjson \\
      before=../release-before/build/jview after=build/jview 'after-t1=build/jview --threads 1'
"""
import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("executables", nargs="+", help="NAME=COMMAND (a jview and its leading arguments)")
    ap.add_argument("--data", default=os.path.join(compare.ROOT, "..", "shared", "corpus"))
    ap.add_argument("--log", help="the NDJSON log (compare.py's BUILD/bench-data/ndjson-log-200mb.ndjson)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs on the log (twice as many on small files)")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    engines = []
    for spec in args.executables:
        name, _, cmd = spec.partition("=")
        words = shlex.split(cmd)
        engines.append((name, [os.path.abspath(words[0])] + words[1:]))
    files = [os.path.join(args.data, n) for n in ("twitter.json", "citm_catalog.json")] + ([args.log] if args.log
                                                                                           else [])
    print("load average at start: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    lines = ["| command | file | " + " | ".join("%s ms (cpu)" % n for n, _ in engines) + " | " +
             " | ".join("%s / %s" % (n, engines[0][0]) for n, _ in engines[1:]) + " |",
             "|---|---|" + "--:|" * (2 * len(engines) - 1)]
    for path in files:
        kind = compare.kind_of(os.path.basename(path))
        small = os.path.getsize(path) < 5_000_000
        for workload, by_kind in compare.FILTERS:
            if kind not in by_kind:
                continue
            argvs = [(n, cmd + by_kind[kind] + [path]) for n, cmd in engines]
            digests = {n: compare.run_once(a, "pipe", args.timeout, digest=True).digest for n, a in argvs}
            same = len(set(digests.values())) == 1
            samples = {n: [] for n, _ in argvs}
            for rnd in range(args.runs * (2 if small else 1)):
                k = rnd % len(argvs)
                for n, a in argvs[k:] + argvs[:k]:
                    r = compare.run_once(a, "pipe", args.timeout)
                    if r.status == 0:
                        samples[n].append(r)
            med = {n: (compare.median([r.wall for r in s]), compare.median([r.cpu for r in s])) if s else None
                   for n, s in samples.items()}
            base = med[engines[0][0]]
            cells = ["%.1f (%.1f)" % (m[0] * 1e3, m[1] * 1e3) if m else "n/a" for m in med.values()]
            ratios = ["%.2f" % (med[n][0] / base[0]) if med[n] and base else "" for n, _ in engines[1:]]
            label = compare.shell_quote(" ".join(by_kind[kind])) if len(by_kind[kind]) == 1 else \
                " ".join(compare.shell_quote(a) for a in by_kind[kind])
            lines.append("| `%s`%s | %s | %s | %s |" % (label.replace("|", "\\|"), "" if same else " (outputs differ)",
                                                       os.path.basename(path), " | ".join(cells), " | ".join(ratios)))
            print(lines[-1], file=sys.stderr, flush=True)
    print("load average at end: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
