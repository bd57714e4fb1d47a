#include "sim/report/folder_ops.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "sim/core/durable_file.hpp"
#include "sim/report/report_marker.hpp"

namespace goodput {

namespace fs = std::filesystem;

namespace {

// Test hook: GOODPUT_TEST_MOUNT_POINT=<path> treats that path as a mount point (the in-place
// update is also tested where no user namespace lets a test mount one).
bool forced_mount_point(const fs::path& p) {
  const char* m = std::getenv("GOODPUT_TEST_MOUNT_POINT");
  return m && fs::path(m) == p;
}

// /proc/self/mountinfo's mount point field, with its octal escapes (\040 for a space) undone.
std::string unescape_mount(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() &&
        s.substr(i + 1, 3).find_first_not_of("01234567") == std::string::npos) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
      continue;
    }
    out += s[i];
  }
  return out;
}

}  // namespace

// A folder another file system (or a bind mount of the same one) is mounted on: it cannot be
// renamed or replaced, only filled.
bool is_mount_point(const fs::path& p) {
  if (forced_mount_point(p)) return true;
  struct stat self {
  }, parent{};
  if (::lstat(p.c_str(), &self) != 0 || !S_ISDIR(self.st_mode)) return false;
  if (::stat(p.parent_path().c_str(), &parent) == 0 && parent.st_dev != self.st_dev) return true;
  std::ifstream info("/proc/self/mountinfo");
  std::string line;
  while (std::getline(info, line)) {  // id parent major:minor root mount-point options ...
    std::istringstream fields(line);
    std::string field;
    for (int i = 0; i < 5 && fields >> field; ++i) {
    }
    if (fields && unescape_mount(field) == p.string()) return true;
  }
  return false;
}

// A folder's name in goodput's own names beside it, short enough for NAME_MAX.
std::string short_name(const fs::path& target) {
  std::string n = target.filename().string();
  if (n.size() > 160) n.resize(160);
  return n;
}

void fsync_tree(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_directory() && !e.is_symlink()) fsync_dir(e.path());
  fsync_dir(dir);
}

// Removes a folder goodput made: its files first, then its marker, its role file last, so a kill
// part-way leaves a folder whose remaining files its marker still lists, or one holding only
// its role file, or an empty one: each recognised and finished by the next writer.
void remove_owned(const fs::path& dir) {
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != kRoleFile && e.path().filename() != kMarkerFile)
      entries.push_back(e.path());
  for (const auto& e : entries) fs::remove_all(e);
  fs::remove(dir / kMarkerFile);
  fs::remove(dir / kRoleFile);
  fs::remove(dir);
}

// A folder mkdtemp made for this target that a kill left before its role file was in place:
// named exactly as goodput names them and holding nothing (or only the role file being
// written), so removing it cannot lose anyone's data.
bool abandoned_temp(const fs::path& dir, const std::string& prefix) {
  const std::string n = dir.filename().string();
  if (n.rfind(prefix, 0) != 0) return false;
  std::string rest = n.substr(prefix.size());  // "<kind>-<pid>-XXXXXX"
  bool kind = false;
  for (const char* k : {"staging-", "displaced-", "records-"})
    if (rest.rfind(k, 0) == 0) {
      rest = rest.substr(std::strlen(k));
      kind = true;
    }
  const std::size_t dash = rest.find('-');
  if (!kind || dash == 0 || dash == std::string::npos || rest.size() != dash + 7 ||
      rest.substr(0, dash).find_first_not_of("0123456789") != std::string::npos)
    return false;
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir, ec)) || !fs::is_directory(dir, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename() != std::string(kRoleFile) + ".tmp") return false;
  return !ec;
}

}  // namespace goodput
