// cli/sink.hpp: standard output through write(2). A closed pipe (`jview . big.json | head`) is not an error: the
// run stops quietly. Any other write error is reported once and makes the exit status 2.
#pragma once
#include <cstddef>
#include <string>

namespace jview::cli {

struct fd_sink {
  int fd = 1;
  bool broken_pipe = false;
  std::string error;  // strerror text of the first failed write
  // output_buffer::flush_fn: retries short writes and EINTR.
  static bool write(void* ctx, const char* data, std::size_t len);
};

}  // namespace jview::cli
