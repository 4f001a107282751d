// core/program_runner.cpp: see program_runner.hpp.
#include "core/program_runner.hpp"

#include "core/filter/value.hpp"

namespace jview {

program_runner::program_runner(filter::program& prog, result_writer& results, run_messages& messages)
    : prog_(prog), results_(results), messages_(messages) {
  cb_.emit = [this](const filter::value& v) { results_.value(v); };
  cb_.output_ok = [this] { return !results_.out().failed(); };  // a failed write stops the run at once
  cb_.debug = [this](const filter::value& v) { messages_.debug(results_.debug_line(v)); };
  cb_.stderr_out = [this](std::string_view text) { messages_.stderr_text(text); };
}

program_runner::outcome program_runner::run(const filter::value& input, filter::input_provider* inputs) {
  std::string error;
  int halt = -1;
  results_.start_input();
  bool ok = prog_.run(input, inputs, cb_, error, halt);
  if (results_.nul_met() && halt < 0) {
    ok = false;
    error = result_writer::k_nul_error;
  }
  halt_code_ = halt;
  if (halt >= 0) {
    if (!ok) messages_.halt_text(error);  // halt_error: its text exactly as jq writes it
    return outcome::halted;
  }
  if (!ok) {
    messages_.runtime_error(error, !results_.nul_met() && prog_.last_error_not_string());
    return outcome::error;
  }
  return outcome::ok;
}

}  // namespace jview
