// cli/sink.cpp: standard output and the diagnostics that never throw; writes that may reach a terminal run the
// terminal write hooks (the progress line). The fault handler's write of the whole values buffered.
#include "cli/sink.hpp"

#include <errno.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>

#include "core/output.hpp"

namespace jview::cli {

namespace {

constinit std::atomic<const terminal_write_hooks*> g_hooks{nullptr};

// The hooks' begin and end around one write (nothing when none are set).
class terminal_write {
 public:
  explicit terminal_write(const terminal_write_hooks* h) noexcept : h_(h) {
    if (h_ != nullptr) h_->begin();
  }
  ~terminal_write() {
    if (h_ != nullptr) h_->end();
  }
  terminal_write(const terminal_write&) = delete;
  terminal_write& operator=(const terminal_write&) = delete;

 private:
  const terminal_write_hooks* h_;
};

}  // namespace

void set_terminal_write_hooks(const terminal_write_hooks* hooks) noexcept {
  g_hooks.store(hooks, std::memory_order_release);
}

bool stdout_sink::write(void* ctx, const char* data, std::size_t len) {
  auto* s = static_cast<stdout_sink*>(ctx);
  // Output to a file or a pipe leaves the progress line alone: erasing it at each chunk would keep it off the screen.
  const terminal_write_hooks* hooks = g_hooks.load(std::memory_order_acquire);
  if (hooks != nullptr) {
    if (s->terminal < 0) s->terminal = isatty(s->fd);
    if (s->terminal == 0) hooks = nullptr;
  }
  const terminal_write around(hooks);
  return fd_sink::write(static_cast<fd_sink*>(s), data, len);
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
  const terminal_write around(g_hooks.load(std::memory_order_acquire));
  (void)std::fwrite(text.data(), 1, text.size(), stderr);
}

void write_stdout(std::string_view text) noexcept {
  if (text.empty()) return;
  const terminal_write_hooks* hooks = g_hooks.load(std::memory_order_acquire);
  // (a terminal's stdout is line-buffered: the whole lines given here are written before the hooks' end)
  const terminal_write around(hooks != nullptr && isatty(1) != 0 ? hooks : nullptr);
  (void)std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace jview::cli
