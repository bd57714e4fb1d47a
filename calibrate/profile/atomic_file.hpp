// Whole-file writes that never leave a partial file behind.
// Contract: write_file_atomic() writes `text` to a temporary file in the same directory,
// flushes it and renames it over `path`; on any failure the temporary is removed, `path` is
// untouched and std::runtime_error is thrown.
#pragma once

#include <string>

namespace goodput::calib {

void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace goodput::calib
