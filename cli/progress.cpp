// cli/progress.cpp: when the progress line shows, the timer thread that draws it, and the pause that keeps it off
// other output.
#include "cli/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "cli/options.hpp"
#include "cli/sink.hpp"

namespace jview::cli {

namespace detail {

struct progress_state {
  using clock = std::chrono::steady_clock;
  progress_unit unit = progress_unit::bytes;
  bool terminal = true;  // stderr is a terminal: one line drawn in place; else (--progress) a line every 5 s
  bool forced = false;   // --progress: whatever the size
  progress_totals totals;
  progress_counters counters;
  clock::time_point start = clock::now();
  // The line and the terminal: held by the timer thread while it draws and by the terminal write hooks while text
  // is written (recursive: a diagnostic written during a pause must not deadlock).
  std::recursive_mutex m;
  std::condition_variable_any cv;
  bool stopping = false;
  // A stream of unknown size (automatic mode) starts the thread only once it has given k_large_input bytes: most
  // are short (`curl ... | jview .` on a terminal), and need no thread.
  bool deferred = false;
  bool shown = false;  // the line is on the terminal
  std::thread thread;
};

}  // namespace detail

namespace {

using detail::progress_state;

// The running meter; set and cleared by the main thread, which alone reads it (the timer thread has its own pointer).
constinit std::atomic<progress_state*> g_meter{nullptr};

constexpr auto k_first_after = std::chrono::seconds(1);
constexpr auto k_terminal_interval = std::chrono::milliseconds(250);
constexpr auto k_log_interval = std::chrono::seconds(5);

void write_all(const std::string& s) noexcept {
  const char* p = s.data();
  std::size_t n = s.size();
  while (n > 0) {
    const ssize_t r = ::write(2, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

// Whether the line is wanted now (the run qualifies). A known small total never starts a meter (see the
// constructor); a stream of unknown size qualifies once enough has been read.
bool wanted(const progress_state& s) {
  if (s.forced || s.unit == progress_unit::files) return true;
  return s.totals.bytes_known || s.counters.bytes(s.totals) >= progress_meter::k_large_input;
}

// With s.m held.
void draw(progress_state& s) {
  const double elapsed = std::chrono::duration<double>(progress_state::clock::now() - s.start).count();
  std::string text = "jview: " + progress_line(s.unit, s.totals, s.counters.bytes(s.totals), s.counters.files(), elapsed);
  if (!s.terminal) {
    write_all(text + "\n");
    return;
  }
  // A line longer than the terminal would wrap, and "\r" would then erase only its last row.
  struct winsize ws {};
  if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && text.size() >= ws.ws_col) text.resize(ws.ws_col - 1u);
  write_all("\r" + text + "\x1b[K");
  s.shown = true;
}

void erase(progress_state& s) {
  if (!s.shown) return;
  write_all("\r\x1b[K");
  s.shown = false;
}

void timer_loop(progress_state* s) {
  std::unique_lock<std::recursive_mutex> lk(s->m);
  auto next = s->start + k_first_after;
  const auto interval = s->terminal ? std::chrono::duration_cast<std::chrono::milliseconds>(k_terminal_interval)
                                    : std::chrono::duration_cast<std::chrono::milliseconds>(k_log_interval);
  while (!s->stopping) {
    if (s->cv.wait_until(lk, next, [s] { return s->stopping; })) break;
    if (wanted(*s)) draw(*s);
    next = std::max(next + interval, progress_state::clock::now());
  }
  erase(*s);
}

// The terminal write hooks (cli/sink.hpp): the line is erased before text goes to the terminal and stays off until
// it has been written; the main thread writes, and alone sets g_meter, so begin and end see the same meter.
void pause_begin() noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_acquire)) {
    s->m.lock();
    erase(*s);
  }
}
void pause_end() noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_acquire)) s->m.unlock();
}
constexpr terminal_write_hooks k_pause_hooks{pause_begin, pause_end};

// The run's hooks (core/progress.hpp) for the running meter.
void progress_bytes(std::uint64_t consumed_of_current_file) noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_relaxed)) {
    s->counters.consumed(consumed_of_current_file);
    if (s->deferred && s->counters.bytes(s->totals) >= progress_meter::k_large_input) [[unlikely]] {
      s->deferred = false;
      try {
        s->thread = std::thread(timer_loop, s);
      } catch (const std::system_error&) {  // no thread to be had: no progress line, the run goes on
      }
    }
  }
}

void progress_file_done(std::uint64_t bytes_of_file) noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_relaxed)) s->counters.input_done(bytes_of_file);
}

}  // namespace

progress_meter::progress_meter(const options& o, const std::vector<std::string>& files, progress_unit unit) {
  if (o.progress == 0) return;
  const bool terminal = isatty(2) != 0;
  if (o.progress < 0 && !terminal) return;
  auto s = std::make_unique<progress_state>();
  s->unit = unit;
  s->terminal = terminal;
  s->forced = o.progress > 0;
  s->totals = measure_inputs(files);
  const bool bytes = unit == progress_unit::bytes;
  if (!s->forced && bytes && s->totals.bytes_known && s->totals.bytes < k_large_input) return;
  s->deferred = !s->forced && bytes && !s->totals.bytes_known;
  if (!s->deferred) {
    try {
      s->thread = std::thread(timer_loop, s.get());
    } catch (const std::system_error&) {  // no thread to be had: no progress line, the run goes on
      return;
    }
  }
  g_meter.store(s.get(), std::memory_order_release);
  set_terminal_write_hooks(&k_pause_hooks);
  s_ = std::move(s);
}

progress_meter::~progress_meter() { stop(); }

void progress_meter::stop() noexcept {
  if (!s_) return;
  set_terminal_write_hooks(nullptr);
  g_meter.store(nullptr, std::memory_order_release);
  {
    const std::lock_guard<std::recursive_mutex> lk(s_->m);
    s_->stopping = true;
  }
  s_->cv.notify_all();
  if (s_->thread.joinable()) s_->thread.join();
  s_.reset();
}

progress_hooks progress_meter::hooks() const noexcept {
  if (!s_) return {};
  return {&s_->counters.read_counter(), &progress_bytes, &progress_file_done};
}

}  // namespace jview::cli
