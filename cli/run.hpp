// cli/run.hpp: the modes of the executable, each returning an exit status.
#pragma once
#include "cli/options.hpp"

namespace jview::cli {

int run_jq(const options& o);     // the filter over the inputs (the default mode)
int run_check(const options& o);  // --check
int run_utf8(const options& o);   // --utf8

}  // namespace jview::cli
