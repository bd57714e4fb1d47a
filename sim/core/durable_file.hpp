// Files that are on disk when goodput says they are: every byte written and checked, the file
// fsync'd and closed with its result checked, and folders fsync'd so the names in them last too.
// Header-only (the calibration tools build without the simulator's libraries).
// Contract: write_file_durable() creates or truncates `path`, writes `text` in full, fsyncs and
// closes it; any failure (ENOSPC, EIO, a short write, a failed close) throws std::runtime_error
// (FileError) naming the path and the reason, and never reports success for a partial file.
// fsync_dir() fsyncs a folder (its entries: created, renamed, removed names); throws likewise.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/core/error.hpp"

namespace goodput {

inline FileError file_error(const std::filesystem::path& path, const char* what, int err) {
  return FileError(std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(err));
}

inline void write_file_durable(const std::filesystem::path& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw file_error(path, "write", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      throw file_error(path, "write", err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    throw file_error(path, "write (fsync)", err);
  }
  if (::close(fd) != 0) throw file_error(path, "write (close)", errno);
}

inline void fsync_dir(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw file_error(dir, "open the folder", errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems cannot fsync a folder (EINVAL): nothing more can be done there.
  if (rc != 0 && err != EINVAL && err != EROFS) throw file_error(dir, "fsync the folder", err);
}

}  // namespace goodput
