// Whole-file writes that never leave a partial file behind (one writer for the simulator's
// sweep point records and the calibration profiles; header-only, so calibrate/ builds it
// standalone).
// Contract: write_file_atomic() writes `text` to a temporary file in the same directory,
// flushes it and renames it over `path`; on any failure the temporary is removed, `path` is
// untouched and std::runtime_error is thrown.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace goodput {

inline void write_file_atomic(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << text;
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("write failed for " + tmp.string());
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("cannot rename " + tmp.string() + " to " + path + ": " + ec.message());
  }
}

}  // namespace goodput
