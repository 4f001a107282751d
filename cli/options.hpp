// cli/options.hpp: what was typed on the command line, validated (one CLI11 table in options.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.hpp"
#include "core/parser.hpp"
#include "core/program_args.hpp"
#include "core/writer.hpp"

namespace jview::cli {

struct options {
  std::string filter = ".";
  std::vector<std::string> files;
  // Modes other than filtering.
  bool check = false;  // --check: validate JSON files
  bool utf8 = false;   // --utf8: validate UTF-8 of any files
  bool check_formatted = false;  // --check-formatted: list the files that `jview .` would not write as they are
  report_format check_format = report_format::plain;  // --check-format: how the validation modes write problems
  bool in_place = false;  // -i: rewrite each FILE with the program's output for it
  int progress = -1;      // --progress 1, --no-progress 0; -1: when stderr is a terminal and the run is long
  // Input.
  bool null_input = false, slurp = false, raw_input = false, seq_input = false;
  bool stream = false;  // --stream: each input as jq's [path, leaf] / [path] events
  bool stream_errors = false;  // --stream-errors: --stream, and a parse error is the event [message, path]
  parse_options parse;  // (parse.decompress: --decompress=auto, the default; never: off)
  bool lenient = false;  // --lenient: read input as jq 1.8 does (NaN, Infinity, 01, .5, 1., +1, invalid UTF-8)
  // Output.
  write_options write;
  bool raw_output = false, join_output = false, raw_output0 = false, seq = false, exit_status = false;
  bool unbuffered = false;
  int color = -1;  // -1: when stdout is a terminal; 0: -M; 1: -C
  // Program arguments.
  // --arg, --argjson, --slurpfile, --rawfile in command-line order ($ARGS.named's; the first of a name wins).
  using named_arg = jview::named_arg;  // (core/program_args.hpp: it reads their files)
  std::vector<named_arg> named_args;
  // $ARGS.positional: each argument after --args (a string) or --jsonargs (a JSON text), whichever came last
  // before it.
  struct positional_arg {
    std::string text;
    bool json = false;
  };
  std::vector<positional_arg> positional_args;
  std::vector<std::string> library_paths;
  std::string from_file;
  // Kernels (applied by main: simd::kernels): --kernels NAME, or its aliases --no-simd / --force-ssse3.
  std::string kernels;
  bool no_simd = false, force_ssse3 = false;
  bool version = false;  // --version (printed once the kernels are chosen: it names them)
  int threads = 0;  // --threads N: workers of a parallel run (0: JVIEW_THREADS, else the CPUs we may use, capped)
};

// Parses argv into o. Returns -1 to go on, or the exit status to end with (help, version, usage error); messages
// for those are printed here.
int parse_command_line(int argc, char** argv, options& o);

}  // namespace jview::cli
