// core/file_replace.cpp: see file_replace.hpp.
#include "core/file_replace.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "core/text_format.hpp"

namespace jview {

bool resolve_file(const std::string& path, std::string& target, struct stat& st) {
  const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  if (!real) return false;
  target = real.get();
  return ::stat(target.c_str(), &st) == 0;
}

bool replacement_file::create(const std::string& target) {
  const std::size_t slash = target.rfind('/');
  dir_ = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  path_ = (dir_ == "/" ? "" : dir_) + "/." + base + ".jview-XXXXXX";
  fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
  if (fd_ < 0) path_.clear();
  return fd_ >= 0;
}

std::string replacement_file::commit(const std::string& target, const struct stat& st) {
  // The owner first: chown clears the set-user-ID and set-group-ID bits, which fchmod then restores. When neither
  // change is allowed, the file keeps the caller's owner and group, as a new file would.
  const bool owned = ::fchown(fd_, st.st_uid, st.st_gid) == 0 || ::fchown(fd_, static_cast<uid_t>(-1), st.st_gid) == 0;
  (void)owned;
  if (::fchmod(fd_, st.st_mode & 07777) != 0) return format_text("cannot set the mode: {}", std::strerror(errno));
  if (::fsync(fd_) != 0) return format_text("cannot sync {}: {}", path_, std::strerror(errno));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return format_text("cannot close {}: {}", path_, std::strerror(errno));
  if (::rename(path_.c_str(), target.c_str()) != 0)
    return format_text("cannot rename {}: {}", path_, std::strerror(errno));
  path_.clear();
  const int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);  // (some file systems refuse a directory's fsync; the rename is done all the same)
    ::close(dfd);
  }
  return {};
}

replacement_file::~replacement_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!path_.empty()) ::unlink(path_.c_str());
}

}  // namespace jview
