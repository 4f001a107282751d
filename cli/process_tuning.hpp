// cli/process_tuning.hpp: the process-level tuning main applies (cli/process_tuning.cpp): the memory policy for big
// evaluations. Everything here only changes speed, never output.
#pragma once

namespace jview::cli {

// Installs the memory policy: once malloc's heap has grown past 16 MiB, it grows in 64 MiB steps advised onto huge
// pages.
void use_process_tuning() noexcept;

}  // namespace jview::cli
