#!/usr/bin/env python3
"""tests/benchmarks/plot.py: SVG charts of BUILD/bench.json (written by compare.py, which runs this at the end of
`make bench`), for RESULTS.md and the README:

  inprocess-parse.svg, inprocess-dump-compact.svg
      per corpus file, the time of simdjson's DOM, RapidJSON, Boost.JSON and nlohmann as a multiple of jview's
      (fresh documents; and simdjson's reused DOM against jview's reused document); bars right of 1 are slower
      than jview. Log scale.
  commands.svg
      whole commands: the wall time of jq 1.6, jq 1.8 and gojq as a multiple of jview's, per command and file.
  threads.svg
      `jview-threads-N` rows, or the --huge rows `jview`, `jview-t2`, `jview-tall` (when a run has them): speed-up
      over one thread against N, one line per workload
      and file. Left out when there are no such rows.

Each chart is drawn from the rows that exist: an engine, a file or a whole chart without rows is left out and
said so, never an error. Ratios, not absolute times, because the machines measured are shared and noisy (see
RESULTS.md). The SVGs are reproducible (no date, fixed ids), text kept as text.

  python3 tests/benchmarks/plot.py --bench build/bench.json --out build/plots

Needs matplotlib (Debian: python3-matplotlib); without it says so and exits 0."""
import argparse
import json
import os
import sys

# In-process charts: each competitor as (label, engine, jview's engine it is compared with). The adapters of
# RapidJSON, Boost.JSON and nlohmann build a fresh document per value, as `jview` and `simdjson-dom` do; the
# `-reuse` engines parse into the same document again and are compared with each other.
PARSERS = [("simdjson 3 DOM, both reusing the document", "simdjson-dom-reuse", "jview-reuse"),
           ("simdjson 3 DOM", "simdjson-dom", "jview"), ("RapidJSON", "rapidjson", "jview"),
           ("Boost.JSON 1.81", "boost-json", "jview"), ("nlohmann 3.11", "nlohmann", "jview")]
INPROCESS = ["parse", "dump-compact"]
COMMAND_ENGINES = [("jq", "jq 1.6"), ("jq-1.8", "jq 1.8"), ("gojq", "gojq")]
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]


def log(msg):
    print("plot: " + msg, file=sys.stderr, flush=True)


def subtitle(machine):
    parts = [machine.get("cpu", "?"), "%s cores" % machine.get("cores", "?"), machine.get("date", "")[:10],
             "load average %s at the start" % machine.get("load_average_at_start", "?").split(" ")[0]]
    return ", ".join(p for p in parts if p)


def usable(r):
    return isinstance(r, dict) and isinstance(r.get("median_us"), (int, float)) and r["median_us"] > 0 \
        and not r.get("timed_out") and all(isinstance(r.get(k), str) for k in ("file", "workload", "engine"))


def ratio_chart(plt, groups, series, title, xlabel, machine, path):
    """Horizontal grouped bars: groups = [(label, {engine: ratio})], series = [(engine, label)]; log x axis."""
    series = [(e, l) for e, l in series if any(e in g for _, g in groups)]
    if not groups or not series:
        return False
    bar = 0.8 / len(series)
    height = max(2.5, 0.25 * len(groups) * max(1, len(series)) * 0.55 + 1.6)
    fig, ax = plt.subplots(figsize=(9, height))
    for i, (engine, label) in enumerate(series):
        ys, xs = [], []
        for j, (_, g) in enumerate(groups):
            if engine in g:
                ys.append(j + (i - (len(series) - 1) / 2) * bar)
                xs.append(g[engine])
        # From 1 (jview's time) to the ratio: right of the line slower than jview, left of it faster.
        ax.barh(ys, [x - 1 for x in xs], height=bar, left=1, color=COLORS[i % len(COLORS)], label=label)
    ax.set_xscale("log")
    values = [x for _, g in groups for x in g.values()]
    lo, hi = min(values + [1.0]), max(values + [1.0])
    ax.set_xlim(lo / 1.25, hi * 1.25)
    ticks = [t for t in (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500) if lo / 1.25 <= t <= hi * 1.25]
    ax.set_xticks(ticks)
    ax.set_xticklabels(["%gx" % t for t in ticks])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(groups)))
    ax.set_yticklabels([label for label, _ in groups], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title + "\n" + subtitle(machine), fontsize=10)
    ax.grid(axis="x", which="both", linewidth=0.3, alpha=0.6)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    return True


def inprocess_charts(plt, rows, machine, out):
    made = []
    for workload in INPROCESS:
        by_file = {}
        for r in rows:
            if r["workload"] == workload:
                by_file.setdefault(r["file"], {})[r["engine"]] = r["median_us"]
        groups = []
        for f in sorted(by_file, key=str.lower):
            engines = by_file[f]
            g = {label: engines[e] / engines[ref] for label, e, ref in PARSERS if e in engines and ref in engines}
            if g:
                groups.append((f, g))
        name = "inprocess-%s.svg" % workload
        series = [(label, label) for label, _, _ in PARSERS]
        if ratio_chart(plt, groups, series, "In process, %s: time as a multiple of jview's" % workload,
                       "time / jview's time (log scale; right of 1: slower than jview)", machine,
                       os.path.join(out, name)):
            made.append(name)
        else:
            log("no %s rows with jview and another parser: %s left out" % (workload, name))
    return made


def command_label(r):
    """The program's arguments without the program and the file: `-c .user.login` from the displayed command
    `build/jview -c .user.login FILE | (read)`; `--check` / `--utf8` for those rows (they name many files)."""
    if r["workload"] in ("cmd-check", "cmd-utf8"):
        return "--" + r["workload"][4:]
    cmd = r.get("command")
    if not isinstance(cmd, str):
        return r["workload"][4:]
    for tail in (" | (read)", " > /dev/null"):
        if cmd.endswith(tail):
            cmd = cmd[:-len(tail)]
    words = cmd.split(" ")
    return " ".join(words[1:-1]) if len(words) > 2 else r["workload"][4:]


def commands_chart(plt, rows, machine, out):
    by_group = {}  # in the order compare.py ran them, file by file
    for r in rows:
        if r["workload"].startswith("cmd-"):
            by_group.setdefault((r["file"], r["workload"]), {})[r["engine"]] = r
    files = list(dict.fromkeys(f for f, _ in by_group))
    groups = []
    for (f, workload), engines in sorted(by_group.items(), key=lambda kv: files.index(kv[0][0])):
        jv = engines.get("jview")
        if jv is None:
            continue
        g = {e: engines[e]["median_us"] / jv["median_us"] for e, _ in COMMAND_ENGINES if e in engines}
        if g:
            label = command_label(jv)
            if len(label) > 46:
                label = label[:45] + "…"
            groups.append(("%s  (%s)" % (label.replace("$", r"\$"), f), g))  # ($: no mathtext)
    name = "commands.svg"
    if ratio_chart(plt, groups, COMMAND_ENGINES, "Whole commands: wall time as a multiple of jview's",
                   "time / jview's time (log scale)", machine, os.path.join(out, name)):
        return [name]
    log("no whole-command rows with jview and jq or gojq: %s left out" % name)
    return []


def thread_count(engine, machine):
    """N of a row of jview on N threads from a file: `jview-threads-N`, or the --huge rows (big_rows.py) `jview`
    (--threads 1), `jview-t2` and `jview-tall` (every CPU of the machine that ran it); None for any other row."""
    if engine.startswith("jview-threads-"):
        try:
            return int(engine[len("jview-threads-"):])
        except ValueError:
            return None
    cores = machine.get("cores")
    return {"jview": 1, "jview-t2": 2, "jview-tall": cores if isinstance(cores, int) and cores > 0 else None}.get(engine)


def thread_series(rows, machine):
    """{(workload, file): {N: median µs}} of jview on N threads from an uncompressed file, for every workload and
    file measured on one thread and on at least one other count."""
    series = {}
    for r in rows:
        if not r["workload"].startswith("cmd-") or r["file"].endswith((".gz", ".zst")):
            continue  # (in-process rows, and the compressed files' rows: decoding runs on a thread of its own)
        n = thread_count(r["engine"], machine)
        if n is None:
            continue
        times = series.setdefault((r["workload"], r["file"]), {})
        # `jview-tall` on a machine of N cores measures the same count as `jview-t2` or `jview-threads-N`: the row
        # that names its count wins, whichever order the rows come in.
        if n not in times or r["engine"] != "jview-tall":
            times[n] = r["median_us"]
    return {k: v for k, v in series.items() if 1 in v and len(v) > 1}


def threads_chart(plt, rows, machine, out):
    series = thread_series(rows, machine)
    if not series:
        log("no jview-threads-N rows (with N = 1 and another): threads.svg left out")
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    top = 1
    for i, ((workload, f), times) in enumerate(sorted(series.items())):
        ns = sorted(times)
        ax.plot(ns, [times[1] / times[n] for n in ns], marker="o", color=COLORS[i % len(COLORS)],
                label="%s, %s" % (workload, f))
        top = max(top, ns[-1])
    ax.plot([1, top], [1, top], linestyle=":", color="gray", label="linear")
    ax.set_xlabel("threads (--threads N)")
    ax.set_ylabel("speed-up over one thread")
    ax.set_title("Threads scaling\n" + subtitle(machine), fontsize=10)
    ax.grid(linewidth=0.3, alpha=0.6)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "threads.svg"), metadata={"Date": None})
    plt.close(fig)
    return ["threads.svg"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default="build/bench.json", help="bench.json to read")
    ap.add_argument("--out", default=None, help="directory for the SVGs (default: plots/ beside bench.json)")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is not installed (Debian: python3-matplotlib): no charts")
        return 0
    plt.rcParams["svg.hashsalt"] = "jview"  # fixed element ids: the same data give the same file
    plt.rcParams["svg.fonttype"] = "none"   # text as text (smaller, searchable)
    try:
        with open(args.bench) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        log("cannot read %s: %s" % (args.bench, e))
        return 1
    rows = [r for r in data.get("rows", []) if usable(r)] if isinstance(data, dict) else []
    machine = data.get("machine", {}) if isinstance(data, dict) and isinstance(data.get("machine"), dict) else {}
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.bench)), "plots")
    os.makedirs(out, exist_ok=True)
    made = inprocess_charts(plt, rows, machine, out) + commands_chart(plt, rows, machine, out) + \
        threads_chart(plt, rows, machine, out)
    log("wrote %s in %s" % (", ".join(made) if made else "no chart", out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
