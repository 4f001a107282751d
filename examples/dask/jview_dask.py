#!/usr/bin/env python3
"""Run one jview program over many NDJSON files on a Dask cluster.

    python3 jview_dask.py [JVIEW OPTIONS] FILTER FILE...
                          [--scheduler tcp://HOST:8786] [--workers N] [--jview PATH] [--blocksize SIZE]

Plain files are cut into byte ranges at newlines (dask.bytes.read_bytes with delimiter=b"\\n"); a compressed file
(gzip, zstd, xz, bzip2: recognised by its first bytes) is one task, decompressed by jview itself. Each task pipes
its bytes through a `jview` subprocess on a worker; the outputs are written here in input order, so for a program
that looks at one value at a time the result is byte for byte what `jview [OPTIONS] FILTER FILE...` prints.
Messages that name a line of standard input are rewritten to name the file and its line. Exit status: the worst
(largest) of the tasks' exit statuses; 2 if a task could not run.

Without --scheduler a LocalCluster of --workers processes is started on 127.0.0.1 and stopped at the end.
"""

import logging
import os
import re
import subprocess
import sys

USAGE = ("usage: jview_dask.py [JVIEW OPTIONS] FILTER FILE... "
         "[--scheduler ADDRESS] [--workers N] [--jview PATH] [--blocksize SIZE]")

# jview's options that take arguments (how many), so that FILTER and FILE... can be told apart.
OPTIONS_WITH_VALUES = {
    "--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2,
    "-f": 1, "--from-file": 1, "-L": 1, "--library-path": 1, "--indent": 1, "--numbers": 1,
    "--max-depth": 1, "--kernels": 1, "--threads": 1, "--decompress": 1, "--check-format": 1,
}
# Options under which a run's result is not the concatenation of its parts' results.
REFUSED_OPTIONS = {
    "-s": "--slurp reads all inputs as one value",
    "--slurp": "--slurp reads all inputs as one value",
    "-n": "--null-input runs the program once, without inputs",
    "--null-input": "--null-input runs the program once, without inputs",
    "-i": "--in-place rewrites files one by one; run jview itself",
    "--in-place": "--in-place rewrites files one by one; run jview itself",
    "--args": "with --args there are no input files",
    "--jsonargs": "with --jsonargs there are no input files",
    "--check": "--check validates files; run jview --check itself",
    "--utf8": "--utf8 validates files; run jview --utf8 itself",
    "--check-formatted": "--check-formatted compares files; run jview itself",
}
# Builtins that see more than the value at hand: the input stream, or where the value came from.
WHOLE_INPUT_BUILTINS = re.compile(r"\b(inputs?|input_filename|input_line_number|\$__loc__)\b")
COMPRESSED_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"\xfd7zXZ\x00", b"BZh")
STDIN_POSITION = re.compile(rb"<stdin>:(\d+)")


class UsageError(Exception):
    pass


def parse_bytes_size(text):
    units = {"": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30}
    match = re.fullmatch(r"\s*(\d+)\s*([a-zA-Z]*)\s*", text)
    if not match or match.group(2).lower() not in units:
        raise UsageError(f"--blocksize: not a size: {text!r} (e.g. 64MiB)")
    return int(match.group(1)) * units[match.group(2).lower()]


def parse_command_line(argv):
    """Splits argv into this program's settings, jview's options, the filter and the files."""
    settings = {"scheduler": None, "workers": os.cpu_count() or 1, "jview": "jview", "blocksize": 64 << 20}
    options, positionals, program_text = [], [], None
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, _, inline = arg.partition("=")
        if name in ("--scheduler", "--workers", "--jview", "--blocksize"):
            if not inline:
                i += 1
                if i == len(argv):
                    raise UsageError(f"{name} needs a value")
                inline = argv[i]
            key = name[2:]
            settings[key] = int(inline) if key == "workers" else parse_bytes_size(inline) \
                if key == "blocksize" else inline
        elif arg == "--":
            positionals.extend(argv[i + 1:])
            break
        elif arg.startswith("-") and arg != "-":
            if name in REFUSED_OPTIONS:
                raise UsageError(f"{REFUSED_OPTIONS[name]}: a distributed run cannot give the same answer")
            count = 0 if "=" in arg else OPTIONS_WITH_VALUES.get(name, 0)
            if i + count >= len(argv):
                raise UsageError(f"{name} needs {count} value(s)")
            options.extend(argv[i:i + count + 1])
            if name in ("-f", "--from-file"):
                path = inline if "=" in arg else argv[i + 1]
                with open(path, encoding="utf-8", errors="replace") as f:
                    program_text = f.read()
            i += count
        else:
            positionals.append(arg)
        i += 1
    if program_text is None:
        if not positionals:
            raise UsageError("no FILTER given")
        program_text = positionals[0]
        filter_args, files = [positionals[0]], positionals[1:]
    else:
        filter_args, files = [], positionals
    if not files:
        raise UsageError("no FILE given: a distributed run reads files (standard input: run jview itself)")
    used = WHOLE_INPUT_BUILTINS.search(program_text)
    if used:
        raise UsageError(f"the program uses {used.group(1)}, which sees more than one value or where it came from: "
                         "a distributed run cannot give the same answer")
    return settings, options + filter_args, files


def is_compressed(path):
    with open(path, "rb") as f:
        head = f.read(6)
    return any(head.startswith(magic) for magic in COMPRESSED_MAGIC)


def run_jview(data, jview, arguments):
    """The task: runs jview over one block of bytes. Returns (stdout, stderr, exit status, newlines in the block)."""
    done = subprocess.run([jview] + arguments, input=data, capture_output=True)
    return done.stdout, done.stderr, done.returncode, data.count(b"\n")


def run_jview_on_file(path, jview, arguments):
    with open(path, "rb") as f:
        data = f.read()
    return run_jview(data, jview, arguments)


def renamed_positions(stderr, path, line_offset):
    """<stdin>:LINE in jview's messages becomes PATH:LINE, counted from the start of the file."""
    name = path.encode()
    return STDIN_POSITION.sub(lambda m: name + b":" + str(int(m.group(1)) + line_offset).encode(), stderr)


def make_tasks(files, settings, arguments):
    """One (path, first byte, last byte, delayed result) per block, in input order."""
    from dask import delayed
    from dask.bytes import read_bytes

    tasks = []
    for path in files:
        size = os.path.getsize(path)
        if is_compressed(path):
            task = delayed(run_jview_on_file, pure=False)(path, settings["jview"], arguments)
            tasks.append((path, 0, size, task))
            continue
        _, blocks = read_bytes([path], delimiter=b"\n", blocksize=settings["blocksize"], sample=False)
        starts = [int(block.key.split("-")[2]) for block in blocks[0]]
        starts[0] = 0
        for block, start, end in zip(blocks[0], starts, starts[1:] + [size]):
            task = delayed(run_jview, pure=False)(block, settings["jview"], arguments)
            tasks.append((path, start, end, task))
    return tasks


def main(argv):
    try:
        settings, arguments, files = parse_command_line(argv)
        for path in files:
            if not os.path.isfile(path):
                raise UsageError(f"{path}: no such file")
    except (UsageError, OSError) as error:
        print(f"jview_dask: {error}\n{USAGE}", file=sys.stderr)
        return 2

    from dask.distributed import Client, LocalCluster

    cluster = None
    if settings["scheduler"]:
        client = Client(settings["scheduler"])
    else:
        cluster = LocalCluster(n_workers=settings["workers"], threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    worst = 0
    try:
        tasks = make_tasks(files, settings, arguments)
        futures = client.compute([task for *_, task in tasks])
        line_offset, previous_path = 0, None
        for (path, start, end, _), future in zip(tasks, futures):
            if path != previous_path:
                line_offset, previous_path = 0, path
            try:
                stdout, stderr, status, newlines = future.result()
            except Exception as error:  # the task could not run: say which bytes are missing
                print(f"jview_dask: {path}: bytes {start}-{end}: task failed: {error}", file=sys.stderr)
                worst = max(worst, 2)
                continue
            sys.stdout.buffer.write(stdout)
            sys.stdout.buffer.flush()
            sys.stderr.buffer.write(renamed_positions(stderr, path, line_offset))
            sys.stderr.buffer.flush()
            line_offset += newlines
            worst = max(worst, status)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()  # the scheduler and workers this run started
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
