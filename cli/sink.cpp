// cli/sink.cpp: write(2) with retries; EPIPE marks the sink broken (quiet stop), other errors are kept. And the
// diagnostics that never throw. Writes that reach a terminal pause the progress line (cli/progress.hpp) first.
#include "cli/sink.hpp"

#include <errno.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>

#include "cli/progress.hpp"
#include "core/output.hpp"

namespace jview::cli {

bool fd_sink::write(void* ctx, const char* data, std::size_t len) {
  auto* s = static_cast<fd_sink*>(ctx);
  // Output to a file or a pipe leaves the line alone: pausing it at each chunk would keep it off the screen.
  std::optional<output_pause> pause;
  if (progress_running()) {
    if (s->terminal < 0) s->terminal = isatty(s->fd);
    if (s->terminal != 0) pause.emplace();
  }
  while (len > 0) {
    ssize_t r = ::write(s->fd, data, len);
    if (r < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE)
        s->broken_pipe = true;
      else if (s->error.empty())
        s->error = std::strerror(errno);
      return false;
    }
    data += r;
    len -= static_cast<std::size_t>(r);
  }
  return true;
}

namespace {
// The guarded buffer and its descriptor, for the fault handler (set and cleared by output_guard only).
output_buffer* volatile g_guarded = nullptr;
volatile int g_guarded_fd = -1;
}  // namespace

output_guard::output_guard(output_buffer& out, const fd_sink& sink) noexcept : out_(out) {
  g_guarded_fd = sink.fd;
  g_guarded = &out;
}

output_guard::~output_guard() {
  g_guarded = nullptr;
  if (std::uncaught_exceptions() > 0) out_.flush_whole();
}

void write_whole_on_fault() noexcept {
  output_buffer* out = g_guarded;
  if (out == nullptr || out->failed()) return;
  const char* p = out->data();
  std::size_t n = out->whole();
  while (n > 0) {
    ssize_t r = ::write(g_guarded_fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

void write_stderr(std::string_view text) noexcept {
  if (text.empty()) return;
  const output_pause pause;
  (void)std::fwrite(text.data(), 1, text.size(), stderr);
}

void write_stdout(std::string_view text) noexcept {
  if (text.empty()) return;
  if (!progress_running() || isatty(1) == 0) {
    (void)std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  const output_pause pause;  // (a terminal's stdout is line-buffered: whole lines are written here)
  (void)std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace jview::cli
