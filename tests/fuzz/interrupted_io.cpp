// tests/fuzz/interrupted_io.cpp: interrupted system calls, short reads and partial writes (issue 8, "interrupted
// writes and short reads are retried"). The jview executable installs no signal handler that returns, so EINTR
// cannot be forced on it from outside; this test runs the reader (core/value_reader.cpp) and the output sink
// (core/fd_sink.cpp) in-process with a SIGALRM handler installed without SA_RESTART and an interval timer firing
// every 100 us, against pipes fed and drained in small pieces with pauses: blocked read(2) and write(2) calls
// are interrupted (EINTR, or a partial write when some bytes had already moved). Every byte must arrive, in order.
// Exit 0 when both directions are intact, 1 otherwise.
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "core/fd_sink.hpp"
#include "core/value_reader.hpp"
#include "core/output.hpp"
#include "core/writer.hpp"

namespace {

std::atomic<long> g_signals{0};
void on_alarm(int) { g_signals.fetch_add(1, std::memory_order_relaxed); }

// Runs fn in a thread that does not take SIGALRM, so the signals interrupt the main thread's calls.
template <class F>
std::thread helper(F fn) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  std::thread t(fn);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return t;
}

std::string sample() {
  std::string s;
  for (int i = 0; s.size() < (3u << 20); ++i)
    s += "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(static_cast<std::size_t>(i % 97), 'x') +
         "\xc3\xa9\",\"a\":[1,2.5,true,null]}\n";
  return s;
}

// Reads: a writer thread sends the text in pieces of 1 byte to 16 KiB with pauses; the reader parses values from
// the pipe and writes them back compact. The output must equal the input.
bool reads(const std::string& text) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  std::thread t = helper([&] {
    std::size_t at = 0, step = 1;
    while (at < text.size()) {
      const std::size_t n = std::min(text.size() - at, step);
      ssize_t r = write(fds[1], text.data() + at, n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      at += static_cast<std::size_t>(r);
      step = step * 7 % 16381 + 1;
      if (step % 5 == 0) usleep(50);
    }
    close(fds[1]);
  });
  jview::parse_options popts;
  jview::value_reader reader(popts);
  reader.open_fd(fds[0], "<pipe>");
  std::string out;
  jview::output_buffer buf(&jview::output_buffer::to_string, &out);
  jview::write_options wo;
  wo.pretty = false;
  jview::writer w(buf, wo);
  jview::document doc;
  jview::value_reader::status st;
  while ((st = reader.next(doc)) == jview::value_reader::status::value) {
    w.value(doc, 0);
    buf.put('\n');
  }
  buf.flush();
  t.join();
  close(fds[0]);
  if (st != jview::value_reader::status::end) {
    std::fprintf(stderr, "interrupted_io: reads: error %s (%s)\n", jview::error_message(reader.error().code),
                 reader.io_error().c_str());
    return false;
  }
  if (out != text) {
    std::fprintf(stderr, "interrupted_io: reads: %zu bytes out, %zu in, or different\n", out.size(), text.size());
    return false;
  }
  return true;
}

// Writes: the sink writes 3 MiB in 64 KiB flushes to a pipe drained in small pieces with pauses, so write(2)
// blocks on a full pipe and is interrupted. Everything must arrive.
bool writes(const std::string& text) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  std::string got;
  std::thread t = helper([&] {
    char b[20000];
    std::size_t step = 1;
    for (;;) {
      ssize_t r = read(fds[0], b, std::min(sizeof b, step));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      got.append(b, static_cast<std::size_t>(r));
      step = step * 13 % 19997 + 1;
      if (step % 3 == 0) usleep(50);
    }
  });
  jview::fd_sink sink;
  sink.fd = fds[1];
  {
    jview::output_buffer buf(&jview::fd_sink::write, &sink);
    for (std::size_t at = 0; at < text.size(); at += 1000) buf.append(text.data() + at, std::min<std::size_t>(1000, text.size() - at));
    buf.flush();
  }
  close(fds[1]);
  t.join();
  close(fds[0]);
  if (!sink.error.empty() || sink.broken_pipe) {
    std::fprintf(stderr, "interrupted_io: writes: %s\n", sink.error.c_str());
    return false;
  }
  if (got != text) {
    std::fprintf(stderr, "interrupted_io: writes: %zu bytes arrived of %zu, or different\n", got.size(), text.size());
    return false;
  }
  return true;
}

}  // namespace

int main() {
  struct sigaction sa {};
  sa.sa_handler = on_alarm;
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read or write returns EINTR (or a partial count)
  sigaction(SIGALRM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  itimerval it{};
  it.it_interval.tv_usec = 100;
  it.it_value.tv_usec = 100;
  setitimer(ITIMER_REAL, &it, nullptr);
  const std::string text = sample();
  const bool ok_reads = reads(text);
  const long after_reads = g_signals.load();
  const bool ok_writes = writes(text);
  it = {};
  setitimer(ITIMER_REAL, &it, nullptr);
  const long total = g_signals.load();
  std::printf("interrupted_io: %zu bytes each way; %ld signals while reading, %ld while writing; reads %s, writes %s\n",
              text.size(), after_reads, total - after_reads, ok_reads ? "intact" : "BROKEN",
              ok_writes ? "intact" : "BROKEN");
  if (after_reads < 50 || total - after_reads < 50) {
    std::printf("interrupted_io: too few signals to interrupt anything\n");
    return 1;
  }
  return ok_reads && ok_writes ? 0 : 1;
}
