#include "sim/core/data_dir.hpp"

#include <system_error>

namespace goodput {

std::filesystem::path installed_data_dir() {
  static const std::filesystem::path dir = [] {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);  // Linux
    if (ec) return std::filesystem::path();
    const auto d = (exe.parent_path() / GOODPUT_DATA_REL).lexically_normal();
    return std::filesystem::is_directory(d, ec) ? d : std::filesystem::path();
  }();
  return dir;
}

}  // namespace goodput
