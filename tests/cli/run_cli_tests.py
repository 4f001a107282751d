#!/usr/bin/env python3
"""End-to-end tests of the jview executable: exact stdout bytes, stderr and exit status for each case in
cases.py, round trips over the project's own corpus (corpus/gen_own.py, --own-corpus) and, when ../shared is there,
over the benchmark corpus with differential checks against jq 1.8 (../shared/tools/jq-1.8); each part that needs
../shared prints a SKIPPED line when it is missing (tests/shared_data.py).

Usage: run_cli_tests.py --jview PATH --mode default|portable|sse2|ssse3|avx2|avx512 --shared DIR [--own-corpus DIR]
The mode (a kernel level, simd/kernels.hpp) sets JVIEW_KERNELS, or its alias JVIEW_FORCE_SSSE3 for ssse3, so that
every kernel set runs the same cases."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cases as case_table  # noqa: E402
import shared_data  # noqa: E402


def env_for(mode):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JVIEW_") and k not in ("JQ_COLORS", "NO_COLOR")}
    if mode == "ssse3":
        env["JVIEW_FORCE_SSSE3"] = "1"  # the alias, so that it is exercised too
    elif mode != "default":
        env["JVIEW_KERNELS"] = mode
    return env


def skip_unless_runnable(jview, mode):
    """Exits 77 (ctest's skip) when this CPU or build cannot run the kernel mode (e.g. avx2 on an older CPU)."""
    if mode == "default":
        return
    p = subprocess.run([jview, "-n", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env_for(mode))
    if p.returncode != 0:
        print(f"skipped: kernel mode {mode} does not run here: {p.stderr.decode(errors='replace').strip()}")
        sys.exit(77)


def run(cmd, stdin=b"", env=None, cwd=None, timeout=120):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Runner:
    def __init__(self, jview, mode, shared, own):
        self.jview = jview
        self.env = env_for(mode)
        self.shared = shared
        self.own = own  # the own corpus directory (corpus/gen_own.py)
        self.shared_corpus = shared_data.need(os.path.join(shared, "corpus"), "benchmark corpus checks", "dir",
                                              shared)
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
        # Files that a run may rewrite (-i): links, modes and owners before; contents, modes, owners, links and
        # inodes after, and no other file left in the directory (a temporary file).
        for link, target in c.get("symlinks", {}).items():
            os.symlink(target, os.path.join(workdir, link))
        for fname, mode in c.get("modes", {}).items():
            os.chmod(os.path.join(workdir, fname), mode)
        owners = c.get("owners", {}) if os.geteuid() == 0 else {}  # (chown to another user needs root)
        for fname, (uid, gid) in owners.items():
            os.chown(os.path.join(workdir, fname), uid, gid)
        inodes = {f: os.lstat(os.path.join(workdir, f)).st_ino for f in c.get("same_inode", [])}
        try:
            rc, out, err = run([self.jview] + c["args"], stdin, env, cwd=workdir)
        except subprocess.TimeoutExpired:
            self.check(name, False, "timed out")
            return
        problems = []
        for fname, want in c.get("after", {}).items():
            want = want.encode() if isinstance(want, str) else want
            with open(os.path.join(workdir, fname), "rb") as f:
                got = f.read()
            if got != want:
                problems.append(f"{fname} holds {got[:300]!r}, not {want[:300]!r}")
        if "after" in c:
            made = {f.split("/")[0] for f in c.get("files", {})} | set(c.get("symlinks", {}))
            left = sorted(set(os.listdir(workdir)) - made)
            if left:
                problems.append(f"files left in the directory: {left}")
        for fname, mode in c.get("after_modes", {}).items():
            got = os.stat(os.path.join(workdir, fname)).st_mode & 0o7777
            if got != mode:
                problems.append(f"{fname} mode {got:o} != {mode:o}")
        for fname, (uid, gid) in owners.items():
            st = os.stat(os.path.join(workdir, fname))
            if (st.st_uid, st.st_gid) != (uid, gid):
                problems.append(f"{fname} owner {st.st_uid}:{st.st_gid} != {uid}:{gid}")
        for link in c.get("symlinks", {}):
            if not os.path.islink(os.path.join(workdir, link)):
                problems.append(f"{link} is no longer a symbolic link")
        for fname, ino in inodes.items():
            if os.lstat(os.path.join(workdir, fname)).st_ino != ino:
                problems.append(f"{fname} was replaced (a new inode)")
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
        paths = [os.path.join(self.own, f) for f in ("jeopardy.json", "log.ndjson", "escapes.json", "numbers.json")]
        if self.shared_corpus:
            paths += [os.path.join(self.shared_corpus, f)
                      for f in ("twitter.json", "citm_catalog.json", "canada.json", "amazon_cellphones.ndjson")]
        for path in paths:
            f = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
            with open(path, "rb") as fh:
                data = fh.read()
            rc1, a, _ = run([self.jview, "-c", ".", path], env=self.env)
            rc2, b, _ = run([self.jview, "-c", "."], data, env=self.env)
            self.check(f"stdin equals mapped {f}", rc1 == 0 and rc2 == 0 and a == b, first_difference(a, b))

    def github_checks(self, workdir):
        """--check-format=github lines read back as the GitHub Actions runner reads a workflow command
        (actions/runner ActionCommand.TryParseV2: the command ends at the first `::` after the leading one,
        properties are split at `,` and then at the first `=`, values and message unescaped): the file property
        must give back the file's name, line and col the position, the message the parser's."""
        names = ["plain.json", "a,b.json", "c:d.json", "e%f.json", "g::h,i=j.json", "k%2Cl.json", "m\nn.json"]
        for n in names:
            with open(os.path.join(workdir, n), "wb") as f:
                f.write(b'{"a": [1,\n  2,,3]}')
        rc, out, _ = run([self.jview, "--check", "--check-format=github"] + names + ["missing,x.json"], env=self.env,
                         cwd=workdir)
        lines = out.decode().split("\n")
        self.check("github: one line per problem", rc == 2 and len(lines) == len(names) + 2 and lines[-1] == "",
                   repr(out))
        for n, line in zip(names + ["missing,x.json"], lines):
            cmd = parse_workflow_command(line)
            if n == "missing,x.json":
                want = ("error", {"file": n}, "No such file or directory")
            else:
                want = ("error", {"file": n, "line": "2", "col": "5"}, "expected a value")
            self.check(f"github: annotation of {n!r} parses back", cmd == want, f"{line!r} -> {cmd!r}")

    def help_table_checks(self):
        """Every option of the one option table (cli/options.cpp: the names given to flag, option, short_bool,
        pairs, choice and set_help_flag) appears in --help, with each of its names, and --help fits 80 columns."""
        path = os.path.join(shared_data.ROOT, "cli", "options.cpp")
        src = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if "void add_options(" not in src:
            self.check("help: the option table is read from cli/options.cpp (add_options)", False,
                       "not found there: point help_table_checks at the table's new place")
            return
        table = src[src.index("void add_options("):]
        table = table[:table.index("\n}\n")]
        entries = re.findall(r'(?:flag|option|short_bool|pairs|choice|set_help_flag)\(\s*"(-[^"]*)"', table)
        _, out, _ = run([self.jview, "--help"], env=dict(self.env, COLUMNS=""))
        text = out.decode()
        missing = [n for e in entries for n in e.split(",") if not re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", text)]
        self.check(f"help: all {len(entries)} options of the table appear in --help", len(entries) >= 40 and not missing,
                   f"{len(entries)} entries; missing: {missing}")
        self.check("help: every line at most 80 columns", all(len(l) <= 80 for l in text.split("\n")),
                   repr([l for l in text.split("\n") if len(l) > 80]))

    def format_checks(self, workdir):
        """--check-formatted and -i agree: a corpus file that --check-formatted flags is rewritten by -i . to
        exactly what `jview .` writes (with the same output options), and then passes --check-formatted."""
        srcs = [os.path.join(self.own, n) for n in ("numbers.json", "pretty.json", "escapes.json")]
        if self.shared_corpus:
            srcs += [os.path.join(self.shared_corpus, n) for n in ("twitter.json", "canada.json", "numbers.json")]
        for src in srcs:
            name = os.path.basename(src)
            if not os.path.exists(src):
                continue
            with open(src, "rb") as f:
                original = f.read()
            for opts in ([], ["-c"], ["--tab", "-S"], ["--indent", "4", "-a"]):
                path = os.path.join(workdir, name)
                with open(path, "wb") as f:
                    f.write(original)
                label = f"{name} {' '.join(opts)}"
                rc1, out1, _ = run([self.jview, "--check-formatted"] + opts + [path], env=self.env)
                _, want, _ = run([self.jview] + opts + [".", src], env=self.env)
                rc2, _, err2 = run([self.jview, "-i"] + opts + [".", path], env=self.env)
                with open(path, "rb") as f:
                    got = f.read()
                rc3, out3, _ = run([self.jview, "--check-formatted"] + opts + [path], env=self.env)
                self.check(f"format: --check-formatted flags {label}", rc1 == (0 if original == want else 1), repr(out1))
                self.check(f"format: -i . writes what jview . writes, {label}", rc2 == 0 and got == want,
                           err2.decode(errors="replace")[:200] + first_difference(got, want))
                self.check(f"format: then --check-formatted passes, {label}", rc3 == 0 and out3 == b"", repr(out3))

    def progress_checks(self):
        """The progress line (stderr a pseudo-terminal): it appears on a large input that takes more than a second
        (260 MiB through a pipe, then a pause), is erased at the end, and never shows when stderr is a file or with
        --no-progress; --progress shows it on a small input; --check over files shows files done of the total."""
        line = b'{"a":1,"s":"' + b"x" * 1010 + b'"}\n'  # 1 KiB
        big = [b'{"a":0}\n', line * 1024, 260, b'{"a":2}\n']  # 260 MiB of NDJSON, then a pause
        r = run_with_pty_stderr([self.jview, "-c", "select(.a != 1)"], big, env=self.env)
        self.check("progress: a line on a large input", r[0] == 0 and r[1] == b'{"a":0}\n{"a":2}\n' and
                   re.search(rb"\rjview: \d+\.\d MB read, \d+ MB/s, \d+:\d\d elapsed\x1b\[K", r[2]) is not None, repr(r)[:400])
        self.check("progress: the line is erased at the end", r[2].endswith(b"\r\x1b[K"), repr(r[2][-80:]))
        r = run_with_pty_stderr([self.jview, "-c", "select(.a != 1)"], big, env=self.env, stderr_to_file=True)
        self.check("progress: none when stderr is a file", r[0] == 0 and r[2] == b"", repr(r[2][:200]))
        r = run_with_pty_stderr([self.jview, "--no-progress", "-c", "select(.a != 1)"], big, env=self.env)
        self.check("progress: none with --no-progress", r[0] == 0 and r[2] == b"", repr(r[2][:200]))
        small = [b"[1]", b" ", 1, b"[2]"]
        r = run_with_pty_stderr([self.jview, "-c", "."], small, env=self.env)
        self.check("progress: none on a small input", r[0] == 0 and r[2] == b"", repr(r[2][:200]))
        r = run_with_pty_stderr([self.jview, "--progress", "-c", "."], small, env=self.env)
        self.check("progress: --progress shows it on a small input",
                   r[0] == 0 and re.search(rb"\rjview: 4 B read, \d+:\d\d elapsed\x1b\[K", r[2]) is not None, repr(r[2][:300]))
        r = run_with_pty_stderr([self.jview, "--progress", "-c", "."], small, env=self.env, stderr_to_file=True)
        self.check("progress: --progress to a file writes plain lines", r[0] == 0 and
                   re.fullmatch(rb"(jview: 4 B read, \d+:\d\d elapsed\n)+", r[2]) is not None, repr(r[2][:300]))
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for i in range(3):
                files.append(os.path.join(tmp, f"f{i}.json"))
                with open(files[-1], "w") as f:
                    f.write("[1,]" if i == 1 else "[]")
            fifo = os.path.join(tmp, "slow.json")
            os.mkfifo(fifo)
            r = run_with_pty_stderr([self.jview, "--check"] + files + [fifo], small, env=self.env, stdin_path=fifo)
            self.check("progress: --check shows files done of the total, then the summary",
                       r[0] == 1 and r[1] == f"{files[1]}:1:4: error: trailing comma\n".encode() and
                       re.search(rb"\rjview: 3 of 4 files \(75%\), \d+:\d\d elapsed, \d+:\d\d left\x1b\[K", r[2])
                       is not None and r[2].endswith(b"\r\x1b[K4 files, 1 invalid\r\n"), repr(r[2][-300:]))

    def corpus_checks(self, corpus, jq18, against_jq):
        """jview . and -c . equal jq 1.8 byte for byte wherever jq keeps the number literals; jview -c . output
        parsed again by jview gives the same bytes (round trip, number tokens kept)."""
        for path in shared_data.json_files(corpus):
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


def parse_workflow_command(line):
    """(command, properties, message) of a GitHub Actions workflow command line, as the runner parses it
    (actions/runner src/Runner.Common/ActionCommand.cs, TryParseV2 and its unescape tables); None if it is none."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info, data = line[2:end], line[end + 2:]
    name, _, props = info.partition(" ")

    def unescape(s, table):
        for token, code in table:
            s = s.replace(code, token)
        return s
    prop_table = [("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C"), ("%", "%25")]
    data_table = [("\r", "%0D"), ("\n", "%0A"), ("%", "%25")]
    properties = {}
    for p in props.strip().split(","):
        if not p:
            continue
        key, eq, value = p.partition("=")
        if eq and key and value:
            properties[key] = unescape(value, prop_table)
    return name, properties, unescape(data, data_table)


def run_with_pty_stderr(cmd, feed, env=None, stderr_to_file=False, stdin_path=None):
    """Runs cmd with stderr on a pseudo-terminal (or a file) and returns (status, stdout, stderr bytes). feed is
    [first, chunk, count, last]: first, count times chunk, then a pause, then last, written to stdin (or to the FIFO
    stdin_path, which cmd opens itself) and closed. The pause (2.5 s) starts once cmd has shown that its meter runs:
    its first output (flushed when its read would block), or the FIFO opened (after the files before it), so that a
    slow start (a sanitizer build on a loaded machine) cannot eat the second that the line waits for."""
    import pty
    import threading
    import time
    master, slave = pty.openpty()
    err_file = tempfile.TemporaryFile() if stderr_to_file else None
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin_path is None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=err_file if stderr_to_file else slave, env=env)
    os.close(slave)

    first_output = threading.Event()

    def write():
        sink = p.stdin if stdin_path is None else open(stdin_path, "wb")
        try:
            first, chunk, count, last = feed
            sink.write(first)
            for _ in range(count):
                sink.write(chunk)
            sink.flush()
            if stdin_path is None:
                first_output.wait(120)
            time.sleep(2.5)
            sink.write(last)
        except BrokenPipeError:
            pass
        finally:
            try:
                sink.close()
            except BrokenPipeError:
                pass
    t = threading.Thread(target=write)
    t.start()
    out = []

    def read():
        got = p.stdout.read(1)
        first_output.set()
        out.append(got + p.stdout.read())
    reader = threading.Thread(target=read)
    reader.start()
    err = b""
    while True:
        try:
            d = os.read(master, 65536)
        except OSError:  # EIO: the last writer of the terminal closed it
            break
        if not d:
            break
        err += d
    t.join()
    reader.join()
    p.wait(timeout=120)
    os.close(master)
    if err_file is not None:
        err_file.seek(0)
        err = err_file.read()
        err_file.close()
    return p.returncode, out[0] if out else b"", err


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
    ap.add_argument("--own-corpus", help="the output of corpus/gen_own.py (written to a temporary directory if not "
                    "given)")
    args = ap.parse_args()
    shared = os.path.abspath(args.shared)
    skip_unless_runnable(os.path.abspath(args.jview), args.mode)
    own_tmp = None
    if args.own_corpus is None:
        own_tmp = tempfile.TemporaryDirectory()
        args.own_corpus = own_tmp.name
        subprocess.run([sys.executable, os.path.join(shared_data.ROOT, "corpus", "gen_own.py"), own_tmp.name],
                       check=True)
    r = Runner(os.path.abspath(args.jview), args.mode, shared, os.path.abspath(args.own_corpus))
    if args.mode in ("avx2", "avx512"):
        # These modes parse with their stage-1 kernel (the two-stage path): the cases below exercise it.
        rc, out, err = run([os.path.abspath(args.jview), "--version"], env=env_for(args.mode))
        r.check(f"--version names structure={args.mode}", rc == 0 and f" structure={args.mode} ".encode() in out,
                out.decode(errors="replace"))
    with tempfile.TemporaryDirectory() as tmp:
        for c in case_table.cases(shared):
            case_dir = os.path.join(tmp, re.sub(r"[^A-Za-z0-9]+", "_", c["name"]))
            os.makedirs(case_dir, exist_ok=True)
            r.run_case(c, case_dir)
    r.stream_checks()
    r.help_table_checks()
    with tempfile.TemporaryDirectory() as tmp:
        r.github_checks(tmp)
    if not args.no_corpus:
        with tempfile.TemporaryDirectory() as tmp:
            r.format_checks(tmp)
    if args.mode == "default":
        r.progress_checks()
    if args.no_corpus:
        shared_data.skipped("corpus checks", "--no-corpus")
    else:
        # The own corpus: round trips, and each kernel mode against the default one.
        r.corpus_checks(r.own, None, None if args.no_jq or args.mode == "default" else False)
    if args.no_jq and not args.no_corpus and r.shared_corpus:
        r.corpus_checks(r.shared_corpus, None, None)
    elif not args.no_corpus and r.shared_corpus:
        jq18 = shared_data.need(shared_data.jq18(shared), "benchmark corpus vs jq 1.8", "file", shared)
        if jq18 is None:
            r.corpus_checks(r.shared_corpus, None, None if args.mode == "default" else False)
        else:
            rc, out, err = run([jq18, "--version"])
            if rc != 0:
                r.check("jq-1.8 available", False, err.decode(errors="replace"))
            else:
                # Kernel modes are compared with each other through the round trip; jq's bytes once, by default.
                r.corpus_checks(r.shared_corpus, jq18, args.mode == "default")
    for name, detail in r.failed:
        print(f"FAIL {name}: {detail}")
    print(f"cli ({args.mode}): {r.passed} passed, {len(r.failed)} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
