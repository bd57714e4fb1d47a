// Small helpers shared by the report printers: printf-style number formatting and writing a
// whole file (throws when the write fails, so a report is never left half-written silently).
#pragma once

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "sim/core/durable_file.hpp"
#include "sim/core/interrupt.hpp"

namespace goodput {

inline std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Every byte checked and fsync'd (sim/core/durable_file.hpp): a full disk is an error naming
// the file, never an empty file and exit 0. Report files go into a staging folder that Ctrl-C
// removes (output_dir.hpp), so each is written, and each folder made, under the interrupt lock
// (interrupt.hpp): the removal never races a file being added, which would leave the folder.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  InterruptLock guard;
  write_file_durable(path, text);
}

inline void make_folder(const std::filesystem::path& dir) {
  InterruptLock guard;
  std::filesystem::create_directories(dir);
}

}  // namespace goodput
