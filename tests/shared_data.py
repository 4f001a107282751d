"""tests/shared_data.py: what the test scripts take from ../shared (the benchmark corpus, JSONTestSuite, jq 1.8.2)
and how they say that a part is missing. A clone without ../shared still passes `make test`: each script runs its
own cases and the project's own data (corpus/gen_own.py, tests/conformance/cases/), and for each part it cannot run
prints one line

    SKIPPED: <what>: <reason>

which tests/skip_summary.py collects from ctest's log at the end of `make test`. A script that can run nothing
without the shared data exits 77 (ctest's SKIP_RETURN_CODE) after that line."""
import os
import sys

SKIP = 77
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_dir():
    """../shared beside the checkout, or $JVIEW_SHARED."""
    return os.environ.get("JVIEW_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")


def skipped(what, reason):
    print(f"SKIPPED: {what}: {reason}", flush=True)


def need(path, what, kind="file", shared=None):
    """path if it exists (a directory for kind "dir"), else None after a SKIPPED line naming what is missing;
    shared (the data's root) when given makes the reason say that all of it is missing."""
    ok = os.path.isdir(path) if kind == "dir" else os.path.isfile(path)
    if ok:
        return path
    if shared is not None and not os.path.isdir(shared):
        skipped(what, f"{path} missing: no shared data at {shared}")
    else:
        skipped(what, f"{path} missing")
    return None


def need_or_exit(path, what, kind="file", shared=None):
    """As need, but exits 77 when it is missing: the test has nothing else to run."""
    if need(path, what, kind, shared) is None:
        sys.exit(SKIP)
    return path


def jq18(shared):
    return os.path.join(shared, "tools", "jq-1.8")


def json_files(directory):
    """The .json and .ndjson files under directory, sorted, or [] when there is none."""
    found = []
    for root, _, names in os.walk(directory):
        for n in names:
            if n.endswith(".json") or n.endswith(".ndjson"):
                found.append(os.path.join(root, n))
    return sorted(found)
