// cli/progress.hpp: the progress line of long runs on stderr (its counters and its text: core/progress.hpp). A timer
// thread draws it, first after a second, then four times a second (on a terminal; every 5 s when --progress writes
// to a file), and erases it at the end. Whatever the process writes to stdout or stderr meanwhile goes through the
// terminal write hooks (cli/sink.hpp), which the meter sets: the line is erased first and stays off while the text
// is written; the next tick draws it again.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"

namespace jview::cli {

struct options;

namespace detail {
struct progress_state;
}

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
  // What the run calls as it reads (all null without a meter).
  progress_hooks hooks() const noexcept;

 private:
  std::unique_ptr<detail::progress_state> s_;
};

}  // namespace jview::cli
