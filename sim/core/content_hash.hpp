// SHA-256 of bytes and of files (OpenSSL's libcrypto), written as 64 lowercase hex digits: the
// same text `sha256sum FILE` prints, so a user can check any hash goodput records. Used for
// what goodput wrote (the report folder's marker lists each file with its size and hash) and
// for what a record depends on (a sweep point record carries the hashes of the trace and
// calibration profile its scenario names).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace goodput {

std::string sha256_hex(std::string_view bytes);

struct FileDigest {
  std::uintmax_t size = 0;
  std::string sha256;  // 64 hex digits
};
// Reads `path` (a regular file; it is opened without following it to a device or FIFO) and
// returns its size and hash. Throws std::runtime_error naming the path when it cannot be read.
FileDigest digest_file(const std::filesystem::path& path);

}  // namespace goodput
