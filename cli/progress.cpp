// cli/progress.cpp: the progress meter's timer thread, its line and the pause that keeps it off other output.
#include "cli/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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
  std::uint64_t total_bytes = 0;
  bool total_known = true;  // false: a pipe among the inputs (no total, no percent)
  std::uint64_t total_files = 0;
  // Stored by the main thread, read by the timer thread. The bytes so far are base (the inputs done) and the larger
  // of what the current input's reader has read (its read counter) and how far it has parsed (mapped files).
  std::atomic<std::uint64_t> base{0};
  std::atomic<std::uint64_t> read{0};
  std::atomic<std::uint64_t> consumed{0};
  std::atomic<std::uint64_t> files{0};
  std::uint64_t base_main = 0;  // main thread: base's value

  std::uint64_t bytes() const noexcept {
    // base first: the current input's counters were reset before base moved on.
    const std::uint64_t b = base.load(std::memory_order_acquire);
    const std::uint64_t cur = std::max(read.load(std::memory_order_relaxed), consumed.load(std::memory_order_relaxed));
    const std::uint64_t all = b + cur;
    return total_known && total_bytes > 0 ? std::min(all, total_bytes) : all;
  }
  clock::time_point start = clock::now();
  // The line and the terminal: held by the timer thread while it draws and by output_pause while text is written
  // (recursive: a diagnostic written during a pause must not deadlock).
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

std::string size_text(std::uint64_t b) {
  const double x = static_cast<double>(b);
  if (b < 1000) return fmt::format("{} B", b);
  if (b < 1000000) return fmt::format("{:.1f} kB", x / 1e3);
  if (b < 1000000000) return fmt::format("{:.1f} MB", x / 1e6);
  return fmt::format("{:.2f} GB", x / 1e9);
}

std::string time_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string line_text(const progress_state& s) {
  const double elapsed = std::chrono::duration<double>(progress_state::clock::now() - s.start).count();
  const std::uint64_t bytes = s.bytes();
  const std::uint64_t files = s.files.load(std::memory_order_relaxed);
  std::string out = "jview: ";
  double fraction = -1;  // of the whole run, when known
  if (s.unit == progress_unit::files) {
    const std::uint64_t shown_files = std::min(files, s.total_files);
    out += fmt::format("{} of {} files", shown_files, s.total_files);
    fraction = s.total_files > 0 ? static_cast<double>(shown_files) / static_cast<double>(s.total_files) : -1;
    if (s.total_known && s.total_bytes > 0) {
      fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(s.total_bytes));
      out += fmt::format(" ({:.0f}%), {} of {}", fraction * 100, size_text(bytes), size_text(s.total_bytes));
    } else if (fraction >= 0) {
      out += fmt::format(" ({:.0f}%)", fraction * 100);
    }
  } else if (s.total_known && s.total_bytes > 0) {
    fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(s.total_bytes));
    out += fmt::format("{} of {} ({:.0f}%)", size_text(bytes), size_text(s.total_bytes), fraction * 100);
  } else {
    out += fmt::format("{} read", size_text(bytes));
  }
  if (elapsed > 0 && bytes >= 1000000) out += fmt::format(", {:.0f} MB/s", static_cast<double>(bytes) / 1e6 / elapsed);
  out += fmt::format(", {} elapsed", time_text(elapsed));
  if (fraction > 0 && fraction < 1) out += fmt::format(", {} left", time_text(elapsed * (1 - fraction) / fraction));
  return out;
}

// Whether the line is wanted now (the run qualifies). A known small total never starts a meter (see the
// constructor); a stream of unknown size qualifies once enough has been read.
bool wanted(const progress_state& s) {
  if (s.forced || s.unit == progress_unit::files) return true;
  return s.total_known || s.bytes() >= progress_meter::k_large_input;
}

// With s.m held.
void draw(progress_state& s) {
  std::string text = line_text(s);
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

}  // namespace

progress_meter::progress_meter(const options& o, const std::vector<std::string>& files, progress_unit unit) {
  if (o.progress == 0) return;
  const bool terminal = isatty(2) != 0;
  if (o.progress < 0 && !terminal) return;
  auto s = std::make_unique<progress_state>();
  s->unit = unit;
  s->terminal = terminal;
  s->forced = o.progress > 0;
  s->total_files = files.empty() ? 1 : files.size();
  auto add = [&](const std::string& f) {
    struct stat st {};
    const int r = f == "-" ? fstat(0, &st) : stat(f.c_str(), &st);
    if (r != 0) return;  // unreadable: reported when its turn comes, counted as empty here
    if (S_ISREG(st.st_mode))
      s->total_bytes += static_cast<std::uint64_t>(st.st_size);
    else
      s->total_known = false;
  };
  if (files.empty()) add("-");
  for (const std::string& f : files) add(f);
  if (!s->forced && unit == progress_unit::bytes && s->total_known && s->total_bytes < k_large_input) return;
  s->deferred = !s->forced && unit == progress_unit::bytes && !s->total_known;
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

std::atomic<std::uint64_t>* progress_read_counter() noexcept {
  progress_state* s = g_meter.load(std::memory_order_relaxed);
  return s != nullptr ? &s->read : nullptr;
}

void progress_bytes(std::uint64_t consumed_of_current_file) noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_relaxed)) {
    s->consumed.store(consumed_of_current_file, std::memory_order_relaxed);
    if (s->deferred && s->bytes() >= progress_meter::k_large_input) [[unlikely]] {
      s->deferred = false;
      try {
        s->thread = std::thread(timer_loop, s);
      } catch (const std::system_error&) {  // no thread to be had: no progress line, the run goes on
      }
    }
  }
}

void progress_file_done(std::uint64_t bytes_of_file) noexcept {
  if (progress_state* s = g_meter.load(std::memory_order_relaxed)) {
    s->read.store(0, std::memory_order_relaxed);
    s->consumed.store(0, std::memory_order_relaxed);
    s->base_main += bytes_of_file;
    s->base.store(s->base_main, std::memory_order_release);
    s->files.store(s->files.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
}

}  // namespace jview::cli
