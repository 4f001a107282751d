// cli/sink.hpp: standard output through core's fd_sink (write(2); a closed pipe stops the run quietly, another write
// error is reported once and makes the exit status 2), the diagnostics that never throw, and what keeps the progress
// line off the text written to a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "core/fd_sink.hpp"
#include "core/text_format.hpp"

namespace jview {
class output_buffer;
}

namespace jview::cli {

// Standard output: core's fd_sink, with the terminal write hooks (below) around each write that reaches a terminal.
struct stdout_sink : fd_sink {
  int terminal = -1;  // isatty(fd), asked at the first write while hooks are set (-1: not yet)
  // output_buffer::flush_fn.
  static bool write(void* ctx, const char* data, std::size_t len);
};

// While alive, output owed is not lost when the run ends abnormally: an exception leaving the scope (out of memory)
// flushes the whole values buffered in `out`; a fault (SIGBUS, see cli/main.cpp) writes them from the signal
// handler through write_whole_on_fault(). One at a time (run_jq makes one).
class output_guard {
 public:
  output_guard(output_buffer& out, const fd_sink& sink) noexcept;
  ~output_guard();
  output_guard(const output_guard&) = delete;
  output_guard& operator=(const output_guard&) = delete;

 private:
  output_buffer& out_;
};
// Async-signal-safe: write(2) of the guarded buffer's whole values to its descriptor (nothing without a guard).
void write_whole_on_fault() noexcept;

// Called around every write that may reach the terminal while set: cli/progress.cpp erases its line in begin and
// keeps it off until end (the sink knows nothing of it, so that it stands alone). nullptr: none.
struct terminal_write_hooks {
  void (*begin)() noexcept;
  void (*end)() noexcept;
};
void set_terminal_write_hooks(const terminal_write_hooks* hooks) noexcept;

// Diagnostics that never throw. fmt::print(stderr, ...) throws fmt::system_error when stderr is closed, full or a
// broken pipe, and the uncaught exception aborted the process (exit 134 instead of the error's status). These
// format into a string and fwrite it, ignoring a failed write; formatting out of memory prints nothing.
void write_stderr(std::string_view text) noexcept;
template <class... Args>
void eprint(fmt::format_string<Args...> f, Args&&... args) noexcept {
  try {
    write_stderr(format_text(f, std::forward<Args>(args)...));
  } catch (...) {
  }
}
// The same for text to standard output outside the output buffer (--check, --utf8, --version lines).
void write_stdout(std::string_view text) noexcept;
template <class... Args>
void oprint(fmt::format_string<Args...> f, Args&&... args) noexcept {
  try {
    write_stdout(format_text(f, std::forward<Args>(args)...));
  } catch (...) {
  }
}

}  // namespace jview::cli
