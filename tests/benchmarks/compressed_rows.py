"""tests/benchmarks/compressed_rows.py: the compressed-input rows of compare.py (issue 20 item 4), `--compressed`
with `--commands`: the generated NDJSON log compressed with gzip -6 and zstd -3 (kept beside it in BUILD/bench-data
while the log is unchanged), and `-c .`, `select(.level == "error")` and `.user.login` over each:

  .gz:  jview FILE.gz (its own decoder, ISA-L igzip, on a thread of its own), `zcat FILE.gz | jview`,
        `igzip -dc FILE.gz | jview` (Debian package isal), `zcat FILE.gz | jq` (1.8 when found, else jq 1.6)
  .zst: jview FILE.zst, `zstdcat FILE.zst | jview`

Engines are named as the commands are ("zcat|jview"); a pipeline runs under /bin/sh -c, so its CPU time is that of
every process in it. Targets (issue 20): `.gz` read directly at least 1.3x faster (wall) than `zcat | jview`, and
`.zst` no slower than `zstdcat | jview`."""
import os
import shutil
import subprocess

GZ_TARGET = 1.3    # zcat|jview wall / jview .gz wall, at least
ZST_TARGET = 1.0   # zstdcat|jview wall / jview .zst wall, at least

WORKLOADS = [
    ("cmd-minify", ["-c", "."]),
    ("cmd-select", ["-c", 'select(.level == "error")']),
    ("cmd-path", ["-c", ".user.login"]),
]


def _log(msg):
    import sys
    print(msg, file=sys.stderr, flush=True)


def compressed_copy(path, tool, ext, args):
    """PATH.EXT made by `tool args < PATH`, reused while it is newer than PATH; None when tool is missing or fails."""
    exe = shutil.which(tool)
    if not exe:
        return None
    out = path + "." + ext
    if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(path) and os.path.getsize(out) > 0:
        return out
    _log("compressing %s with %s %s ..." % (path, tool, " ".join(args)))
    tmp = out + ".tmp"
    with open(path, "rb") as src, open(tmp, "wb") as dst:
        if subprocess.run([exe] + args, stdin=src, stdout=dst).returncode != 0:
            os.unlink(tmp)
            return None
    os.replace(tmp, out)
    return out


def _q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def cases(ndjson_path, procs, skipped):
    """[(workload, label, bytes, [(engine, argv)], "pipe")] for compare.py's run_commands. `procs` is compare.py's
    tool list (jview first); `bytes` is the decompressed size (what the GB/s of the table mean)."""
    jview = procs[0][1]
    jq = next((p for n, p, _ in procs if n == "jq-1.8"), None) or next((p for n, p, _ in procs if n == "jq"), None)
    size = os.path.getsize(ndjson_path)
    out = []
    gz = compressed_copy(ndjson_path, "gzip", "gz", ["-6", "-c"])
    zst = compressed_copy(ndjson_path, "zstd", "zst", ["-3", "-q", "-c", "-T0"])
    for name, path in (("gzip", gz), ("zstd", zst)):
        if not path:
            _log("%s not found or failed: no %s rows" % (name, name))
            skipped.append({"file": os.path.basename(ndjson_path), "reason": "%s missing: no compressed rows" % name})
    pipes_gz = [("zcat|jview", "zcat"), ("igzip|jview", "igzip -dc")]
    for workload, args in WORKLOADS:
        prog = " ".join(_q(a) for a in args)
        if gz:
            engines = [("jview", [jview] + args + [gz])]
            for engine, cat in pipes_gz:
                if shutil.which(cat.split()[0]):
                    engines.append((engine, ["/bin/sh", "-c", "%s %s | %s %s" % (cat, _q(gz), _q(jview), prog)]))
                else:
                    skipped.append({"file": os.path.basename(gz), "workload": workload, "engine": engine,
                                    "reason": "%s not installed" % cat.split()[0]})
            if jq:
                engines.append(("zcat|jq", ["/bin/sh", "-c", "zcat %s | %s %s" % (_q(gz), _q(jq), prog)]))
            out.append((workload, os.path.basename(gz), size, engines, "pipe"))
        if zst:
            engines = [("jview", [jview] + args + [zst])]
            if shutil.which("zstdcat"):
                engines.append(("zstdcat|jview", ["/bin/sh", "-c", "zstdcat %s | %s %s" % (_q(zst), _q(jview), prog)]))
            out.append((workload, os.path.basename(zst), size, engines, "pipe"))
    return out


def verdicts(label, by_engine):
    """[(text, met)]: the issue 20 targets of a compressed row."""
    out = []
    base = by_engine.get("jview", {}).get("median_us")
    if not base:
        return out
    for suffix, engine, want in ((".gz", "zcat|jview", GZ_TARGET), (".zst", "zstdcat|jview", ZST_TARGET)):
        if label.endswith(suffix) and engine in by_engine:
            ratio = by_engine[engine]["median_us"] / base
            out.append(("%s %.2fx (want >= %gx)" % (engine, ratio, want), ratio >= want))
    return out
