// core/file_replace.hpp: replacing a file's contents all at once (-i). The new contents go to a temporary file in the
// same directory, which is synced and renamed over the file only when the caller commits it; it gets the file's mode,
// and its owner and group where the system allows (as root, or a group of one's own). Until then the file is left
// byte for byte as it was, and the temporary file is removed if never committed.
//
// A symbolic link is followed: its target is rewritten and the link stays (GNU sed's --follow-symlinks; sed -i
// without it, and jaq -i, replace the link itself by a regular file and leave the target as it was, which loses the
// edit for whatever else reads the target). A file with other hard links gets a new inode: the other names keep the
// old bytes, as with sed -i.
#pragma once
#include <sys/stat.h>

#include <string>

namespace jview {

// The file `path` names, its symbolic links followed, and its status; false (errno set) when it cannot be found.
bool resolve_file(const std::string& path, std::string& target, struct stat& st);

class replacement_file {
 public:
  replacement_file() = default;
  replacement_file(const replacement_file&) = delete;
  replacement_file& operator=(const replacement_file&) = delete;
  ~replacement_file();

  // Creates the temporary file (empty, mode 0600) in target's directory; false (errno set) when it cannot be.
  bool create(const std::string& target);
  int fd() const noexcept { return fd_; }
  const std::string& dir() const noexcept { return dir_; }

  // Gives it the target's mode and (as far as allowed) owner and group, syncs it and renames it over the target,
  // then syncs the directory so that the rename itself is durable. "" on success, else the failed step's reason.
  std::string commit(const std::string& target, const struct stat& st);

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

}  // namespace jview
