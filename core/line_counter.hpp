// core/line_counter.hpp: lines and columns of the bytes an input has passed, for diagnostics (FILE:LINE:COLUMN,
// jq's "error (at FILE:LINE)", input_line_number). Columns count characters (UTF-8 sequences); byte columns
// (jq's, in its parse errors) bytes.
#pragma once
#include <cstdint>

namespace jview {

class line_counter {
 public:
  // vector: count newlines with the vector kernel (the kernel choice's `lines` family) or portably.
  explicit line_counter(bool vector = true) noexcept : vector_(vector) {}
  // Counts [from, to), the bytes that follow those counted so far.
  void count(const char* from, const char* to) noexcept;
  void reset() noexcept { newlines_ = column_ = bytes_ = 0; }
  std::uint64_t newlines() const noexcept { return newlines_; }
  std::uint64_t line() const noexcept { return newlines_ + 1; }    // 1-based
  std::uint64_t column() const noexcept { return column_ + 1; }   // 1-based, in characters
  std::uint64_t byte_column() const noexcept { return bytes_ + 1; }  // 1-based, in bytes

 private:
  std::uint64_t newlines_ = 0;
  std::uint64_t column_ = 0;  // characters since the last newline
  std::uint64_t bytes_ = 0;   // bytes since the last newline
  bool vector_;
};

}  // namespace jview
