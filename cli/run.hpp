// cli/run.hpp: the modes of the executable, each returning an exit status, and the command line's program.
#pragma once
#include <memory>
#include <string>

#include "cli/options.hpp"
#include "core/file_check.hpp"
#include "core/filter/program.hpp"

namespace jview::cli {

int run_jq(const options& o);                           // the filter over the inputs (the default mode; run.cpp)
int run_validation(const options& o, check_kind kind);  // --check, --utf8, --check-formatted (validate.cpp)
int run_in_place(const options& o);                     // -i (in_place.cpp)

// The command line's program (program.cpp): its text (FILTER, or -f's file) and compile options ($ENV, --arg,
// --rawfile, --slurpfile, $ARGS.positional, -L, the origins), files read once. False (reported, `status` set to 2)
// when a file cannot be read.
struct program_text {
  filter::compile_options copts;
  std::string source;
};
bool prepare_program(const options& o, program_text& pt, int& status);
// The program compiled; nullptr when it cannot be (reported: status 3 for a compile error, 2 for a bad
// --argjson / --jsonargs text).
std::unique_ptr<filter::program> compile_text(const program_text& pt, int& status);
// Both.
std::unique_ptr<filter::program> compile_program(const options& o, int& status);

}  // namespace jview::cli
