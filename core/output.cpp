// core/output.cpp: flushing and growth of the output buffer.
#include "core/output.hpp"

#include <cstring>
#include <utility>

namespace jview {

bool output_buffer::flush() {
  if (len_ > 0) {
    if (!failed_ && !fn_(ctx_, data_.get(), len_)) failed_ = true;
    len_ = 0;
  }
  whole_ = 0;
  return !failed_;
}

void output_buffer::flush_whole() noexcept {
  len_ = whole_;
  try {
    flush();
  } catch (...) {
    failed_ = true;
  }
}

void output_buffer::make_room(std::size_t n) {
  if (whole_ > 0 && whole_ < len_) {
    // Flush the whole values and keep the start of the value being written at the front: a run cut short (a
    // fault, out of memory) then still ends after a whole value. A value longer than the buffer goes out in pieces.
    const std::size_t done = whole_, tail = len_ - whole_;
    len_ = done;
    flush();
    std::memmove(data_.get(), data_.get() + done, tail);
    len_ = tail;
  } else {
    flush();
  }
  if (cap_ - len_ >= n) return;
  // A single piece larger than the buffer: grow in chunk steps (no zero fill: new char[] leaves bytes as they are).
  std::size_t cap = ((len_ + n + chunk_ - 1) / chunk_) * chunk_;
  std::unique_ptr<char[]> bigger(new char[cap]);
  if (len_ > 0) std::memcpy(bigger.get(), data_.get(), len_);
  data_ = std::move(bigger);
  cap_ = cap;
}

bool output_buffer::to_string(void* ctx, const char* data, std::size_t len) {
  static_cast<std::string*>(ctx)->append(data, len);
  return true;
}

}  // namespace jview
