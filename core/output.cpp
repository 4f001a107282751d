// core/output.cpp: flushing and growth of the output buffer.
#include "core/output.hpp"

namespace jview {

bool output_buffer::flush() {
  if (len_ > 0) {
    if (!failed_ && !fn_(ctx_, data_.get(), len_)) failed_ = true;
    len_ = 0;
  }
  return !failed_;
}

void output_buffer::make_room(std::size_t n) {
  flush();
  if (cap_ - len_ >= n) return;
  // A single piece larger than the buffer: grow in chunk steps (no zero fill: new char[] leaves bytes as they are).
  std::size_t cap = ((n + chunk_ - 1) / chunk_) * chunk_;
  data_.reset(new char[cap]);
  cap_ = cap;
}

bool output_buffer::to_string(void* ctx, const char* data, std::size_t len) {
  static_cast<std::string*>(ctx)->append(data, len);
  return true;
}

}  // namespace jview
