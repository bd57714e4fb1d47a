#include "sim/core/content_hash.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace goodput {

namespace {

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

MdCtx new_sha256() {
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 is unavailable (OpenSSL)");
  return ctx;
}

std::string finish_hex(EVP_MD_CTX* ctx) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx, md.data(), &n) != 1) throw std::runtime_error("SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (unsigned int i = 0; i < n; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  MdCtx ctx = new_sha256();
  if (EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1)
    throw std::runtime_error("SHA-256 failed");
  return finish_hex(ctx.get());
}

FileDigest digest_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) throw FileError("cannot read " + path.string() + ": " + std::strerror(errno));
  struct FdClose {
    int fd;
    ~FdClose() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw FileError("cannot read " + path.string() + ": not a regular file");
  MdCtx ctx = new_sha256();
  FileDigest d;
  std::array<char, 1 << 16> buf{};
  for (;;) {
    const ssize_t got = ::read(fd, buf.data(), buf.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw FileError("cannot read " + path.string() + ": " + std::strerror(errno));
    }
    if (got == 0) break;
    d.size += static_cast<std::uintmax_t>(got);
    if (EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(got)) != 1)
      throw std::runtime_error("SHA-256 failed");
  }
  d.sha256 = finish_hex(ctx.get());
  return d;
}

}  // namespace goodput
