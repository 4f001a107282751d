#!/usr/bin/env python3
"""The layout rules of docs/ARCHITECTURE.md, checked: no source file in cli/, core/ or simd/ over 900 lines;
cli/ at most CLI_MAX_LINES lines in all, and it includes only core's public headers (PUBLIC below) and nothing from
simd/; core/ and simd/ never read the environment, print to the standard streams, exit or call mallopt (the
executable decides those); text is formatted through core/text_format.hpp (FMT_DIRECT below).
Usage: layout_check.py SOURCE_DIR"""
import os
import re
import sys

MAX_LINES = 900
# cli/ is argument parsing, wiring, the words of messages and exit codes. 1,765 lines when this was set (issue 18):
# the option table and --help (options.*, help.*) are 759 of them; the rest is main, the modes' wiring, the
# messages, the sink, the progress line's timer and the process tuning. Logic that grows here belongs in core/.
CLI_MAX_LINES = 1800
# The library's public surface: what an embedder (and cli/) may include. Everything else in core/ is internal.
PUBLIC = {
    "core/byte_source.hpp", "core/decompress_source.hpp", "core/diagnostics.hpp", "core/document.hpp",
    "core/edit_distance.hpp", "core/error.hpp", "core/fd_sink.hpp", "core/file_check.hpp", "core/file_replace.hpp",
    "core/in_place.hpp", "core/input_stream.hpp",
    "core/inputs_runner.hpp", "core/kernel_choice.hpp", "core/line_counter.hpp", "core/output.hpp",
    "core/parallel_run.hpp", "core/parser.hpp", "core/program_args.hpp", "core/program_runner.hpp", "core/progress.hpp",
    "core/result_writer.hpp", "core/run_reporter.hpp", "core/sanitizer.hpp", "core/text_format.hpp",
    "core/value_reader.hpp", "core/writer.hpp",
    "core/filter/program.hpp", "core/filter/value.hpp",
}
# fmt is header-only: its formatting engine is compiled in one file (core/text_format.cpp) and reached through
# format_text; a direct fmt::format compiles it again in its file (about 3 s of a release build, 9 s under ASan).
FMT_ENGINE = os.path.join("core", "text_format.cpp")
FMT_DIRECT = re.compile(r"#include\s*<fmt/(?!core\.h)[^>]*>|\bfmt::(v?format(_to)?|v?print|to_string)\s*\(")
# Calls core/ and simd/ leave to the executable.
FORBIDDEN = re.compile(r"\b(getenv|secure_getenv|mallopt|std::exit|_exit|printf|puts|std::cout|std::cerr)\s*\(?"
                       r"|\bexit\s*\(|\bfprintf\s*\(\s*std(out|err)|\benviron\b")


def sources(root, folder):
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".h", ".cc")):
                yield os.path.join(dirpath, f)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def main():
    root = os.path.abspath(sys.argv[1])
    problems = []
    cli_lines = 0
    for folder in ("cli", "core", "simd"):
        for path in sources(root, folder):
            rel = os.path.relpath(path, root)
            text = open(path, encoding="utf-8").read()
            n = text.count("\n")
            if folder == "cli":
                cli_lines += n
            if n > MAX_LINES:
                problems.append(f"{rel}: {n} lines (over {MAX_LINES}): split it along its seams")
            if folder == "cli":
                for inc in re.findall(r'#include "([^"]+)"', text):
                    if inc.startswith("simd/"):
                        problems.append(f"{rel}: includes {inc} (cli/ reaches kernels through core/kernel_choice.hpp)")
                    elif inc.startswith("core/") and inc not in PUBLIC:
                        problems.append(f"{rel}: includes {inc}, not one of core's public headers")
            code = strip_comments(text)
            if rel != FMT_ENGINE:
                for m in FMT_DIRECT.finditer(code):
                    problems.append(f"{rel}: uses {m.group(0).strip('( ')}: format through core/text_format.hpp's "
                                    "format_text (fmt's engine compiled once)")
            if folder != "cli":
                for m in FORBIDDEN.finditer(code):
                    problems.append(f"{rel}: calls {m.group(0).strip('( ')}: core/ and simd/ leave that to the executable")
    if cli_lines > CLI_MAX_LINES:
        problems.append(f"cli/: {cli_lines} lines in all (over {CLI_MAX_LINES}): move logic that is not argument "
                        "parsing, wiring or exit codes into core/")
    for p in problems:
        print(p)
    print(f"layout: cli/ {cli_lines} lines (at most {CLI_MAX_LINES}); {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
