#!/usr/bin/env python3
"""tests/skip_summary.py: what `make test` skipped, and why, read from ctest's JUnit reports (`ctest --output-junit
ctest-junit.xml`, in each build directory) and plain logs (the AArch64 run). Two kinds: whole tests that exited 77
(ctest's SKIP_RETURN_CODE: jq 1.8 of the shared data missing, a CPU without a kernel level, clang missing), and
parts of tests that ran, each named by a `SKIPPED: <what>: <reason>` line (tests/shared_data.py,
tests/unit/test_data.hpp). Lines with the same what and reason are grouped, with the tests that printed them.
Always exits 0 (the tests' own status is ctest's).

Usage: skip_summary.py BUILD_DIR_OR_LOG..."""
import os
import re
import sys
import xml.etree.ElementTree as ET

SKIP_LINE = re.compile(r"^SKIPPED: (.+?): (.+)$", re.M)
OTHER_SKIP = re.compile(r"^(?:skipped|run\.sh: SKIP): (.+)$", re.M)
REPORT = "ctest-junit.xml"


def from_junit(path, source):
    tests = []
    for case in ET.parse(path).getroot().iter("testcase"):
        out = "".join((e.text or "") for e in case.iter("system-out"))
        tests.append({"name": f"{case.get('name')} ({source})", "whole": case.get("status") == "notrun",
                      "parts": SKIP_LINE.findall(out), "other": OTHER_SKIP.findall(out)})
    return tests


def main():
    tests = []
    logs = 0
    for arg in sys.argv[1:]:
        report = os.path.join(arg, REPORT)
        if os.path.isdir(arg) and os.path.isfile(report):
            tests += from_junit(report, os.path.basename(os.path.normpath(arg)))
            logs += 1
        elif os.path.isfile(arg):
            with open(arg, encoding="utf-8", errors="replace") as f:
                out = f.read()
            tests.append({"name": os.path.relpath(arg), "whole": False, "parts": SKIP_LINE.findall(out),
                          "other": []})
            logs += 1
    print("---- skipped tests (tests/skip_summary.py) ----")
    if not logs:
        print("no test logs found in " + " ".join(sys.argv[1:]))
        return 0
    whole = [t for t in tests if t["whole"]]
    groups = {}
    for t in tests:
        for what, reason in dict.fromkeys(t["parts"]):
            groups.setdefault((what, reason), []).append(t["name"])
    if not whole and not groups:
        print("nothing skipped")
        return 0
    if whole:
        print(f"{len(whole)} whole tests skipped (exit 77):")
        for t in whole:
            why = "; ".join(dict.fromkeys(r for _, r in t["parts"])) or "; ".join(t["other"]) or "(no reason given)"
            print(f"  {t['name']}: {why}")
    partial = {k: v for k, v in groups.items() if not all(n in {t["name"] for t in whole} for n in v)}
    if partial:
        print(f"{len(partial)} parts skipped inside tests that ran:")
        for (what, reason), names in sorted(partial.items()):
            print(f"  {what}: {reason}")
            print(f"      in {len(names)}: {', '.join(names)}")
    shared = sum(1 for t in whole if any("shared" in r or "jq-1.8" in r for _, r in t["parts"]))
    shared_parts = sum(1 for (w, r) in partial if "shared" in r or "shared" in w)
    if shared or shared_parts:
        print(f"for want of ../shared: {shared} whole tests and {shared_parts} parts skipped (README.md says what it "
              "adds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
