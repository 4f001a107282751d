"""tests/benchmarks/big_rows.py: the big-input rows of compare.py (issue 20 item 4), `--commands --huge`: a generated
1 GB NDJSON log (corpus/gen_ndjson_log.py) and its .gz (gzip -6) and .zst (zstd -3) copies, four programs over each:

  cmd-minify    -c .
  cmd-select    -c 'select(.http.status >= 500)'
  cmd-path      -c .user.id
  cmd-per-value -c '{id: .user.id, ok: (.http.status < 400), ms: (.http.latency_ms | floor), svc: (.service |
                ascii_upcase)}'   (per-value work, no grouping)

Engines, one row each (wall time, total CPU time of every process of the command, peak RSS):
  plain log:  jview --threads 1 ("jview", the base of the ratios), --threads 2 ("jview-t2"), the default, every CPU
              this process may use ("jview-tall"); the same from a pipe, `cat FILE | jview ...` ("cat|jview",
              "cat|jview-t2", "cat|jview-tall"); `cat FILE > /dev/null` ("cat", the floor: reading the bytes)
  .gz:        jview FILE.gz --threads 1, 2, all; `zcat | jview --threads 1` ("zcat|jview"), `igzip -dc | jview
              --threads 1` ("igzip|jview"), `zcat | jq` (jq 1.8: "zcat|jq-1.8"), `zcat | gojq` ("zcat|gojq")
  .zst:       jview FILE.zst --threads 1, 2, all; `zstdcat | jview --threads 1` ("zstdcat|jview")

A pipeline runs under /bin/sh -c: its CPU time is that of every process in it, its RSS the largest one's. The
targets of issue 20 are checked on these rows (verdicts): --threads 2 at least 1.7x faster than one thread from the
file at no more than 1.15x its CPU; from a pipe at most 1.15x the file's CPU (here: the whole pipeline's, cat's
included); .gz read directly at least 1.3x faster than zcat | jview; .zst no slower than zstdcat | jview; peak RSS
with --threads 2 under 100 MB."""
import os
import shutil

import compressed_rows

SIZE_MB = 1000
WORKLOADS = [
    ("cmd-minify", ["-c", "."]),
    ("cmd-select", ["-c", "select(.http.status >= 500)"]),
    ("cmd-path", ["-c", ".user.id"]),
    ("cmd-per-value", ["-c", "{id: .user.id, ok: (.http.status < 400), ms: (.http.latency_ms | floor), "
                             "svc: (.service | ascii_upcase)}"]),
]
THREADS = [("jview", ["--threads", "1"]), ("jview-t2", ["--threads", "2"]), ("jview-tall", [])]
THREADS2_SPEEDUP, THREADS2_CPU, PIPE_CPU, THREADS2_RSS_MB = 1.7, 1.15, 1.15, 100


def _q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def _sh(cmd):
    return ["/bin/sh", "-c", cmd]


def cases(log_path, procs, skipped, log):
    """[(workload, label, bytes, [(engine, argv)], "pipe")] for compare.py's run_commands; `procs` is compare.py's
    tool list (jview first). Labels are the file names (FILE, FILE.gz, FILE.zst); bytes the decompressed size."""
    jview = procs[0][1]
    jq = next((p for n, p, _ in procs if n == "jq-1.8"), None)
    gojq = next((p for n, p, _ in procs if n == "gojq"), None)
    size = os.path.getsize(log_path)
    gz = compressed_rows.compressed_copy(log_path, "gzip", "gz", ["-6", "-c"])
    zst = compressed_rows.compressed_copy(log_path, "zstd", "zst", ["-3", "-q", "-c", "-T0"])
    name = os.path.basename(log_path)
    for tool, path in (("gzip", gz), ("zstd", zst)):
        if not path:
            log("%s not found or failed: no %s rows of %s" % (tool, tool, name))
            skipped.append({"file": name, "reason": "%s missing: no compressed rows" % tool})
    out = []
    for workload, args in WORKLOADS:
        prog = " ".join(_q(a) for a in args)
        plain = [(e, [jview] + t + args + [log_path]) for e, t in THREADS]
        plain += [("cat|" + e, _sh("cat %s | %s %s %s" % (_q(log_path), _q(jview), " ".join(t), prog)))
                  for e, t in THREADS]
        plain.append(("cat", _sh("cat %s > /dev/null" % _q(log_path))))
        out.append((workload, name, size, plain, "pipe"))
        if gz:
            engines = [(e, [jview] + t + args + [gz]) for e, t in THREADS]
            for engine, cat in (("zcat|jview", "zcat"), ("igzip|jview", "igzip -dc")):
                if shutil.which(cat.split()[0]):
                    engines.append((engine, _sh("%s %s | %s --threads 1 %s" % (cat, _q(gz), _q(jview), prog))))
                else:
                    skipped.append({"file": os.path.basename(gz), "workload": workload, "engine": engine,
                                    "reason": "%s not installed" % cat.split()[0]})
            for engine, tool in (("zcat|jq-1.8", jq), ("zcat|gojq", gojq)):
                if tool:
                    engines.append((engine, _sh("zcat %s | %s %s" % (_q(gz), _q(tool), prog))))
            out.append((workload, os.path.basename(gz), size, engines, "pipe"))
        if zst:
            engines = [(e, [jview] + t + args + [zst]) for e, t in THREADS]
            if shutil.which("zstdcat"):
                engines.append(("zstdcat|jview", _sh("zstdcat %s | %s --threads 1 %s" % (_q(zst), _q(jview), prog))))
            out.append((workload, os.path.basename(zst), size, engines, "pipe"))
    return out


def verdicts(label, by_engine):
    """[(text, met)]: issue 20's targets on a big-input row (the label names the 1 GB log, or its .gz/.zst)."""
    out = []
    one = by_engine.get("jview")
    if not one or not is_big(label) or one.get("timed_out"):
        return out
    two = by_engine.get("jview-t2")
    if two and not label.endswith((".gz", ".zst")):
        speedup = one["median_us"] / two["median_us"]
        cpu = two["cpu_us"] / one["cpu_us"]
        out.append(("--threads 2 %.2fx faster (want >= %gx)" % (speedup, THREADS2_SPEEDUP), speedup >= THREADS2_SPEEDUP))
        out.append(("--threads 2 CPU %.2fx one thread's (want <= %gx)" % (cpu, THREADS2_CPU), cpu <= THREADS2_CPU))
        rss = two["peak_rss_kb"] / 1024
        out.append(("--threads 2 RSS %.0f MB (want < %g MB)" % (rss, THREADS2_RSS_MB), rss < THREADS2_RSS_MB))
    piped = by_engine.get("cat|jview")
    if piped and not label.endswith((".gz", ".zst")):
        cpu = piped["cpu_us"] / one["cpu_us"]
        out.append(("cat|jview CPU %.2fx the file's, cat's included (want <= %gx)" % (cpu, PIPE_CPU), cpu <= PIPE_CPU))
    return out + compressed_rows.verdicts(label, by_engine)


def scaling_note(rows):
    """One line per program: wall time of --threads 1, 2 and all from the file, and the speed-ups."""
    lines = []
    for workload, _ in WORKLOADS:
        by = {r["engine"]: r for r in rows if r["workload"] == workload and r["file"].endswith("%gmb.ndjson" % SIZE_MB)}
        if "jview" not in by:
            continue
        one = by["jview"]["median_us"]
        parts = ["%s %.2f s (%.2fx, CPU %.2f s)" % (e, by[e]["median_us"] / 1e6, one / by[e]["median_us"],
                                                   by[e]["cpu_us"] / 1e6) for e, _ in THREADS if e in by]
        lines.append("- %s: %s" % (workload, "; ".join(parts)))
    return "\n".join(lines)


def is_big(label):
    return ("%gmb." % SIZE_MB) in label
