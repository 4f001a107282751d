#!/usr/bin/env python3
"""tests/benchmarks/compare.py: the benchmark driver. Runs every benchmark program of the build (bench, bench_dtoa,
bench_utf8), optionally times whole commands (jview against jq, gojq and binaries named by *_BIN environment
variables, through hyperfine), merges all rows into BUILD/bench.json = {"machine": {...}, "rows": [...],
"skipped": [...]} and prints one markdown table (rows: workload and file; columns: engines, as ratios to jview).

The programs' own tables go to stderr as they run. Missing programs, unreadable files and failing commands are
reported and recorded ("skipped"), never fatal. Paths given on the command line are relative to the current
directory. Extra tools for --commands: every environment variable NAME_BIN=PATH adds PATH as engine `name-env`
(e.g. JQ_BIN=/opt/jq-1.7/jq). Generated inputs (--big, --commands) are written under BUILD/bench-data by
corpus/gen_*.py and reused while the generator and its arguments are unchanged.

  python3 tests/benchmarks/compare.py --build-dir build --data ../shared/corpus            # in-process, all files
  python3 tests/benchmarks/compare.py --build-dir build --data ../shared/corpus --big --commands
  python3 tests/benchmarks/compare.py --quick --commands                                    # smoke run
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = ["bench", "bench_dtoa", "bench_utf8"]
FLAG_SUMMARY = ["sse2", "ssse3", "sse4_2", "pclmulqdq", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl",
                "avx512vbmi", "avx512_vbmi2", "avx512_bitalg", "vpclmulqdq", "asimd", "sve"]
ENGINE_ORDER = ["jview", "jview-reuse", "jview-portable", "jview-sse2", "jview-ssse3", "jview-avx2", "jview-avx512",
                "simdjson-dom", "simdjson-dom-reuse", "simdjson-ondemand", "simdjson", "boost-json", "rapidjson",
                "nlohmann", "to_chars", "fmt", "jq", "jq-1.8", "gojq", "isutf8"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


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


# --- whole commands (hyperfine) ------------------------------------------------------------------------------------

# The path select per file (the in-process select's paths), and the files' roles.
PATHS = {"twitter.json": ".statuses[].user.screen_name", "citm_catalog.json": ".events[].name"}


def path_for(name):
    if name in PATHS:
        return PATHS[name]
    if name.startswith("jeopardy"):
        return ".[].question"
    if name.startswith("ndjson-log"):
        return ".user.login"
    return None


def tools(build_dir):
    """(name, path) of every processor to compare, jview first."""
    found = [("jview", os.path.join(build_dir, "jview"))]
    if os.path.exists("/usr/bin/jq"):
        found.append(("jq", "/usr/bin/jq"))
    jq18 = os.path.join(ROOT, "..", "shared", "tools", "jq-1.8")
    if os.access(jq18, os.X_OK):
        found.append(("jq-1.8", os.path.normpath(jq18)))
    gojq = shutil.which("gojq")
    if gojq:
        found.append(("gojq", gojq))
    for var in sorted(os.environ):
        if var.endswith("_BIN") and os.environ[var]:
            path = shutil.which(os.environ[var]) or os.environ[var]
            if os.access(path, os.X_OK):
                found.append((var[:-4].lower().replace("_", "-") + "-env", path))
            else:
                log("%s=%s is not an executable: ignored" % (var, os.environ[var]))
    return found


def command_cases(files, build_dir):
    """(workload, file path, [(engine, argv)]) for every command to time."""
    procs = tools(build_dir)
    jq_like = procs  # every tool takes jq's arguments
    cases = []
    for path in files:
        name = os.path.basename(path)
        ndjson = name.endswith(".ndjson")
        cases.append(("cmd-pretty", path, [(n, [p, ".", path]) for n, p in jq_like]))
        cases.append(("cmd-minify", path, [(n, [p, "-c", ".", path]) for n, p in jq_like]))
        sel = path_for(name)
        if sel:
            cases.append(("cmd-path", path, [(n, [p, "-c", sel, path]) for n, p in jq_like]))
        if ndjson:
            cases.append(("cmd-select", path,
                          [(n, [p, "-c", 'select(.level == "error")', path]) for n, p in jq_like]))
        cases.append(("cmd-length", path, [(n, [p, "length", path]) for n, p in jq_like]))
        check = [("jview", [procs[0][1], "--check", path])]
        check += [(n, [p, "empty", path]) for n, p in jq_like[1:]]
        cases.append(("cmd-check", path, check))
        utf8 = [("jview", [procs[0][1], "--utf8", path])]
        if shutil.which("isutf8"):
            utf8.append(("isutf8", [shutil.which("isutf8"), path]))
        cases.append(("cmd-utf8", path, utf8))
    return cases


def shell_quote(arg):
    return arg if re.fullmatch(r"[\w@%+=:,./-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


def output_digest(argv, timeout):
    """(exit status, first stderr line, sha256 of stdout) of one run."""
    h = hashlib.sha256()
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        return 127, str(e), None
    try:
        while True:
            chunk = p.stdout.read(1 << 20)
            if not chunk:
                break
            h.update(chunk)
        err = p.stderr.read().decode("utf-8", "replace")
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        return -1, "timed out", None
    return p.returncode, (err.strip().splitlines() or [""])[0][:160], h.hexdigest()


def run_commands(files, build_dir, quick, rows, skipped, checks):
    if not shutil.which("hyperfine"):
        log("hyperfine not found: --commands skipped")
        skipped.append({"program": "hyperfine", "reason": "not installed"})
        return
    if not os.access(os.path.join(build_dir, "jview"), os.X_OK):
        log("%s/jview not built: jview commands will be n/a" % build_dir)
    for workload, path, engines in command_cases(files, build_dir):
        name = os.path.basename(path)
        size = os.path.getsize(path)
        big = size > 20_000_000
        log("\n%s %s (%d bytes)" % (workload, name, size))
        ok, digests = [], {}
        for engine, argv in engines:
            status, err, digest = output_digest(argv, timeout=600)
            if status != 0:
                reason = "n/a: exit %d%s" % (status, (": " + err) if err else "")
                log("  %-10s %s" % (engine, reason))
                skipped.append({"file": name, "workload": workload, "engine": engine, "reason": reason})
                continue
            digests[engine] = digest
            ok.append((engine, argv))
        ref = "jq-1.8" if "jq-1.8" in digests else "jq" if "jq" in digests else None
        if "jview" in digests and ref and workload not in ("cmd-check", "cmd-utf8"):
            same = digests["jview"] == digests[ref]
            checks.append({"file": name, "workload": workload, "same_output_as": ref, "same": same})
            log("  jview output %s %s's" % ("is byte-identical to" if same else "DIFFERS from", ref))
        if not ok:
            continue
        runs = ["--runs", "3", "--warmup", "1"] if quick or big else ["--warmup", "3", "--min-runs", "10"]
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            export = tmp.name
        cmd = ["hyperfine", "-N", "--style", "none", "--output", "pipe", "--export-json", export] + runs
        for engine, argv in ok:
            cmd += ["-n", engine, " ".join(shell_quote(a) for a in argv)]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            log("  hyperfine failed: %s" % r.stderr.strip()[:300])
            for engine, _ in ok:
                skipped.append({"file": name, "workload": workload, "engine": engine, "reason": "hyperfine failed"})
            continue
        with open(export) as f:
            results = json.load(f)["results"]
        os.unlink(export)
        base = None
        for res in results:
            row = {"file": name, "workload": workload, "engine": res["command"],
                   "median_us": round(res["median"] * 1e6, 1), "best_us": round(res["min"] * 1e6, 1),
                   "bytes": size, "cpu_us": round((res["user"] + res["system"]) * 1e6, 1)}
            rows.append(row)
            if row["engine"] == "jview":
                base = row["median_us"]
        for row in rows[-len(results):]:
            log("  %-10s median %10.1f ms  best %10.1f ms  cpu %10.1f ms  %s" % (
                row["engine"], row["median_us"] / 1e3, row["best_us"] / 1e3, row["cpu_us"] / 1e3,
                ("%.2fx jview" % (row["median_us"] / base)) if base else ""))


# --- the merged table ----------------------------------------------------------------------------------------------

def reference_engine(workload, engines_here, machine):
    if "jview" in engines_here:
        return "jview"
    if workload == "utf8":  # bench_utf8 names kernels: take the one jview's dispatch picks on this machine
        m = re.search(r"utf8=(\w+)", machine.get("jview_kernels", ""))
        if m and "jview-" + m.group(1) in engines_here:
            return "jview-" + m.group(1)
    jv = [e for e in engines_here if e.startswith("jview")]
    return jv[0] if jv else None


def markdown_table(rows, skipped, machine):
    if not rows:
        return "(no rows: nothing was timed)"
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
    ap.add_argument("--quick", action="store_true", help="few rounds, a few files, small generated inputs")
    ap.add_argument("--big", action="store_true", help="add the generated jeopardy and NDJSON log files")
    ap.add_argument("--ndjson-mb", type=float, help="size of the NDJSON log (default 200; 20 with --quick)")
    ap.add_argument("--jeopardy-mb", type=float, help="size of the jeopardy file (default 50; 5 with --quick)")
    ap.add_argument("--commands", action="store_true", help="also time whole commands with hyperfine")
    ap.add_argument("--no-inprocess", action="store_true", help="skip the in-process benchmark programs")
    ap.add_argument("--programs", default=",".join(PROGRAMS), help="which programs to run (comma-separated)")
    ap.add_argument("--bench-args", default="", help="extra arguments for `bench`, e.g. '--only twitter.json'")
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
    ndjson_mb = args.ndjson_mb or (20 if args.quick else 200)
    jeopardy_mb = args.jeopardy_mb or (5 if args.quick else 50)
    generated = []
    if args.big or args.commands:
        for script, name in (("gen_jeopardy.py", "jeopardy-%gmb.json" % jeopardy_mb),
                             ("gen_ndjson_log.py", "ndjson-log-%gmb.ndjson" % ndjson_mb)):
            path = generate(build_dir, script, name, jeopardy_mb if "jeopardy" in name else ndjson_mb)
            if path:
                generated.append(path)

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
        files = []
        for name in ("twitter.json", "citm_catalog.json"):
            p = os.path.join(data, name)
            if os.path.isfile(p) and os.access(p, os.R_OK):
                files.append(p)
            else:
                log("cannot open %s: not used for --commands" % p)
                skipped.append({"file": name, "reason": "cannot open"})
        run_commands(files + generated, build_dir, args.quick, rows, skipped, checks)

    if "compiler" not in machine:
        c = compiler_from_cache(build_dir)
        if c:
            machine["compiler"] = c
    result = {"machine": machine, "rows": rows, "skipped": skipped}
    if checks:
        result["command_output_checks"] = checks
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    log("\nwrote %s (%d rows, %d skipped)" % (out, len(rows), len(skipped)))
    print("machine: %s; %s; %s cores; flags: %s; compiler: %s; simdjson kernel: %s (On-Demand builtin: %s); "
          "clock: %s; %s\n" % (machine.get("cpu"), machine.get("os"), machine.get("cores"), machine.get("flags"),
                               machine.get("compiler", "?"), machine.get("simdjson_kernel", "?"),
                               machine.get("simdjson_ondemand_builtin", "?"), machine.get("clock", "?"),
                               machine.get("date")))
    print(markdown_table(rows, skipped, machine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
