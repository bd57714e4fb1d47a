// Small helpers shared by the report printers: printf-style number formatting and writing a
// whole file (throws when the write fails, so a report is never left half-written silently).
#pragma once

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "sim/core/durable_file.hpp"

namespace goodput {

inline std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Every byte checked and fsync'd (sim/core/durable_file.hpp): a full disk is an error naming
// the file, never an empty file and exit 0.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  write_file_durable(path, text);
}

}  // namespace goodput
