// core/progress.cpp: see progress.hpp.
#include "core/progress.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "core/text_format.hpp"

namespace jview {

progress_totals measure_inputs(const std::vector<std::string>& files) {
  progress_totals t;
  t.files = files.empty() ? 1 : files.size();
  auto add = [&](const std::string& f) {
    struct stat st {};
    const int r = f == "-" ? fstat(0, &st) : stat(f.c_str(), &st);
    if (r != 0) return;
    if (S_ISREG(st.st_mode))
      t.bytes += static_cast<std::uint64_t>(st.st_size);
    else
      t.bytes_known = false;
  };
  if (files.empty()) add("-");
  for (const std::string& f : files) add(f);
  return t;
}

void progress_counters::input_done(std::uint64_t bytes_of_input) noexcept {
  read_.store(0, std::memory_order_relaxed);
  consumed_.store(0, std::memory_order_relaxed);
  base_main_ += bytes_of_input;
  base_.store(base_main_, std::memory_order_release);
  files_.store(files_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

std::uint64_t progress_counters::bytes(const progress_totals& t) const noexcept {
  // base first: the current input's counters were reset before base moved on.
  const std::uint64_t b = base_.load(std::memory_order_acquire);
  const std::uint64_t cur = std::max(read_.load(std::memory_order_relaxed), consumed_.load(std::memory_order_relaxed));
  const std::uint64_t all = b + cur;
  return t.bytes_known && t.bytes > 0 ? std::min(all, t.bytes) : all;
}

namespace {

std::string size_text(std::uint64_t b) {
  const double x = static_cast<double>(b);
  if (b < 1000) return format_text("{} B", b);
  if (b < 1000000) return format_text("{:.1f} kB", x / 1e3);
  if (b < 1000000000) return format_text("{:.1f} MB", x / 1e6);
  return format_text("{:.2f} GB", x / 1e9);
}

std::string time_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  if (s >= 3600) return format_text("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return format_text("{}:{:02}", s / 60, s % 60);
}

}  // namespace

std::string progress_line(progress_unit unit, const progress_totals& t, std::uint64_t bytes, std::uint64_t files,
                          double elapsed) {
  std::string out;
  double fraction = -1;  // of the whole run, when known
  if (unit == progress_unit::files) {
    const std::uint64_t shown_files = std::min(files, t.files);
    out += format_text("{} of {} files", shown_files, t.files);
    fraction = t.files > 0 ? static_cast<double>(shown_files) / static_cast<double>(t.files) : -1;
    if (t.bytes_known && t.bytes > 0) {
      fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(t.bytes));
      out += format_text(" ({:.0f}%), {} of {}", fraction * 100, size_text(bytes), size_text(t.bytes));
    } else if (fraction >= 0) {
      out += format_text(" ({:.0f}%)", fraction * 100);
    }
  } else if (t.bytes_known && t.bytes > 0) {
    fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(t.bytes));
    out += format_text("{} of {} ({:.0f}%)", size_text(bytes), size_text(t.bytes), fraction * 100);
  } else {
    out += format_text("{} read", size_text(bytes));
  }
  if (elapsed > 0 && bytes >= 1000000) out += format_text(", {:.0f} MB/s", static_cast<double>(bytes) / 1e6 / elapsed);
  out += format_text(", {} elapsed", time_text(elapsed));
  if (fraction > 0 && fraction < 1) out += format_text(", {} left", time_text(elapsed * (1 - fraction) / fraction));
  return out;
}

}  // namespace jview
