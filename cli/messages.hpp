// cli/messages.hpp: jview's words on stderr for what a run reports (core/run_reporter.hpp), as jq 1.8 words them,
// and the exit status its input problems imply: 2 for a file that cannot be opened or read, 5 for invalid JSON.
#pragma once
#include <string>
#include <string_view>

#include "cli/exit_code.hpp"
#include "core/fd_sink.hpp"
#include "core/run_reporter.hpp"

namespace jview::cli {

class stderr_messages final : public run_reporter {
 public:
  // output: the run's standard output, whose end stops the run (none: never stopped).
  explicit stderr_messages(const fd_sink* output = nullptr) : output_(output) {}
  void open_failed(const std::string& file, const std::string& why) override;
  void file_failed(const std::string& file, const std::string& why) override;
  void parse_failed(const std::string& where_and_what, const source_location& loc) override;
  void parse_ignored(const std::string& what) override;
  void debug(std::string_view line) override;
  void stderr_text(std::string_view text) override;
  void runtime_error(std::string_view where, std::string_view message, bool not_string) override;
  void halt_text(std::string_view text) override;
  bool stopped() override { return output_ != nullptr && output_->stopped(); }

  int status = exit_ok;        // the highest status the problems reported so far imply
  bool input_failed = false;  // a file could not be opened or read (jq 1.8 then exits 2, whatever else happened)

 private:
  const fd_sink* output_;
};

}  // namespace jview::cli
