#!/usr/bin/env python3
"""End-to-end tests of the jview executable: exact stdout bytes, stderr and exit status for each case in
cases.py, plus differential checks against jq 1.8 (../shared/tools/jq-1.8) over the benchmark corpus.

Usage: run_cli_tests.py --jview PATH --mode default|portable|ssse3 --shared DIR
The mode (a kernel level, simd/kernels.hpp) sets JVIEW_KERNELS, or its alias JVIEW_FORCE_SSSE3 for ssse3, so that
every kernel set runs the same cases."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_table  # noqa: E402


def env_for(mode):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JVIEW_") and k not in ("JQ_COLORS", "NO_COLOR")}
    if mode == "ssse3":
        env["JVIEW_FORCE_SSSE3"] = "1"  # the alias, so that it is exercised too
    elif mode != "default":
        env["JVIEW_KERNELS"] = mode
    return env


def run(cmd, stdin=b"", env=None, cwd=None, timeout=120):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Runner:
    def __init__(self, jview, mode, shared):
        self.jview = jview
        self.env = env_for(mode)
        self.shared = shared
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed.append((name, detail))

    def run_case(self, c, workdir):
        name = c["name"]
        env = dict(self.env)
        kernel_vars = ("JVIEW_KERNELS", "JVIEW_NO_SIMD", "JVIEW_FORCE_SSSE3")
        if any(k in c.get("env", {}) for k in kernel_vars):  # the case's own kernel choice, not the mode's
            for k in kernel_vars:
                env.pop(k, None)
        env.update(c.get("env", {}))
        stdin = c.get("stdin", "")
        stdin = stdin.encode() if isinstance(stdin, str) else stdin
        for fname, content in c.get("files", {}).items():
            path = os.path.join(workdir, fname)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(content.encode() if isinstance(content, str) else content)
        try:
            rc, out, err = run([self.jview] + c["args"], stdin, env, cwd=workdir)
        except subprocess.TimeoutExpired:
            self.check(name, False, "timed out")
            return
        problems = []
        if c.get("stdout") is not None:
            want = c["stdout"].encode() if isinstance(c["stdout"], str) else c["stdout"]
            if out != want:
                problems.append(f"stdout {out[:400]!r} != {want[:400]!r}")
        if "stderr" in c:
            want = c["stderr"].encode() if isinstance(c["stderr"], str) else c["stderr"]
            if err != want:
                problems.append(f"stderr {err[:400]!r} != {want[:400]!r}")
        if "stdout_re" in c and not re.search(c["stdout_re"].encode(), out):
            problems.append(f"stdout {out[:400]!r} !~ {c['stdout_re']!r}")
        if "stderr_re" in c and not re.search(c["stderr_re"].encode(), err):
            problems.append(f"stderr {err[:400]!r} !~ {c['stderr_re']!r}")
        if rc != c.get("exit", 0):
            problems.append(f"exit {rc} != {c.get('exit', 0)}")
        if rc < 0:
            problems.append(f"killed by signal {-rc}")
        self.check(name, not problems, "; ".join(problems))

    def stream_checks(self):
        """Pipes are read in chunks and each value is handled when complete: a value is written before the next
        one has been sent, and chunked input gives the same bytes as mapped input."""
        p = subprocess.Popen([self.jview, "-c", ".a"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=self.env)
        p.stdin.write(b'{"a":1}\n')
        p.stdin.flush()
        import select
        ready, _, _ = select.select([p.stdout], [], [], 10)
        first = p.stdout.readline() if ready else b""
        p.stdin.write(b'{"a":2}\n')
        p.stdin.close()
        rest = p.stdout.read()
        p.wait(timeout=30)
        self.check("stream: first value written before the second arrives", first == b"1\n" and rest == b"2\n",
                   f"{first!r} then {rest!r}")
        corpus = os.path.join(self.shared, "corpus")
        for f in ("twitter.json", "citm_catalog.json", "canada.json", "amazon_cellphones.ndjson"):
            path = os.path.join(corpus, f)
            with open(path, "rb") as fh:
                data = fh.read()
            rc1, a, _ = run([self.jview, "-c", ".", path], env=self.env)
            rc2, b, _ = run([self.jview, "-c", "."], data, env=self.env)
            self.check(f"stdin equals mapped {f}", rc1 == 0 and rc2 == 0 and a == b, first_difference(a, b))

    def corpus_checks(self, jq18, against_jq):
        """jview . and -c . equal jq 1.8 byte for byte wherever jq keeps the number literals; jview -c . output
        parsed again by jview gives the same bytes (round trip, number tokens kept)."""
        corpus = os.path.join(self.shared, "corpus")
        files = []
        for root, _, names in os.walk(corpus):
            for n in sorted(names):
                if n.endswith(".json") or n.endswith(".ndjson"):
                    files.append(os.path.join(root, n))
        for path in sorted(files):
            rel = os.path.relpath(path, corpus)
            rc, compact, err = run([self.jview, "-c", ".", path], env=self.env)
            self.check(f"corpus compact {rel}", rc == 0, err.decode(errors="replace")[:300])
            rc2, again, err2 = run([self.jview, "-c", "."], compact, env=self.env)
            self.check(f"corpus round trip {rel}", rc2 == 0 and again == compact, err2.decode(errors="replace")[:300])
            if against_jq is None:
                continue
            if not against_jq:
                # This kernel mode against the default one, byte for byte.
                for opts in ([], ["-c"], ["-a", "-S"]):
                    _, mine, _ = run([self.jview] + opts + [".", path], env=self.env)
                    _, default, _ = run([self.jview] + opts + [".", path], env=env_for("default"))
                    self.check(f"corpus mode vs default {rel} {' '.join(opts)}", mine == default,
                               first_difference(mine, default))
                continue
            # jq 1.8 canonicalises number literals (1E+2, 1.0e-5 ...): compare only where its output has the same
            # number tokens as the input.
            for opts in ([], ["-c"], ["-S"], ["--tab"], ["--indent", "5"], ["-a", "-c"], ["-C"]):
                rc, mine, _ = run([self.jview] + opts + [".", path], env=self.env)
                jrc, theirs, _ = run([jq18] + opts + [".", path])
                if jrc != 0:
                    self.check(f"corpus jq-1.8 runs {rel}", False, "jq-1.8 failed")
                    break
                self.check(f"corpus vs jq-1.8 {rel} {' '.join(opts)}", same_but_numbers(mine, theirs),
                           first_difference(mine, theirs))
            # jq 1.6 (/usr/bin/jq) prints numbers through doubles (%.17g): the same bytes elsewhere.
            if os.path.exists(JQ16):
                for opts in ([], ["-c"]):
                    _, mine, _ = run([self.jview] + opts + [".", path], env=self.env)
                    jrc, theirs, _ = run([JQ16] + opts + [".", path])
                    self.check(f"corpus vs jq-1.6 {rel} {' '.join(opts)}", jrc == 0 and same_but_numbers(mine, theirs),
                               first_difference(mine, theirs))


NUM = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


JQ16 = "/usr/bin/jq"


def same_but_numbers(mine, theirs):
    """True when the texts are equal except where jq rewrote a number literal into another spelling of the same
    double (jq 1.8: 1E+2 for 1e2; jq 1.6: 17 significant digits). Every other byte must be equal."""
    if mine == theirs:
        return True
    if NUM.sub(b"0", mine) != NUM.sub(b"0", theirs):
        return False
    for a, b in zip(NUM.findall(mine), NUM.findall(theirs)):
        if a != b and float(a) != float(b):
            return False
    return True


def first_difference(a, b):
    n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return f"first difference at byte {n}: {a[max(0, n - 40):n + 40]!r} vs {b[max(0, n - 40):n + 40]!r}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jview", required=True)
    ap.add_argument("--mode", default="default", choices=["default", "portable", "sse2", "ssse3", "avx2", "avx512"])
    ap.add_argument("--shared", required=True)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-jq", action="store_true", help="corpus round trips only (sanitizer builds)")
    args = ap.parse_args()
    shared = os.path.abspath(args.shared)
    r = Runner(os.path.abspath(args.jview), args.mode, shared)
    with tempfile.TemporaryDirectory() as tmp:
        for c in case_table.cases(shared):
            case_dir = os.path.join(tmp, re.sub(r"[^A-Za-z0-9]+", "_", c["name"]))
            os.makedirs(case_dir, exist_ok=True)
            r.run_case(c, case_dir)
    r.stream_checks()
    if args.no_jq and not args.no_corpus:
        r.corpus_checks(None, None)
    elif not args.no_corpus:
        jq18 = os.path.join(shared, "tools", "jq-1.8")
        rc, out, err = run([jq18, "--version"])
        if rc != 0:
            r.check("jq-1.8 available", False, err.decode(errors="replace"))
        else:
            # Kernel modes are compared with each other through the round trip; jq's bytes once, by default.
            r.corpus_checks(jq18, args.mode == "default")
    for name, detail in r.failed:
        print(f"FAIL {name}: {detail}")
    print(f"cli ({args.mode}): {r.passed} passed, {len(r.failed)} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
