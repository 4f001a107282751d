// core/fd_sink.hpp: an output_buffer's flush function (core/output.hpp) that writes to a file descriptor with
// write(2), retrying short writes and EINTR. A closed pipe (`jview . big.json | head`) is not an error: it is marked,
// and the caller stops quietly. Any other write error's text is kept (the first one).
#pragma once
#include <cstddef>
#include <string>

namespace jview {

struct fd_sink {
  int fd = 1;
  bool broken_pipe = false;
  std::string error;  // strerror text of the first failed write

  // output_buffer::flush_fn; ctx is the fd_sink.
  static bool write(void* ctx, const char* data, std::size_t len);
  // The output is gone: a closed pipe or a write error.
  bool stopped() const noexcept { return broken_pipe || !error.empty(); }
};

}  // namespace jview
