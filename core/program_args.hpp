// core/program_args.hpp: what a command line hands a jq program before it is compiled: its text from a file (-f),
// the named arguments ($NAME of --arg, --argjson, --rawfile and --slurpfile, whose files are read here), and
// get_prog_origin / get_jq_origin as jq 1.8 finds them. A failure comes back worded as jq words it, without the
// program's name in front; the caller reports it and decides the exit status.
#pragma once
#include <string>
#include <vector>

#include "core/filter/program.hpp"
#include "core/parser.hpp"

namespace jview {

// One of --arg, --argjson, --slurpfile, --rawfile.
struct named_arg {
  enum class kind { string, json, slurpfile, rawfile } k;
  std::string name, value;  // value: the text, the JSON text or the file's path
};

// The whole text of a file; false, with `why` set to the system's reason, when it cannot be read.
bool read_text_file(const std::string& path, std::string& text, std::string& why);

// Adds the named arguments to copts in command-line order ($ARGS.named's); a name given before is skipped and its
// file not read (jq 1.8 keeps the first). --slurpfile's file is parsed with popts into the text of one array of its
// values. False, with `error` set ("Bad JSON in --rawfile NAME FILE: Could not open FILE: REASON", "Bad JSON in
// --slurpfile NAME FILE: FILE:LINE:COLUMN: MESSAGE"), when a file cannot be read or parsed.
bool add_named_args(const std::vector<named_arg>& args, const parse_options& popts, filter::compile_options& copts,
                    std::string& error);

// copts.program_origin: the real path of the directory of `from_file` (-f; empty: of the current directory);
// copts.jq_origin: the directory of the running executable. Each stays empty when it cannot be found.
void find_origins(const std::string& from_file, filter::compile_options& copts);

}  // namespace jview
