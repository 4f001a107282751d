// cli/run.hpp: the modes of the executable, each returning an exit status.
#pragma once
#include <memory>

#include "cli/options.hpp"

namespace jview::filter {
class program;
}

namespace jview::cli {

int run_jq(const options& o);     // the filter over the inputs (the default mode)
int run_check(const options& o);  // --check
int run_utf8(const options& o);   // --utf8
int run_check_formatted(const options& o);  // --check-formatted
int run_in_place(const options& o);         // -i

// The command line's program with its arguments ($ENV, --arg, --rawfile, --slurpfile, -f), compiled; nullptr when
// it cannot be (reported, and `status` set: 2 for an unreadable file or bad JSON argument, 3 for a compile error).
std::unique_ptr<filter::program> compile_program(const options& o, int& status);

}  // namespace jview::cli
