#!/usr/bin/env python3
"""tests/benchmarks/compare.py: the benchmark driver. Runs every benchmark program of the build (bench, bench_dtoa,
bench_utf8), optionally times whole commands, merges all rows into BUILD/bench.json = {"machine": {...}, "rows":
[...], "skipped": [...], "command_output_checks": [...]} and prints markdown tables (in-process: ratios to jview;
commands: wall-time medians, peak RSS, ratios to jview and the targets of issues 4 and 6, met or missed).

Whole commands (--commands): jview against /usr/bin/jq (1.6), gojq and every jq-like binary named by an environment
variable NAME_BIN=PATH (e.g. JQ_BIN=../shared/tools/jq-1.8; named after its --version: jq-1.8; when no *_BIN is set,
../shared/tools/jq-1.8 is used if it runs): the language rows of issue 6 (`.`, `-c .`, a path, `[... | select] |
length`, `map({a, b})`, `group_by`, `reduce`, `paths`, `[.. | numbers] | add`) plus `select(...)` over NDJSON and
`length`, on twitter, citm_catalog and a generated 200 MB NDJSON log; `--check` beside `jq empty` on the corpus;
`--utf8` beside isutf8, `iconv -f UTF-8 -t UTF-8` and `cat` (all > /dev/null) on the corpus, the log and 1 GB of
generated mixed UTF-8 text. Each command runs under /usr/bin/time (for its own peak RSS) from this script, which
measures the wall time; the first run of each is untimed and its output is compared with jq 1.8's; rounds are
interleaved; commands slower than --slow-s are timed --slow-runs times (default once).

Every run also times start-up (startup_rows.py: `-n 1` of jview, the jq-like tools and a hardened C hello-world,
interleaved; --no-startup skips it). --huge adds the big-input rows (big_rows.py: a generated 1 GB NDJSON log and its
.gz/.zst, jview --threads 1/2/all from the file, a pipe and the compressed files beside zcat|jq-1.8, zcat|gojq,
igzip|jview, zstdcat|jview and cat), each jview command timed --huge-runs times; --distributed adds
distributed_bench.py's rows (GNU parallel, Dask).

At the end, plot.py draws SVG charts of BUILD/bench.json into BUILD/plots (--plots-dir; --no-plots: none): jview
against the other parsers per corpus file, whole commands against jq and gojq, threads scaling when measured.

The programs' own tables go to stderr as they run. Missing programs, unreadable files, failing commands and timeouts
are reported and recorded ("skipped", or a row with "timed_out"), never fatal. Paths on the command line are relative
to the current directory. Generated inputs are written under BUILD/bench-data by corpus/gen_*.py and reused while
the generator and its arguments are unchanged. Rows of the previous BUILD/bench.json that this run did not measure
are kept (with their "date"), unless --fresh.

  python3 tests/benchmarks/compare.py --build-dir build --data ../shared/corpus            # in-process, all files
  python3 tests/benchmarks/compare.py --build-dir build --no-inprocess --commands --timeout 120   # commands, ~20 min
  python3 tests/benchmarks/compare.py --build-dir build --no-inprocess --commands --huge --only-files 1000mb
  python3 tests/benchmarks/compare.py --quick --commands                                    # smoke run
  python3 tests/benchmarks/compare.py --no-inprocess --commands --compressed --only-files .gz,.zst --ndjson-mb 250
"""
import argparse
import datetime
import fcntl
import hashlib
import json
import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import big_rows  # noqa: E402  (the --huge rows)
import compressed_rows  # noqa: E402  (the --compressed rows)
import startup_rows  # noqa: E402  (the start-up rows)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = ["bench", "bench_dtoa", "bench_utf8"]
FLAG_SUMMARY = ["sse2", "ssse3", "sse4_2", "pclmulqdq", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl",
                "avx512vbmi", "avx512_vbmi2", "avx512_bitalg", "vpclmulqdq", "asimd", "sve"]
ENGINE_ORDER = ["jview", "jview-reuse", "jview-portable", "jview-sse2", "jview-ssse3", "jview-avx2",
                "jview-avx2-one-pass", "jview-avx512", "simdjson-dom", "simdjson-dom-reuse",
                "simdjson-dom-reuse-haswell", "simdjson-ondemand", "simdjson", "boost-json", "rapidjson",
                "nlohmann", "to_chars", "fmt", "jq", "jq-1.8", "gojq", "isutf8", "iconv", "cat", "zcat|jview",
                "igzip|jview", "zstdcat|jview", "zcat|jq", "jview-t2", "jview-tall", "cat|jview", "cat|jview-t2",
                "cat|jview-tall", "zcat|jq-1.8", "zcat|gojq", "hello-c", "hello-c-libs"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --- charts -------------------------------------------------------------------------------------------------------

def draw_plots(bench_json, plots_dir):
    """SVG charts of bench_json by plot.py, run by the first Python that has matplotlib: this one, else Debian's
    /usr/bin/python3 (a pyenv or venv interpreter does not see the Debian package). Never fatal."""
    script = os.path.join(ROOT, "tests", "benchmarks", "plot.py")
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if not py or not os.access(py, os.X_OK):
            continue
        try:
            if subprocess.run([py, "-c", "import matplotlib"], capture_output=True, timeout=60).returncode != 0:
                continue
            r = subprocess.run([py, script, "--bench", bench_json, "--out", plots_dir], timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            log("plot.py could not run: %s" % e)
            return
        if r.returncode != 0:
            log("plot.py failed (status %d): charts not drawn" % r.returncode)
        return
    log("matplotlib not found (Debian: python3-matplotlib): no charts drawn")


# --- machine ------------------------------------------------------------------------------------------------------

def machine_info():
    cpu, flags = "", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and not cpu:
                    cpu = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    cpu = cpu or platform.processor() or platform.machine()
    info = {
        "cpu": cpu,
        "flags": " ".join(f for f in FLAG_SUMMARY if f in flags),
        "cores": os.cpu_count(),
        "os": "%s %s" % (platform.system(), platform.release()),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    try:
        info["load_average_at_start"] = " ".join("%.2f" % x for x in os.getloadavg())
    except OSError:
        pass
    return info


def compiler_from_cache(build_dir):
    """The C++ compiler CMake chose for this build, as `<id> <version>` (used when no program reports one)."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    exe = line.split("=", 1)[1].strip()
                    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout
                    return out.splitlines()[0] if out else exe
    except (OSError, subprocess.SubprocessError, IndexError):
        pass
    return None


# --- generated inputs ---------------------------------------------------------------------------------------------

def generate(build_dir, script, name, size_mb):
    """Runs corpus/<script> into BUILD/bench-data/<name> unless an identical one is there; returns the path or None."""
    out_dir = os.path.join(build_dir, "bench-data")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    script_path = os.path.join(ROOT, "corpus", script)
    try:
        with open(script_path, "rb") as f:
            stamp = "%s size_mb=%s\n" % (hashlib.sha256(f.read()).hexdigest(), size_mb)
    except OSError as e:
        log("cannot read generator %s: %s" % (script_path, e))
        return None
    stamp_path = path + ".stamp"
    try:
        if os.path.exists(path) and open(stamp_path).read() == stamp:
            return path
    except OSError:
        pass
    log("generating %s (%s MB) with corpus/%s ..." % (path, size_mb, script))
    r = subprocess.run([sys.executable, script_path, path, "--size-mb", str(size_mb)])
    if r.returncode != 0:
        log("generator %s failed (exit %d)" % (script, r.returncode))
        return None
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return path


# --- in-process benchmark programs ---------------------------------------------------------------------------------

def run_program(exe, args, rows, skipped, machine):
    """Runs one benchmark program, its table passed through to stderr, its JSON lines collected."""
    log("\n$ %s" % " ".join([exe] + args))
    try:
        p = subprocess.Popen([exe] + args, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        log("cannot run %s: %s" % (exe, e))
        skipped.append({"program": os.path.basename(exe), "reason": str(e)})
        return
    for line in p.stdout:
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            log("(%s printed a line that is not JSON: %s)" % (os.path.basename(exe), line[:120]))
            continue
        if "machine" in obj:
            machine.update(obj["machine"])
        elif "skip" in obj:
            skipped.append(obj["skip"])
        elif {"file", "workload", "engine", "median_us"} <= obj.keys():
            rows.append(obj)
    p.wait()
    if p.returncode != 0:
        log("%s exited with status %d" % (os.path.basename(exe), p.returncode))
        skipped.append({"program": os.path.basename(exe), "reason": "exit status %d" % p.returncode})


# --- whole commands ------------------------------------------------------------------------------------------------
#
# Every command is run by this script itself (posix_spawn + wait4), not by hyperfine, so that each run gives its wall
# time, its CPU time and its peak RSS (ru_maxrss) together. stdin is /dev/null; stdout is a pipe that the script
# drains (what `jq ... | less` pays), except for the validation rows, whose stdout is /dev/null as in
# `cat FILE > /dev/null`. Each engine's first run is untimed: it warms the page cache and its output is hashed and
# compared with jq 1.8's. Then rounds are interleaved between engines (rotating order). An engine whose first run
# took longer than --slow-s seconds (jq and gojq on the 200 MB log) is timed --slow-runs times (default 1: the first
# run itself, timed through the same pipe) instead, so the whole run fits in about 15 minutes.

# Filters per input kind: (workload, {kind: argv after the tool}); kinds: twitter, citm, ndjson. The language rows of
# issue 6 are LANG_WORKLOADS; cmd-select and cmd-length are issue 7's extra rows.
FILTERS = [
    ("cmd-pretty", {"twitter": ["."], "citm": ["."], "ndjson": ["."]}),
    ("cmd-minify", {"twitter": ["-c", "."], "citm": ["-c", "."], "ndjson": ["-c", "."]}),
    ("cmd-path", {"twitter": ["-c", ".statuses[].user.screen_name"], "citm": ["-c", ".events[].name"],
                  "ndjson": ["-c", ".user.login"]}),
    ("cmd-select", {"ndjson": ["-c", 'select(.level == "error")']}),
    ("cmd-length", {"twitter": ["length"], "citm": ["length"], "ndjson": ["length"]}),
    ("cmd-select-count", {"twitter": ["[.statuses[] | select(.user.followers_count > 1000)] | length"],
                          "citm": ["[.performances[] | select(.seatCategories | length > 2)] | length"],
                          "ndjson": ["-n", "[inputs | select(.http.status >= 500)] | length"]}),
    ("cmd-map-object", {"twitter": ["-c", ".statuses | map({id, text})"],
                        "citm": ["-c", ".performances | map({id, start})"],
                        "ndjson": ["-c", "{ts, level}"]}),
    ("cmd-group-by", {"twitter": ["-c", ".statuses | group_by(.user.lang) | map([.[0].user.lang, length])"],
                      "citm": ["-c", ".performances | group_by(.venueCode) | map([.[0].venueCode, length])"],
                      "ndjson": ["-n", "-c",
                                 "[inputs | {service, level}] | group_by(.service) | map([.[0].service, length])"]}),
    ("cmd-reduce", {"twitter": ["reduce .statuses[] as $s (0; . + $s.retweet_count)"],
                    "citm": ["-c", "reduce .performances[] as $p ({}; .[$p.venueCode] += 1)"],
                    "ndjson": ["-n", "-c", "reduce inputs as $l ({}; .[$l.level] += 1)"]}),
    ("cmd-paths", {"twitter": ["-c", "paths"], "citm": ["-c", "paths"], "ndjson": ["-c", "paths"]}),
    ("cmd-numbers-add", {"twitter": ["[.. | numbers] | add"], "citm": ["[.. | numbers] | add"],
                         "ndjson": ["[.. | numbers] | add"]}),
]
LANG_WORKLOADS = {"cmd-pretty", "cmd-minify", "cmd-path", "cmd-select-count", "cmd-map-object", "cmd-group-by",
                  "cmd-reduce", "cmd-paths", "cmd-numbers-add"}
# Targets: issue 6 (language rows on twitter, citm_catalog and the 200 MB log), issue 4 (`--utf8` on 1 GB of text).
LANG_TARGETS = {"jq": 10.0, "gojq": 3.0}
UTF8_TARGET_ISUTF8, UTF8_TARGET_CAT = 3.0, 1.5
WORKLOAD_ORDER = ["cmd-startup"] + [w for w, _ in FILTERS] + ["cmd-per-value", "cmd-check", "cmd-utf8"]


def kind_of(name):
    if name.startswith("twitter"):
        return "twitter"
    if name.startswith("citm"):
        return "citm"
    if name.endswith(".ndjson"):
        return "ndjson"
    return None


def tool_version(path):
    try:
        r = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        return (r.stdout.strip() or r.stderr.strip()).splitlines()[0] if r.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, IndexError):
        return None


def jq_like(path):
    """True when PATH behaves as a jq: `PATH -n 1` prints 1."""
    try:
        r = subprocess.run([path, "-n", "1"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        return r.returncode == 0 and r.stdout.strip() == "1"
    except (OSError, subprocess.SubprocessError):
        return False


def engine_name(version, fallback):
    """`jq-1.8.2` -> jq-1.8, `jq-1.6` -> jq (Debian's), `gojq 0.12.11 (...)` -> gojq, `jaq 1.2` -> jaq."""
    m = re.match(r"(jq)-(\d+)\.(\d+)", version or "")
    if m:
        return "jq" if (m.group(2), m.group(3)) == ("1", "6") else "jq-%s.%s" % (m.group(2), m.group(3))
    m = re.match(r"([a-z][\w-]*?)[ -]v?\d", version or "")
    return m.group(1) if m else fallback


def tools(build_dir, skipped):
    """[(engine, path, version)] of every jq-like processor to compare, jview first: /usr/bin/jq (1.6), gojq, and
    each environment variable NAME_BIN=PATH (e.g. JQ_BIN=../shared/tools/jq-1.8), named after its --version. When no
    *_BIN variable is set, ../shared/tools/jq-1.8 is used if it runs."""
    jview = os.path.join(build_dir, "jview")
    found = [("jview", jview, tool_version(jview))]
    candidates = [("/usr/bin/jq", "jq"), (shutil.which("gojq") or "", "gojq")]
    env = [(var, os.environ[var]) for var in sorted(os.environ) if var.endswith("_BIN") and os.environ[var]]
    for var, value in env:
        candidates.append((shutil.which(value) or os.path.abspath(value), var[:-4].lower().replace("_", "-")))
    if not env:
        candidates.append((os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", "jq-1.8")), "jq-1.8"))
    seen = {os.path.realpath(jview)}
    for path, fallback in candidates:
        if not path:
            continue
        real = os.path.realpath(path)
        if real in seen:
            continue
        if not os.access(path, os.X_OK) or not jq_like(path):
            log("%s (%s) is not a runnable jq-like command: not compared" % (path, fallback))
            skipped.append({"engine": fallback, "reason": "%s: not runnable" % path})
            continue
        version = tool_version(path)
        name = engine_name(version, fallback)
        if any(name == f[0] for f in found):
            name = fallback if not any(fallback == f[0] for f in found) else name + "-" + str(len(found))
        seen.add(real)
        found.append((name, path, version))
    return found


def command_cases(json_files, ndjson_files, corpus_files, utf8_files, procs):
    """[(workload, label, bytes, [(engine, argv)], stdout)] for every command to time; stdout is "pipe" or "null"."""
    cases = []
    for path in json_files + ndjson_files:
        kind, name = kind_of(os.path.basename(path)), os.path.basename(path)
        size = os.path.getsize(path)
        for workload, by_kind in FILTERS:
            if kind in by_kind:
                cases.append((workload, name, size, [(n, [p] + by_kind[kind] + [path]) for n, p, _ in procs], "pipe"))
        if kind != "ndjson":  # --check on the 200 MB log would add a minute of jq; the corpus row covers it
            cases.append(("cmd-check", name, size, [("jview", [procs[0][1], "--check", path])] +
                          [(n, [p, "empty", path]) for n, p, _ in procs[1:]], "null"))
    if corpus_files:
        label = "corpus (%d files)" % len(corpus_files)
        size = sum(os.path.getsize(f) for f in corpus_files)
        cases.append(("cmd-check", label, size, [("jview", [procs[0][1], "--check"] + corpus_files)] +
                      [(n, [p, "empty"] + corpus_files) for n, p, _ in procs[1:]], "null"))
        utf8_files = [(label, corpus_files)] + utf8_files
    for label, paths in utf8_files:
        size = sum(os.path.getsize(f) for f in paths)
        engines = [("jview", [procs[0][1], "--utf8"] + paths)]
        for tool, argv in (("isutf8", ["isutf8"]), ("iconv", ["iconv", "-f", "UTF-8", "-t", "UTF-8"]),
                           ("cat", ["cat"])):
            exe = shutil.which(argv[0])
            if exe:
                engines.append((tool, [exe] + argv[1:] + paths))
        cases.append(("cmd-utf8", label, size, engines, "null"))
    return cases


def shell_quote(arg):
    return arg if re.fullmatch(r"[\w@%+=:,./-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


def shown_path(a):
    """PATH as the tables show it: relative to the repository when under it or its parent, `jq` for /usr/bin/jq."""
    if os.path.isabs(a) and a.startswith(os.path.dirname(ROOT) + os.sep):
        return os.path.relpath(a, ROOT)
    if a.startswith("/usr/bin/"):
        return os.path.basename(a)
    return a


def display_command(argv, stdout):
    """The command as a user types it from the repository's root."""
    words = [shell_quote(shown_path(a)) for a in argv]
    return " ".join(words) + (" > /dev/null" if stdout == "null" else " | (read)")


GNU_TIME = "/usr/bin/time"


class Run:
    __slots__ = ("status", "wall", "cpu", "rss_kb", "digest", "err")


# The buffer the command's output is drained into, allocated (and touched) once, outside the timed runs.
DRAIN = bytearray(b"\0" * (1 << 20))
DRAIN_VIEW = memoryview(DRAIN)


def run_once(argv, stdout, timeout, digest=False, rss=False):
    """Runs argv once: stdin /dev/null, stdout a drained pipe or /dev/null, stderr kept for the report. With rss,
    the command runs under GNU time for its peak RSS (the first run of each command only: the wrapper's extra
    process costs a few ms of wall time, up to 30 ms on this loaded VM); otherwise rss_kb is ru_maxrss, which
    includes this Python process's pages (vfork; a fork copies the high-water mark) and is not reported."""
    run = Run()
    run.digest, run.err = None, ""
    h = hashlib.sha1() if digest else None
    err_file = tempfile.TemporaryFile()
    rss_file = None
    if rss and os.access(GNU_TIME, os.X_OK):
        # GNU time forks from a 2 MB process: its %M is the command's own peak RSS.
        rss_file = tempfile.NamedTemporaryFile(prefix="jview-bench-rss.", delete=False)
        rss_file.close()
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file.name] + list(argv)
    devnull = os.open(os.devnull, os.O_RDWR)
    rfd = wfd = None
    if stdout == "pipe":
        rfd, wfd = os.pipe()
        try:  # 1 MiB instead of 64 KiB: fewer wake-ups of this reader, the same for every tool
            fcntl.fcntl(wfd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        except OSError:
            pass
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, wfd if wfd is not None else devnull, 1),
               (os.POSIX_SPAWN_DUP2, err_file.fileno(), 2)]
    t0 = time.perf_counter()
    try:
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions, setpgroup=0)
    except OSError as e:
        for fd in (devnull, rfd, wfd):
            if fd is not None:
                os.close(fd)
        run.status, run.wall, run.cpu, run.rss_kb, run.err = 127, 0.0, 0.0, 0, str(e)
        if rss_file:
            os.unlink(rss_file.name)
        return run
    os.close(devnull)
    timed_out = False
    if rfd is not None:
        os.close(wfd)
        drain, drain_view = DRAIN, DRAIN_VIEW
        deadline = t0 + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([rfd], [], [], left)[0]:
                timed_out = True
                os.killpg(pid, signal.SIGKILL)  # GNU time and the command
                break
            n = os.readv(rfd, [drain])  # into one reused buffer: a fresh 1 MiB object per read cost this
            if not n:                   # reader page faults, and the command waited on the full pipe meanwhile
                break
            if h:
                h.update(drain_view[:n])
        os.close(rfd)
        _, status, usage = os.wait4(pid, 0)
    else:
        while True:  # no pipe: poll for the timeout
            wpid, status, usage = os.wait4(pid, os.WNOHANG)
            if wpid:
                break
            if time.perf_counter() - t0 > timeout:
                timed_out = True
                os.killpg(pid, signal.SIGKILL)  # GNU time and the command
            time.sleep(0.0005 if time.perf_counter() - t0 < 0.05 else 0.005)
    run.wall = time.perf_counter() - t0
    run.cpu = usage.ru_utime + usage.ru_stime
    run.rss_kb = usage.ru_maxrss
    if rss_file:
        try:
            with open(rss_file.name) as f:
                run.rss_kb = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
        os.unlink(rss_file.name)
    run.status = -1 if timed_out else os.waitstatus_to_exitcode(status)
    if h:
        run.digest = h.hexdigest()
    if run.status != 0:
        err_file.seek(0)
        lines = err_file.read(4096).decode("utf-8", "replace").strip().splitlines()
        run.err = "timed out after %g s" % timeout if timed_out else (lines[0][:160] if lines else "")
    err_file.close()
    return run


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def run_commands(cases, args, rows, skipped, checks):
    for workload, label, size, engines, stdout in cases:
        log("\n%s %s (%.1f MB)" % (workload, label, size / 1e6))
        small = size < 5_000_000
        want = args.runs * 2 if small else args.runs
        samples, ok, commands = {}, [], {}
        digests, timed_out, first_rss = {}, {}, {}
        for engine, argv in engines:  # first run: warm-up, output digest, slow or not
            commands[engine] = display_command(argv, stdout)
            r = run_once(argv, stdout, args.timeout, digest=(stdout == "pipe"), rss=True)
            first_rss[engine] = r.rss_kb
            if r.status == -1:  # killed at --timeout: a row with the bound, not a failure
                log("  %-8s timed out after %g s" % (engine, args.timeout))
                timed_out[engine] = r
                continue
            if r.status != 0 and not (r.status == 1 and workload in ("cmd-check", "cmd-utf8")):  # 1: found a bad file
                reason = "n/a: %s%s" % ("exit %d" % r.status if r.status >= 0 else "timeout",
                                        (": " + r.err) if r.err else "")
                log("  %-8s %s" % (engine, reason))
                skipped.append({"file": label, "workload": workload, "engine": engine, "reason": reason,
                                "command": commands[engine]})
                continue
            digests[engine] = r.digest
            if r.wall > args.slow_s:
                samples[engine] = [r]
                log("  %-8s first run %.1f s: slow, timed %d time(s)" % (engine, r.wall, args.slow_runs))
            else:
                samples[engine] = []
            ok.append((engine, argv))
        ref = "jq-1.8" if "jq-1.8" in digests else "jq" if "jq" in digests else None
        if stdout == "pipe" and "jview" in digests and ref:
            same = {e: digests[e] == digests[ref] for e in digests if e != ref}
            checks.append({"file": label, "workload": workload, "reference": ref, "same_output": same})
            log("  output vs %s: %s" % (ref, ", ".join("%s %s" % (e, "same" if s else "DIFFERENT")
                                                      for e, s in same.items())))
        fast = [(e, a) for e, a in ok if not samples[e]]
        slow = [(e, a) for e, a in ok if samples[e]]
        for rnd in range(want):
            order = fast[rnd % len(fast):] + fast[:rnd % len(fast)] if fast else []
            for engine, argv in order:
                samples[engine].append(run_once(argv, stdout, args.timeout))
        for _ in range(args.slow_runs - 1):
            for engine, argv in slow:
                samples[engine].append(run_once(argv, stdout, args.timeout))
        base = None
        for engine, _ in engines:
            if engine in timed_out:
                r = timed_out[engine]
                rows.append({"file": label, "workload": workload, "engine": engine, "median_us": args.timeout * 1e6,
                             "best_us": args.timeout * 1e6, "bytes": size, "cpu_us": round(r.cpu * 1e6, 1),
                             "peak_rss_kb": r.rss_kb, "runs": 0, "timed_out": True, "command": commands[engine]})
                if engine == "jview":
                    base = args.timeout * 1e6
                continue
            if engine not in samples:
                continue
            good = [r for r in samples[engine] if r.status == 0 or (r.status == 1 and workload in
                                                                     ("cmd-check", "cmd-utf8"))]
            if not good:
                skipped.append({"file": label, "workload": workload, "engine": engine,
                                "reason": "n/a: failed when timed", "command": commands[engine]})
                continue
            row = {"file": label, "workload": workload, "engine": engine,
                   "median_us": round(median([r.wall for r in good]) * 1e6, 1),
                   "best_us": round(min(r.wall for r in good) * 1e6, 1), "bytes": size,
                   "cpu_us": round(median([r.cpu for r in good]) * 1e6, 1),
                   "peak_rss_kb": first_rss[engine], "runs": len(good),
                   "command": commands[engine]}
            rows.append(row)
            if engine == "jview":
                base = row["median_us"]
            log("  %-8s median %9.1f ms  best %9.1f ms  cpu %9.1f ms  rss %7.1f MB  n=%-2d %s" % (
                engine, row["median_us"] / 1e3, row["best_us"] / 1e3, row["cpu_us"] / 1e3,
                row["peak_rss_kb"] / 1024, row["runs"], ("%.2fx jview" % (row["median_us"] / base)) if base else ""))


def target_verdicts(workload, label, by_engine):
    """[(text, met)] of the targets that apply to this row."""
    out = []
    if "jview" not in by_engine:
        return out
    base = by_engine["jview"]["median_us"]
    if by_engine["jview"].get("timed_out"):
        if workload in LANG_WORKLOADS and kind_of(label):
            out.append(("jview timed out (> %g s)" % (base / 1e6), False))
        return out
    if workload in LANG_WORKLOADS and kind_of(label):
        for engine, want in LANG_TARGETS.items():
            if engine in by_engine:
                ratio = by_engine[engine]["median_us"] / base
                out.append(("%s %s%.1fx (want >= %gx)" % (engine, "> " if by_engine[engine].get("timed_out") else "",
                                                          ratio, want), ratio >= want))
    out += big_rows.verdicts(label, by_engine) if big_rows.is_big(label) else compressed_rows.verdicts(label, by_engine)
    if workload == "cmd-startup":
        out += startup_rows.verdicts(by_engine)
    if workload == "cmd-utf8" and label.startswith("utf8-text") and by_engine["jview"]["bytes"] >= 500e6:
        if "isutf8" in by_engine:
            ratio = by_engine["isutf8"]["median_us"] / base
            out.append(("isutf8 %.1fx (want >= %gx)" % (ratio, UTF8_TARGET_ISUTF8), ratio >= UTF8_TARGET_ISUTF8))
        if "cat" in by_engine:
            ratio = base / by_engine["cat"]["median_us"]
            out.append(("%.2fx cat's time (want <= %gx)" % (ratio, UTF8_TARGET_CAT), ratio <= UTF8_TARGET_CAT))
    return out


def command_table(rows, skipped, checks):
    """Markdown: one line per (command, file): jview's median wall ms and peak RSS, each other tool's median, ratio to
    jview and RSS, and the targets that apply."""
    crow = [r for r in rows if r["workload"].startswith("cmd-")]
    if not crow:
        return ""
    engines = []
    for r in crow:
        if r["engine"] != "jview" and r["engine"] not in engines:
            engines.append(r["engine"])
    engines.sort(key=lambda e: (ENGINE_ORDER.index(e) if e in ENGINE_ORDER else len(ENGINE_ORDER), e))
    groups = {}
    for r in crow:
        groups.setdefault((r["workload"], r["file"]), {})[r["engine"]] = r
    na = {(s.get("workload"), s.get("file"), s["engine"]) for s in skipped if "engine" in s and "workload" in s}
    diff = {}
    for c in checks:
        for e, same in c["same_output"].items():
            if not same:
                diff[(c["workload"], c["file"], e)] = c["reference"]
    files = []
    for r in crow:
        if r["file"] not in files:
            files.append(r["file"])
    keys = sorted(groups, key=lambda k: (files.index(k[1]), WORKLOAD_ORDER.index(k[0])
                                         if k[0] in WORKLOAD_ORDER else 99))
    lines = ["| " + " | ".join(["command", "file", "MB", "jview (cpu, RSS)"] + [e.replace("|", "\\|") for e in engines]
                              + ["targets"]) + " |",
             "|---|---|--:|--:|" + "--:|" * len(engines) + "---|"]
    missed = []
    for key in keys:
        by_engine = groups[key]
        workload, label = key
        jv = by_engine.get("jview")
        base = jv["median_us"] if jv else None
        cells = []
        for e in engines:
            r = by_engine.get(e)
            if r and r.get("timed_out"):
                cells.append("> %g s%s" % (r["median_us"] / 1e6, (" (> %.0fx)" % (r["median_us"] / base))
                                           if base and not jv.get("timed_out") else ""))
            elif r:
                ratio = (" (%.1fx)" % (r["median_us"] / base)) if base else ""
                mark = " ≠" if (workload, label, e) in diff else ""
                cells.append("%s%s, %s MB%s" % (fmt_ms(r["median_us"]), ratio, fmt_mb(r["peak_rss_kb"]), mark))
            else:
                cells.append("n/a" if (workload, label, e) in na else "")
        verdicts = target_verdicts(workload, label, by_engine)
        for text, met in verdicts:
            if met is False:  # (None: a figure beside the targets, no target)
                missed.append("%s %s: %s" % (workload, label, text))
        tcell = "; ".join(("" if met is None else "ok " if met else "**MISS** ") + text
                          for text, met in verdicts).replace("|", "\\|")
        size = next(iter(by_engine.values()))["bytes"]
        lines.append("| " + " | ".join([command_label(workload, by_engine), label, "%.1f" % (size / 1e6),
                                         jview_cell(jv, (workload, label, "jview") in diff)] + cells + [tcell]) + " |")
    lines.append("")
    lines.append("Cells: median wall time (ratio to jview's median; above 1 is slower than jview), peak RSS "
                 "(GNU time's %%M, first run). ≠: output differs from jq 1.8's. Targets: issue 6, every language "
                 "row at least %gx faster than jq 1.6 and %gx faster than gojq; issue 4, `--utf8` at least %gx "
                 "faster than isutf8 and within %gx of `cat` on 1 GB of text." % (LANG_TARGETS["jq"], LANG_TARGETS["gojq"],
                                                            UTF8_TARGET_ISUTF8, UTF8_TARGET_CAT))
    met = sum(1 for key in keys for _, m in target_verdicts(key[0], key[1], groups[key]) if m is True)
    lines.append("")
    lines.append("Targets met: %d; missed: %d%s" % (met, len(missed), (":\n- " + "\n- ".join(missed)) if missed
                                                   else "."))
    return "\n".join(lines)


def jview_cell(jv, differs):
    if not jv:
        return "n/a"
    if jv.get("timed_out"):
        return "**> %g s** (timeout)" % (jv["median_us"] / 1e6)
    return "%s (cpu %s, %s MB)%s" % (fmt_ms(jv["median_us"]), fmt_ms(jv["cpu_us"]), fmt_mb(jv["peak_rss_kb"]),
                                     " ≠" if differs else "")


def fmt_ms(us):
    ms = us / 1e3
    return "%.0f ms" % ms if ms >= 100 else "%.1f ms" % ms if ms >= 10 else "%.2f ms" % ms


def fmt_mb(kb):
    mb = kb / 1024
    return "%.0f" % mb if mb >= 10 else "%.1f" % mb


def command_label(workload, by_engine):
    """`jq ARGS` of jview's command with the file left out, e.g. `-c '.statuses[].user.screen_name'`."""
    r = by_engine.get("jview") or next(iter(by_engine.values()))
    cmd = r.get("command", workload)
    words = cmd.split(" ")
    if workload in ("cmd-check", "cmd-utf8"):
        return "`%s`" % ("--check" if workload == "cmd-check" else "--utf8")
    # drop the program (first word) and the file and redirection (last words)
    inner = " ".join(words[1:]).rsplit(" | (read)", 1)[0]
    inner = inner.rsplit(" ", 1)[0]
    return "`%s`" % inner.replace("|", "\\|")  # a `|` ends a markdown cell even inside backticks

def distributed_rows(build_dir, skipped):
    """The rows of tests/benchmarks/distributed_bench.py (its table goes to stderr as it runs)."""
    script = os.path.join(ROOT, "tests", "benchmarks", "distributed_bench.py")
    with tempfile.NamedTemporaryFile(prefix="jview-distributed.", suffix=".jsonl") as f:
        r = subprocess.run([sys.executable, script, "--jview", os.path.join(build_dir, "jview"), "--json", f.name],
                           stdout=sys.stderr)
        if r.returncode != 0:
            skipped.append({"workload": "cmd-distributed", "reason": "distributed_bench.py exit %d" % r.returncode})
            return []
        return [json.loads(line) for line in open(f.name) if line.strip()]


# --- the merged table ----------------------------------------------------------------------------------------------

def reference_engine(workload, engines_here, machine):
    if "jview" in engines_here:
        return "jview"
    if workload in ("utf8", "minify"):  # bench_utf8 names kernels: take the one jview's dispatch picks here
        m = re.search(r"%s=(\w+)" % workload, machine.get("jview_kernels", ""))
        if m and "jview-" + m.group(1) in engines_here:
            return "jview-" + m.group(1)
    jv = [e for e in engines_here if e.startswith("jview")]
    return jv[0] if jv else None


def markdown_table(rows, skipped, machine):
    rows = [r for r in rows if not r["workload"].startswith("cmd-")]  # those have their own table
    if not rows:
        return "(no in-process rows)"
    engines = sorted({r["engine"] for r in rows}, key=lambda e: (ENGINE_ORDER.index(e) if e in ENGINE_ORDER
                                                                  else len(ENGINE_ORDER), e))
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["file"]), {})[r["engine"]] = r
    refused = {}
    for s in skipped:
        if "engine" in s:
            refused[(s.get("workload"), s.get("file"), s["engine"])] = "n/a" if s["reason"].startswith("n/a") \
                else "refused"
    lines = ["| workload | file | MB | jview median µs | GB/s | " + " | ".join(engines) + " |",
             "|---|---|--:|--:|--:|" + "--:|" * len(engines)]
    for (workload, file), by_engine in groups.items():
        ref = reference_engine(workload, by_engine, machine)
        base = by_engine[ref]["median_us"] if ref else None
        size = next(iter(by_engine.values()))["bytes"]
        cells = []
        for e in engines:
            if e in by_engine and base:
                cells.append("%.2f" % (by_engine[e]["median_us"] / base))
            else:
                cells.append(refused.get((workload, file, e), ""))
        gbs = "%.2f" % (size / (base * 1e3)) if base and size else ""
        lines.append("| %s | %s | %.2f | %s | %s | %s |" % (
            workload + ("" if ref in (None, "jview") else " (vs %s)" % ref), file, size / 1e6,
            "%.1f" % base if base else "", gbs, " | ".join(cells)))
    lines.append("")
    lines.append("Cells: engine median / jview median (above 1: slower than jview); `refused`: disagreed with "
                 "jview's results; `n/a`: the command failed. simdjson kernel: %s." % machine.get(
                     "simdjson_kernel", "?"))
    return "\n".join(lines)


def main():
    head, _, rest = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=head, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=rest)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"), help="CMake build directory (default: build)")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "corpus"),
                    help="corpus directory (default: ../shared/corpus)")
    ap.add_argument("--out", help="merged JSON (default: BUILD/bench.json)")
    ap.add_argument("--fresh", action="store_true",
                    help="do not keep the rows of the previous BUILD/bench.json that this run did not measure")
    ap.add_argument("--quick", action="store_true", help="few rounds, a few files, small generated inputs")
    ap.add_argument("--big", action="store_true", help="add the generated jeopardy and NDJSON log files")
    ap.add_argument("--ndjson-mb", type=float, help="size of the NDJSON log (default 200; 20 with --quick)")
    ap.add_argument("--jeopardy-mb", type=float, help="size of the jeopardy file (default 50; 5 with --quick)")
    ap.add_argument("--commands", action="store_true", help="also time whole commands (jview, jq, gojq, ...)")
    ap.add_argument("--runs", type=int, default=5,
                    help="timed runs per command (twice as many on files under 5 MB; default 5)")
    ap.add_argument("--slow-s", type=float, default=2.0,
                    help="a command whose first run takes longer is timed --slow-runs times (default 2 s)")
    ap.add_argument("--slow-runs", type=int, default=1, help="timed runs of slow commands (default 1)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a command run is killed")
    ap.add_argument("--utf8-mb", type=float, help="size of the generated text for --utf8 (default 1000; 20 with "
                    "--quick; 0: none)")
    ap.add_argument("--huge", action="store_true",
                    help="with --commands: also the big-input rows (tests/benchmarks/big_rows.py): a generated 1 GB "
                         "NDJSON log and its .gz/.zst, four programs, jview --threads 1/2/all from the file, a pipe "
                         "and the compressed files beside zcat|jq, zcat|gojq, igzip|jview, zstdcat|jview and cat "
                         "(about 40 minutes on 2 cores)")
    ap.add_argument("--distributed", action="store_true",
                    help="also one jview against GNU parallel and a Dask LocalCluster on a sharded log "
                         "(tests/benchmarks/distributed_bench.py; rows of workload cmd-distributed)")
    ap.add_argument("--huge-runs", type=int, default=3, help="timed runs of each --huge command (default 3)")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up rows (`-n 1`)")
    ap.add_argument("--startup-rounds", type=int, default=300,
                    help="interleaved rounds of the start-up rows (default 300; 40 with --quick)")
    ap.add_argument("--compressed", action="store_true",
                    help="with --commands: also the NDJSON log as .gz and .zst, read by jview directly and through "
                         "zcat, igzip -dc and zstdcat (tests/benchmarks/compressed_rows.py; with --huge, the 1 GB log)")
    ap.add_argument("--only-commands", default="",
                    help="comma-separated workloads to keep among the commands (e.g. cmd-utf8,cmd-minify)")
    ap.add_argument("--only-files", default="",
                    help="comma-separated parts of file names to keep among the commands (e.g. twitter,corpus)")
    ap.add_argument("--no-inprocess", action="store_true", help="skip the in-process benchmark programs")
    ap.add_argument("--programs", default=",".join(PROGRAMS), help="which programs to run (comma-separated)")
    ap.add_argument("--bench-args", default="", help="extra arguments for `bench`, e.g. '--only twitter.json'")
    ap.add_argument("--plots-dir", default=None, help="where plot.py writes the SVG charts (default: BUILD/plots)")
    ap.add_argument("--no-plots", action="store_true", help="do not draw the charts")
    args = ap.parse_args()

    build_dir = os.path.abspath(args.build_dir)
    data = os.path.abspath(args.data)
    out = os.path.abspath(args.out) if args.out else os.path.join(build_dir, "bench.json")
    if not os.path.isdir(build_dir):
        log("build directory %s does not exist" % build_dir)
        return 2
    if not os.path.isdir(data):
        log("corpus directory %s cannot be opened: programs will report it" % data)

    machine = machine_info()
    rows, skipped, checks = [], [], []
    procs = None
    ndjson_mb = args.ndjson_mb or (20 if args.quick else 200)
    jeopardy_mb = args.jeopardy_mb or (5 if args.quick else 50)
    generated = []
    if args.big or args.commands:
        wanted = [("gen_ndjson_log.py", "ndjson-log-%gmb.ndjson" % ndjson_mb, ndjson_mb)]
        if args.big:
            wanted.insert(0, ("gen_jeopardy.py", "jeopardy-%gmb.json" % jeopardy_mb, jeopardy_mb))
        for script, name, mb in wanted:
            path = generate(build_dir, script, name, mb)
            if path:
                generated.append(path)
            else:
                skipped.append({"file": name, "reason": "could not be generated"})

    if not args.no_inprocess:
        bench_dir = os.path.join(build_dir, "tests", "benchmarks")
        for prog in [p for p in args.programs.split(",") if p]:
            exe = os.path.join(bench_dir, prog)
            if not os.access(exe, os.X_OK):
                log("%s is not built (configure with -DJVIEW_BENCH=ON): skipped" % exe)
                skipped.append({"program": prog, "reason": "not built"})
                continue
            pargs = ["--data", data] + (["--quick"] if args.quick else [])
            if prog == "bench":
                if args.big:
                    for g in generated:
                        pargs += ["--file", g]
                pargs += args.bench_args.split()
            run_program(exe, pargs, rows, skipped, machine)

    if args.commands:
        if not os.access(os.path.join(build_dir, "jview"), os.X_OK):
            log("%s/jview is not built: its commands will be n/a" % build_dir)
        procs = tools(build_dir, skipped)
        machine["commands"] = {name: "%s (%s)" % (shown_path(path), version or "?") for name, path, version in procs}
        for tool in ("isutf8", "iconv", "cat"):
            exe = shutil.which(tool)
            if exe:
                machine["commands"][tool] = exe
            else:
                log("%s not found: not compared" % tool)
        json_files = []
        for name in ("twitter.json", "citm_catalog.json"):
            p = os.path.join(data, name)
            if os.path.isfile(p) and os.access(p, os.R_OK):
                json_files.append(p)
            else:
                log("cannot open %s: not used for --commands" % p)
                skipped.append({"file": name, "reason": "cannot open"})
        corpus = []
        try:
            for name in sorted(os.listdir(data)):
                p = os.path.join(data, name)
                if name.endswith((".json", ".ndjson")) and not os.path.isdir(p):
                    if os.path.isfile(p) and os.access(p, os.R_OK):
                        corpus.append(p)
                    else:
                        log("cannot open %s: left out of the corpus rows" % p)
                        skipped.append({"file": name, "reason": "cannot open"})
        except OSError as e:
            log("cannot list %s: %s" % (data, e))
        ndjson = [g for g in generated if g.endswith(".ndjson")]
        utf8 = []
        utf8_mb = args.utf8_mb if args.utf8_mb is not None else (20 if args.quick else 1000)
        if utf8_mb:
            text = generate(build_dir, "gen_utf8_text.py", "utf8-text-%gmb.txt" % utf8_mb, utf8_mb)
            if text:
                utf8.append((os.path.basename(text), [text]))
        utf8 += [(os.path.basename(g), [g]) for g in ndjson]
        cases = command_cases(json_files, ndjson, corpus, utf8, procs)
        big_cases = []
        if args.huge:
            huge = generate(build_dir, "gen_ndjson_log.py", "ndjson-log-%gmb.ndjson" % big_rows.SIZE_MB,
                            big_rows.SIZE_MB)
            if huge:
                big_cases = big_rows.cases(huge, procs, skipped, log)
        if args.compressed:
            for g in ndjson:
                cases += compressed_rows.cases(g, procs, skipped)
        if args.only_files:
            keep = args.only_files.split(",")
            cases = [c for c in cases if any(k in c[1] for k in keep)]
            big_cases = [c for c in big_cases if any(k in c[1] for k in keep)]
        if args.only_commands:
            keep = set(args.only_commands.split(","))
            cases = [c for c in cases if c[0] in keep]
            big_cases = [c for c in big_cases if c[0] in keep]
        run_commands(cases, args, rows, skipped, checks)
        if big_cases:  # a few interleaved runs of each jview command; jq and gojq over 1 GB once
            run_commands(big_cases, argparse.Namespace(**dict(vars(args), runs=args.huge_runs, slow_s=20.0)),
                         rows, skipped, checks)

    if args.distributed:
        rows += distributed_rows(build_dir, skipped)

    if not args.no_startup:
        if os.access(os.path.join(build_dir, "jview"), os.X_OK):
            procs = procs or tools(build_dir, skipped)
            rounds = args.startup_rounds if not args.quick else min(args.startup_rounds, 40)
            log("\nstart-up: %d interleaved rounds of %s" % (rounds, ", ".join(n for n, _, _ in procs)))
            srows, sskipped = startup_rows.measure(startup_rows.engines(build_dir, procs, log), rounds, 20, log)
            rows += srows
            skipped += sskipped
        else:
            log("%s/jview is not built: no start-up rows" % build_dir)

    try:
        machine["load_average_at_end"] = " ".join("%.2f" % x for x in os.getloadavg())
        machine["date_end"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OSError:
        pass
    if "compiler" not in machine:
        c = compiler_from_cache(build_dir)
        if c:
            machine["compiler"] = c
    result = {"machine": machine, "rows": rows, "skipped": skipped}
    if checks:
        result["command_output_checks"] = checks
    kept = 0
    if not args.fresh and os.path.exists(out):  # keep what this run did not measure (e.g. in-process rows)
        try:
            with open(out) as f:
                old = json.load(f)
            measured = {(r["file"], r["workload"], r["engine"]) for r in rows}
            for r in old.get("rows", []):
                if (r.get("file"), r.get("workload"), r.get("engine")) not in measured:
                    r.setdefault("date", old.get("machine", {}).get("date") or "earlier")
                    rows.append(r)
                    kept += 1
            if not checks and old.get("command_output_checks"):
                result["command_output_checks"] = old["command_output_checks"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            log("previous %s not merged: %s" % (out, e))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    log("\nwrote %s (%d rows, %d of them kept from the previous file; %d skipped)" % (out, len(rows), kept,
                                                                                    len(skipped)))
    if not args.no_plots:
        draw_plots(out, os.path.abspath(args.plots_dir) if args.plots_dir else os.path.join(build_dir, "plots"))
    print("machine: %s; %s; %s cores; flags: %s; compiler: %s; simdjson kernel: %s (On-Demand builtin: %s); "
          "clock: %s; %s to %s; load average at start: %s, at end: %s\n" % (
              machine.get("cpu"), machine.get("os"), machine.get("cores"), machine.get("flags"),
              machine.get("compiler", "?"), machine.get("simdjson_kernel", "?"),
              machine.get("simdjson_ondemand_builtin", "?"), machine.get("clock", "?"), machine.get("date"),
              machine.get("date_end", "?"), machine.get("load_average_at_start", "?"),
              machine.get("load_average_at_end", "?")))
    if not args.no_inprocess or not args.commands:
        print(markdown_table(rows, skipped, machine))
    fresh = [r for r in rows if r.get("date") is None]
    if not args.no_startup:
        print("\n" + startup_rows.table([r for r in fresh if r["workload"] == startup_rows.WORKLOAD],
                                        args.startup_rounds, machine.get("load_average_at_start", "?")))
    if args.commands:
        print("\nWhole commands; tools: %s\n" % "; ".join("%s = %s" % kv for kv in machine["commands"].items()))
        print(command_table([r for r in fresh if r["workload"] != startup_rows.WORKLOAD], skipped, checks))
        if args.huge:
            print("\nScaling on %s CPUs (--threads 1, 2, all; from the file):\n%s" % (os.cpu_count(),
                                                                                   big_rows.scaling_note(fresh)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
