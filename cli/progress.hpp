// cli/progress.hpp: the progress line of long runs on stderr: bytes read of the total, percent, MB/s, elapsed and
// remaining time (and files done of the total in the validation modes and -i). A timer thread draws it from
// counters that the main thread stores (relaxed atomics, one store per value or block: nothing in the parser's or
// the writer's loops), first after a second, then four times a second, and erases it at the end. Whatever the
// process writes to stdout or stderr meanwhile goes through output_pause (cli/sink.cpp), which erases the line
// first and keeps it off while the text is written (cli/sink.hpp's terminal write hooks, which the meter sets);
// the next tick draws it again.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jview::cli {

struct options;

namespace detail {
struct progress_state;
}

enum class progress_unit {
  bytes,  // the filter: bytes of the inputs
  files,  // --check, --utf8, --check-formatted, -i: files done of the total (and their bytes)
};

class progress_meter {
 public:
  // Inputs of at least this many bytes in all make the filter's run show the line by itself.
  static constexpr std::uint64_t k_large_input = std::uint64_t{256} << 20;

  // Starts a meter when o.progress is 1 (--progress), or when it is -1 (neither option), stderr is a terminal and
  // the run calls for it: the filter over inputs of k_large_input bytes or more (a stream of unknown size: once
  // that much has been read), a validation mode or -i on any files. Nothing shows of a run that ends within the
  // first second. files: the FILE arguments (none: standard input).
  progress_meter(const options& o, const std::vector<std::string>& files, progress_unit unit);
  ~progress_meter();
  progress_meter(const progress_meter&) = delete;
  progress_meter& operator=(const progress_meter&) = delete;

  // Erases the line and ends the thread (before the last words of the run, and before an _exit). Idempotent.
  void stop() noexcept;
  bool running() const noexcept { return s_ != nullptr; }

 private:
  std::unique_ptr<detail::progress_state> s_;
};

// The running meter's count of bytes read, for value_reader::set_read_counter (nullptr without a meter).
std::atomic<std::uint64_t>* progress_read_counter() noexcept;
// The main thread's counters for the running meter (without one: a relaxed load and a branch).
void progress_bytes(std::uint64_t consumed_of_current_file) noexcept;  // how far the current input has been read
void progress_file_done(std::uint64_t bytes_of_file) noexcept;         // the current input is done

}  // namespace jview::cli
