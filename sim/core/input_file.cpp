#include "sim/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim/core/error.hpp"

namespace goodput {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string size_text(std::uintmax_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::uintmax_t max_bytes) {
  // O_NONBLOCK: opening a FIFO without a writer would wait; it is refused below instead.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw InputError(path, "", "cannot open " + what + ": " + std::strerror(errno));
  struct FdClose {
    int fd;
    ~FdClose() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw InputError(path, "", "cannot read " + what + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw InputError(path, "",
                     "expected " + what + " to be a regular file, found " + kind_of(st.st_mode));
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > max_bytes)
    throw InputError(
        path, "",
        "expected " + what + " of at most " + size_text(max_bytes) + ", found " + size_text(size));
  const auto read_some = [&](char* into, std::size_t n) -> std::size_t {
    for (;;) {
      const ssize_t got = ::read(fd, into, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR)
        throw InputError(path, "", "cannot read " + what + ": " + std::strerror(errno));
    }
  };
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t have = 0;
  while (have < text.size()) {
    const std::size_t got = read_some(text.data() + have, text.size() - have);
    if (got == 0) break;  // the file shrank while read
    have += got;
  }
  text.resize(have);
  // What lies past the size fstat gave (a file growing while read, or one whose size reads
  // as 0), up to the limit.
  char buf[1 << 16];
  for (std::size_t got; (got = read_some(buf, sizeof buf)) > 0;) {
    if (text.size() + got > max_bytes)
      throw InputError(path, "",
                       "expected " + what + " of at most " + size_text(max_bytes) +
                           ", found more while reading it");
    text.append(buf, got);
  }
  return text;
}

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // no overlong forms
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // no overlong forms
      if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n || s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    i += len;
  }
  return std::nullopt;
}

void check_utf8(std::string_view text, const std::string& file) {
  const auto at = invalid_utf8_at(text);
  if (!at) return;
  const std::size_t newline = *at == 0 ? std::string_view::npos : text.rfind('\n', *at - 1);
  const std::size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
  const auto line =
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*at), '\n');
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*at]));
  throw InputError(file, "line " + std::to_string(line),
                   std::string("expected UTF-8 text, found the byte ") + byte + " at column " +
                       std::to_string(*at - begin + 1));
}

}  // namespace goodput
