// core/fd_sink.cpp: see fd_sink.hpp.
#include "core/fd_sink.hpp"

#include <errno.h>
#include <unistd.h>

#include <cstring>

namespace jview {

bool fd_sink::write(void* ctx, const char* data, std::size_t len) {
  auto* s = static_cast<fd_sink*>(ctx);
  while (len > 0) {
    const ssize_t r = ::write(s->fd, data, len);
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

}  // namespace jview
