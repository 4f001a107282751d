// cli/sink.cpp: write(2) with retries; EPIPE marks the sink broken (quiet stop), other errors are kept.
#include "cli/sink.hpp"

#include <errno.h>
#include <unistd.h>

#include <cstring>

namespace jview::cli {

bool fd_sink::write(void* ctx, const char* data, std::size_t len) {
  auto* s = static_cast<fd_sink*>(ctx);
  while (len > 0) {
    ssize_t r = ::write(s->fd, data, len);
    if (r < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE)
        s->broken_pipe = true;
      else if (s->error.empty())
        s->error = std::strerror(errno);
      return false;
    }
    data += r;
    len -= static_cast<std::size_t>(r);
  }
  return true;
}

}  // namespace jview::cli
