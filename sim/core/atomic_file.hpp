// Whole-file writes that never leave a partial file behind (one writer for the simulator's
// sweep point records, goodput import's CSV and the calibration profiles; header-only).
// Contract: write_file_atomic() writes `text` to a temporary file in the same directory,
// fsyncs it and renames it over `path` (the folder fsync'd after); on any failure the temporary is
// removed, `path` is untouched and std::runtime_error is thrown. It holds the interrupt lock
// (interrupt.hpp) throughout, so Ctrl-C waits for the file and never leaves the temporary: call
// it outside an InterruptLock.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "sim/core/durable_file.hpp"
#include "sim/core/interrupt.hpp"

namespace goodput {

inline void write_file_atomic(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(::getpid());
  InterruptLock whole;
  try {
    write_file_durable(tmp, text);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("cannot rename " + tmp.string() + " to " + path + ": " + ec.message());
  }
  fsync_dir(target.has_parent_path() ? target.parent_path() : fs::path("."));
}

}  // namespace goodput
