"""tests/benchmarks/startup_rows.py: the start-up rows of `make bench` (issue 19): `jview -n 1` beside `jq -n 1`
(jq 1.8, and jq 1.6 when it is there), `gojq -n 1` and a C hello-world built with the same hardening flags
(tests/benchmarks/hello.c, the bench build's hello_hardened), and the same hello-world linked with jview's shared
libraries (hello_hardened_libs: the loader's share of start-up). Each command is spawned by this script (posix_spawn,
stdin and stdout /dev/null, then wait4): WARMUP untimed runs each, then ROUNDS rounds in which every command runs
once, in an order rotated each round, so that the machine's drift falls on all of them alike. Rows: workload
"cmd-startup", file "(no input)", median and best wall time, median CPU time (user + system), peak RSS of the
one more run under GNU time (%M); the targets: jview within 1.5x of the hello-world, and at least 2.5x
faster than jq 1.8."""
import os
import subprocess
import tempfile
import time

WORKLOAD, FILE = "cmd-startup", "(no input)"
HELLO_TARGET = 1.5   # jview median / hello-world median, at most
JQ_TARGET = 2.5      # jq 1.8 median / jview median, at least


def _spawn_once(argv, devnull):
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    return os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime


def _peak_rss_kb(argv):
    """The command's own peak RSS, from GNU time's %M (ru_maxrss of a spawn from this script would be this
    script's); 0 when /usr/bin/time is missing."""
    if not os.access("/usr/bin/time", os.X_OK):
        return 0
    with tempfile.NamedTemporaryFile(prefix="jview-startup-rss.") as f:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            return int(open(f.name).read().split()[-1])
        except (OSError, ValueError, IndexError):
            return 0


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def engines(build_dir, procs, log):
    """[(engine, argv)]: jview and the jq-like tools of compare.py's list (procs: (name, path, version), jview
    first), then the hello-world when the bench build made it."""
    out = [(name, [path, "-n", "1"]) for name, path, _ in procs]
    for engine, program in (("hello-c", "hello_hardened"), ("hello-c-libs", "hello_hardened_libs")):
        hello = os.path.join(build_dir, "tests", "benchmarks", program)
        if os.access(hello, os.X_OK):
            out.append((engine, [hello]))
        else:
            log("%s is not built (configure with -DJVIEW_BENCH=ON): no %s row" % (hello, engine))
    return out


def measure(cmds, rounds, warmup, log):
    """Rows for compare.py's bench.json, and the skipped engines (a failing command)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        good, skipped = [], []
        for name, argv in cmds:
            status = 0
            for _ in range(warmup):
                status = _spawn_once(argv, devnull)[0]
                if status != 0:
                    break
            if status != 0:
                log("  %-8s exit %d: no start-up row" % (name, status))
                skipped.append({"file": FILE, "workload": WORKLOAD, "engine": name, "reason": "n/a: exit %d" % status})
            else:
                good.append((name, argv))
        samples = {name: [] for name, _ in good}
        for rnd in range(rounds):
            k = rnd % len(good) if good else 0
            for name, argv in good[k:] + good[:k]:
                status, wall, cpu = _spawn_once(argv, devnull)
                if status == 0:
                    samples[name].append((wall, cpu))
    finally:
        os.close(devnull)
    rows = []
    for name, argv in good:
        walls = [w for w, _ in samples[name]]
        if not walls:
            continue
        rows.append({"file": FILE, "workload": WORKLOAD, "engine": name,
                     "median_us": round(_median(walls) * 1e6, 1), "best_us": round(min(walls) * 1e6, 1), "bytes": 0,
                     "cpu_us": round(_median([c for _, c in samples[name]]) * 1e6, 1),
                     "peak_rss_kb": _peak_rss_kb(argv), "runs": len(walls),
                     "command": " ".join(os.path.relpath(a) if os.path.isabs(a) and os.sep + "build" in a else a
                                         for a in argv)})
    return rows, skipped


def verdicts(by_engine):
    """[(text, met)] of issue 19's start-up targets (met None: a figure that is no target)."""
    out = []
    jv = by_engine.get("jview")
    if not jv:
        return out
    if "hello-c" in by_engine:
        ratio = jv["median_us"] / by_engine["hello-c"]["median_us"]
        out.append(("jview %.2fx the hardened C hello-world (want <= %gx)" % (ratio, HELLO_TARGET),
                    ratio <= HELLO_TARGET))
    if "hello-c-libs" in by_engine:  # (no target: what the loader's part of the first ratio is)
        floor = by_engine["hello-c-libs"]["median_us"]
        line = "jview %.2fx the hello-world linked with jview's shared libraries" % (jv["median_us"] / floor)
        if "hello-c" in by_engine:
            line += "; that hello-world is %.2fx the plain one" % (floor / by_engine["hello-c"]["median_us"])
        out.append((line, None))
    if "jq-1.8" in by_engine:
        ratio = by_engine["jq-1.8"]["median_us"] / jv["median_us"]
        out.append(("jq 1.8 %.2fx jview (want >= %gx)" % (ratio, JQ_TARGET), ratio >= JQ_TARGET))
    return out


def table(rows, rounds, load):
    """Markdown: one line per engine, ratio to jview; the targets."""
    by_engine = {r["engine"]: r for r in rows}
    jv = by_engine.get("jview")
    lines = ["Start-up, `-n 1` (hello-world: `hello_hardened`; hello-c-libs: the same linked with jview's shared "
             "libraries), %d interleaved rounds, load average %s:" % (rounds, load),
             "", "| engine | median ms | best ms | CPU ms | RSS MB | ratio to jview |", "|---|--:|--:|--:|--:|--:|"]
    for r in rows:
        ratio = "%.2f" % (r["median_us"] / jv["median_us"]) if jv else ""
        lines.append("| %s | %.2f | %.2f | %.2f | %.1f | %s |" % (r["engine"], r["median_us"] / 1e3, r["best_us"] / 1e3,
                                                               r["cpu_us"] / 1e3, r["peak_rss_kb"] / 1024, ratio))
    lines.append("")
    for text, met in verdicts(by_engine):
        lines.append("- %s %s" % ("info" if met is None else "ok" if met else "**MISS**", text))
    return "\n".join(lines)
