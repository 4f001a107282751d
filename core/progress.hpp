// core/progress.hpp: how far a run has got, for a progress line that another thread draws: the hooks a run calls as
// it reads (the input stream, the validation modes, -i), the counters they feed, the size of what is to be read, and
// the line's text (bytes of the total, percent, MB/s, elapsed and remaining time; files done of the total in the
// validation modes and -i). When and where the line is drawn is the caller's (cli/progress.cpp).
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace jview {

// What a run tells as it reads: each hook may be null.
struct progress_hooks {
  std::atomic<std::uint64_t>* read_counter = nullptr;        // bytes of each read added (value_reader)
  void (*consumed)(std::uint64_t bytes_of_current_input) noexcept = nullptr;  // after each value or line
  void (*input_done)(std::uint64_t bytes_of_input) noexcept = nullptr;        // an input read to its end
};

enum class progress_unit {
  bytes,  // the filter: bytes of the inputs
  files,  // --check, --utf8, --check-formatted, -i: files done of the total (and their bytes)
};

// The size of what a run will read.
struct progress_totals {
  std::uint64_t bytes = 0;   // of the inputs that are regular files
  bool bytes_known = true;   // false: a pipe or another stream among the inputs (no total, no percent)
  std::uint64_t files = 0;
};
// files: the FILE arguments ("-" or none: standard input). An input that cannot be looked at counts as empty (it is
// reported when its turn comes).
progress_totals measure_inputs(const std::vector<std::string>& files);

// The counters, stored by the run's thread (one relaxed store per value or block: nothing in the parser's or the
// writer's loops) and read by the thread that draws the line.
class progress_counters {
 public:
  // For value_reader::set_read_counter: the bytes of the current input read so far.
  std::atomic<std::uint64_t>& read_counter() noexcept { return read_; }
  // How far the current input has been parsed.
  void consumed(std::uint64_t bytes_of_current_input) noexcept { consumed_.store(bytes_of_current_input, std::memory_order_relaxed); }
  // The current input is done: its bytes join those of the inputs before it.
  void input_done(std::uint64_t bytes_of_input) noexcept;

  // The bytes so far: those of the inputs done, and the larger of what the current one's reader has read and how
  // far it has been parsed; at most the total when it is known.
  std::uint64_t bytes(const progress_totals& t) const noexcept;
  std::uint64_t files() const noexcept { return files_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> base_{0};
  std::atomic<std::uint64_t> read_{0};
  std::atomic<std::uint64_t> consumed_{0};
  std::atomic<std::uint64_t> files_{0};
  std::uint64_t base_main_ = 0;  // the run's thread's copy of base_
};

// The line, without the program's name: "12.0 MB of 200.0 MB (6%), 95 MB/s, 0:01 elapsed, 0:15 left", or for
// files "3 of 10 files (30%), 1.2 MB of 4.0 MB, ...". The rate shows from 1 MB on, the time left while the fraction
// done is known and between 0 and 1.
std::string progress_line(progress_unit unit, const progress_totals& t, std::uint64_t bytes, std::uint64_t files,
                          double elapsed_seconds);

}  // namespace jview
