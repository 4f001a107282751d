// cli/options.cpp: the one table of command-line options (CLI11), with jq's names and meanings, then the
// post-processing jq does itself: the first positional is the filter (unless -f), the rest are files, or
// positional arguments after --args / --jsonargs.
#include "cli/options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>

#include "cli/exit_code.hpp"
#include "cli/sink.hpp"
#include "simd/kernels.hpp"

namespace jview::cli {

int parse_command_line(int argc, char** argv, options& o) {
  CLI::App app{"jview: a jq-compatible JSON processor over a zero-copy view", "jview"};
  app.set_help_flag("-h,--help", "show this help");
  bool version = false, compact = false, tab = false, sort_keys = false, ascii = false, color_on = false,
       color_off = false, args_mode = false, jsonargs_mode = false;
  int indent = 2;
  std::string numbers = "source";
  std::vector<std::string> positionals, arg_pairs, argjson_pairs, slurpfile_pairs, rawfile_pairs;

  app.add_flag("--version,-V", version, "print the version and the kernels chosen for this CPU");
  CLI::Option* compact_opt = app.add_flag("-c,--compact-output", compact, "compact output");
  app.add_flag("-n,--null-input", o.null_input, "use null as the single input (read inputs with input/inputs)");
  app.add_flag("-s,--slurp", o.slurp, "read all inputs into one array");
  app.add_flag("-R,--raw-input", o.raw_input, "each input line is a string (with -s: the whole input)");
  app.add_flag("-r,--raw-output", o.raw_output, "write strings without quotes");
  app.add_flag("-j,--join-output", o.join_output, "like -r, without a newline after each output");
  app.add_flag("--raw-output0", o.raw_output0, "like -r, with a NUL after each output");
  app.add_flag("-a,--ascii-output", ascii, "write non-ASCII characters as \\uXXXX escapes");
  app.add_flag("-S,--sort-keys", sort_keys, "sort object keys");
  app.add_flag("-C,--color-output", color_on, "colour the output (JQ_COLORS sets the colours)");
  app.add_flag("-M,--monochrome-output", color_off, "no colour");
  CLI::Option* tab_opt = app.add_flag("--tab", tab, "indent with one tab per level");
  CLI::Option* indent_opt = app.add_option("--indent", indent, "indent with N spaces per level (0-7; -1: a tab)");
  app.add_flag("--seq", o.seq, "write a RS (0x1e) before each output (RFC 7464)");
  app.add_flag("-e,--exit-status", o.exit_status, "exit 1 if the last output is false or null, 4 if none");
  app.add_flag("--unbuffered", o.unbuffered, "flush after each output");
  app.add_flag("--stream", o.stream, "read each input as [path, leaf] and [path] events, as jq --stream");
  app.add_flag("--stream-errors", o.stream_errors, "like --stream; a parse error is the event [message, path]");
  app.add_option("--arg", arg_pairs, "NAME VALUE: $NAME is the string VALUE")->type_size(2)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--argjson", argjson_pairs, "NAME JSON: $NAME is the JSON value")->type_size(2)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--slurpfile", slurpfile_pairs, "NAME FILE: $NAME is the array of FILE's values")->type_size(2)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--rawfile", rawfile_pairs, "NAME FILE: $NAME is FILE's text")->type_size(2)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--args", args_mode, "remaining arguments are positional string arguments ($ARGS.positional)");
  app.add_flag("--jsonargs", jsonargs_mode, "remaining arguments are positional JSON arguments");
  app.add_option("-f,--from-file", o.from_file, "read the filter from FILE");
  app.add_option("-L,--library-path", o.library_paths, "search DIR for modules")->allow_extra_args(false);
  app.add_option("--numbers", numbers, "source: numbers as written (default); shortest: shortest round-trip doubles")
      ->check(CLI::IsMember({"source", "shortest"}));
  app.add_option("--max-depth", o.parse.max_depth, "maximum nesting depth of input (default 10000)");
  app.add_flag("--replace-invalid-utf8", o.parse.replace_invalid_utf8,
               "replace invalid UTF-8 in strings by U+FFFD (jq's behaviour) instead of failing");
  app.add_flag("--strict", o.parse.single_value,
               "each input must be exactly one JSON text (RFC 8259): no value, or a second one, is an error");
  app.add_flag("--check", o.check, "validate JSON files: one FILE:LINE:COLUMN line per invalid file");
  app.add_flag("--utf8", o.utf8, "validate any files as strict UTF-8");
  app.add_flag("--no-simd", o.no_simd, "use the portable kernels (also: JVIEW_NO_SIMD=1)");
  app.add_flag("--force-ssse3", o.force_ssse3,
               "use the SSSE3 kernels without asking the CPU (a CPU without SSSE3 dies with SIGILL)");
  // FILTER and FILEs are taken from CLI11's remaining arguments, untouched: a CLI11 positional option would split an
  // argument that looks like "[a,b]" at its commas, and jq filters ('[1,2] | .[]') look exactly like that.
  // allow_extra_args(false) on the options above does the same for their values (--argjson x '[1,2]').
  app.allow_extras(true);
  app.footer("Positional arguments: FILTER [FILE...] (with --args / --jsonargs: FILTER [ARG...])");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    eprint("jview: error: {}\nUse jview --help for help with command-line options.\n", e.what());
    return exit_usage;
  }
  bool after_dashes = false;
  for (const std::string& a : app.remaining()) {
    if (!after_dashes && a == "--") {
      after_dashes = true;
      continue;
    }
    // jq takes "-X" as an option only when X is a letter or '-': "-1", "-.", "-(1)" are programs.
    const bool optionlike = a.size() > 1 && a[0] == '-' && (std::isalpha(static_cast<unsigned char>(a[1])) || a[1] == '-');
    if (!after_dashes && optionlike) {
      eprint("jview: error: Unknown option: {}\nUse jview --help for help with command-line options.\n", a);
      return exit_usage;
    }
    positionals.push_back(a);
  }
  if (version) {
    oprint("jview {}\n{}\n", JVIEW_VERSION, simd::describe_kernels());
    return exit_ok;
  }
  if (indent < -1 || indent > 7) {
    eprint("jview: error: --indent takes a number between -1 and 7\nUse jview --help for help with command-line options.\n");
    return exit_usage;
  }
  // As in jq, the last of -c, --tab and --indent decides: `-c --tab` is pretty with tabs, `--tab -c` compact.
  compact = tab = false;
  for (const CLI::Option* opt : app.parse_order()) {
    if (opt == compact_opt) {
      compact = true;
      tab = false;
    } else if (opt == tab_opt) {
      compact = false;
      tab = true;
    } else if (opt == indent_opt) {
      compact = false;
      tab = indent == -1;  // jq 1.8: --indent -1 is --tab
    }
  }
  if (indent < 0) indent = 1;  // (--indent -1: tabs)
  o.write.pretty = !compact;
  o.write.indent = indent;
  o.write.tab = tab;
  o.write.sort_keys = sort_keys;
  o.write.ascii = ascii;
  o.write.numbers = numbers == "shortest" ? number_mode::shortest : number_mode::source;
  o.color = color_on ? 1 : color_off ? 0 : -1;
  if (o.join_output || o.raw_output0) o.raw_output = true;
  if (o.stream_errors) o.stream = true;
  for (std::size_t i = 0; i + 1 < arg_pairs.size(); i += 2) o.string_args.emplace_back(arg_pairs[i], arg_pairs[i + 1]);
  for (std::size_t i = 0; i + 1 < argjson_pairs.size(); i += 2)
    o.json_args.emplace_back(argjson_pairs[i], argjson_pairs[i + 1]);
  for (std::size_t i = 0; i + 1 < slurpfile_pairs.size(); i += 2)
    o.slurp_files.emplace_back(slurpfile_pairs[i], slurpfile_pairs[i + 1]);
  for (std::size_t i = 0; i + 1 < rawfile_pairs.size(); i += 2)
    o.raw_files.emplace_back(rawfile_pairs[i], rawfile_pairs[i + 1]);

  std::size_t first_file = 0;
  if (o.check || o.utf8) {
    first_file = 0;
  } else if (o.from_file.empty()) {
    if (!positionals.empty()) {
      o.filter = positionals[0];
      first_file = 1;
    } else if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
      eprint("Usage: jview [OPTIONS] FILTER [FILE...]\nUse jview --help for help with command-line options.\n");
      return exit_usage;
    }  // else no filter in a pipeline: `.`, as jq
  }
  for (std::size_t i = first_file; i < positionals.size(); ++i) {
    if (args_mode)
      o.positional_strings.push_back(positionals[i]);
    else if (jsonargs_mode)
      o.positional_json.push_back(positionals[i]);
    else
      o.files.push_back(positionals[i]);
  }
  return -1;
}

}  // namespace jview::cli
