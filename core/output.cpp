// core/output.cpp: flushing and growth of the output buffer.
#include "core/output.hpp"

#include <cstring>
#include <new>
#include <utility>

namespace jview {

bool output_buffer::flush() {
  if (len_ > 0) {
    if (!failed_ && !fn_(ctx_, data_.get(), len_)) failed_ = true;
    flushed_ += len_;
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
  // Flush the whole values and keep the start of the value being written (the tail): a run cut short (a fault,
  // out of memory) then still ends after a whole value. A value longer than the buffer goes out in pieces.
  const std::size_t done = whole_ > 0 && whole_ < len_ ? whole_ : len_;
  const std::size_t tail = len_ - done;
  len_ = done;
  flush();
  const char* const from = data_.get() + done;
  bool widened = false;
  if (cap_ < k_steady_chunk && flushed_ >= k_steady_after) {
    // A long output: on in bigger chunks (see k_first_chunk). If that allocation fails, the old buffer stays.
    try {
      std::unique_ptr<char[]> wider(new char[k_steady_chunk]);
      if (tail > 0) std::memcpy(wider.get(), from, tail);
      data_ = std::move(wider);  // (a fault handler reading data() meanwhile sees whole() == 0)
      cap_ = chunk_ = k_steady_chunk;
      widened = true;
    } catch (const std::bad_alloc&) {
    }
  }
  if (!widened && tail > 0) std::memmove(data_.get(), from, tail);
  len_ = tail;
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
