#!/usr/bin/env python3
"""A clone without ../shared (issue 19 item 6), checked in a tree that has it: the scripts and the unit tests that
use the shared data are run with it pointed at a directory that does not exist. Each must pass on the project's own
data, or exit 77 when it has nothing else to run, and say what it skipped in `SKIPPED: what: reason` lines
(tests/shared_data.py). The CLI suite runs in the portable mode (the default mode's run is cli-default's).

Usage: standalone_test.py --jview PATH --unit PATH --own-corpus DIR"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--unit", required=True)
    ap.add_argument("--own-corpus", required=True)
    args = ap.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "shared")  # never created
        py = sys.executable
        runs = [
            ("conformance", [py, os.path.join(HERE, "conformance", "run_conformance.py"), "--jview", args.jview,
                             "--shared", missing], 0, ["SKIPPED: JSONTestSuite: ", "own cases: "]),
            ("cli", [py, os.path.join(HERE, "cli", "run_cli_tests.py"), "--jview", args.jview, "--mode", "portable",
                     "--shared", missing, "--own-corpus", args.own_corpus], 0,
             ["SKIPPED: benchmark corpus checks: "]),
            ("filter-difftest", [py, os.path.join(HERE, "filter", "difftest.py"), "--jview", args.jview, "--jq",
                                 os.path.join(missing, "tools", "jq-1.8")], 77, ["SKIPPED: jq-language difftest"]),
            ("numbers-jq-format", [py, os.path.join(HERE, "numbers", "jq_format_test.py"), "--jview", args.jview,
                                   "--jq18", os.path.join(missing, "tools", "jq-1.8")], 77,
             ["SKIPPED: number formatting against jq 1.8"]),
            ("hostile (truncation)", [py, os.path.join(HERE, "fuzz", "hostile_tests.py"), "--jview", args.jview,
                                      "--shared", missing, "--only", "truncation"], 0, ["SKIPPED: truncation of"]),
            ("unit (data-driven cases)", [args.unit, "-tc=*corpus*,*JSONTestSuite*,*own conformance*"], 0,
             ["SKIPPED: utf8 kernels on JSONTestSuite: ", "SKIPPED: parser scanners on the shared data: ",
              "SKIPPED: minify on the benchmark corpus: ", "SKIPPED: two-stage parser on the shared data: "]),
        ]
        env = dict(os.environ, JVIEW_SHARED=missing)
        for name, cmd, want_rc, want_lines in runs:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
            problems = []
            if r.returncode != want_rc:
                problems.append(f"exit {r.returncode} (want {want_rc})")
            problems += [f"no line starting {w!r}" for w in want_lines
                         if not any(line.startswith(w) for line in r.stdout.splitlines())]
            if problems:
                failed.append(name)
                print(f"FAIL {name}: {'; '.join(problems)}\n  stdout: {r.stdout[-1500:]}\n  stderr: {r.stderr[-800:]}")
            else:
                skips = sum(line.startswith("SKIPPED: ") for line in r.stdout.splitlines())
                print(f"ok   {name}: exit {r.returncode}, {skips} SKIPPED lines")
    print(f"standalone: {len(runs) - len(failed)} of {len(runs)} passed without the shared data")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
