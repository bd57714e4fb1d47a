#include "sim/report/output_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <vector>

#include "sim/core/error.hpp"

namespace goodput {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".goodput-report";
constexpr const char* kMarkerText =
    "goodput report folder: written by goodput, which may replace it whole on a later run into "
    "this path\n";

// Test hook: GOODPUT_TEST_CRASH_AT=<step> kills the process at that step of a publish (the
// kill tests use it to hit the exact moments a crash could leave a half-replaced report).
void crash_point(const char* step) {
  const char* at = std::getenv("GOODPUT_TEST_CRASH_AT");
  if (at && std::strcmp(at, step) == 0) std::raise(SIGKILL);
}

// Test hook: GOODPUT_TEST_HOLD_S=<seconds> holds the lock that long before publishing, so a
// test can start a second writer while the first is certainly still writing.
void hold_point() {
  if (const char* s = std::getenv("GOODPUT_TEST_HOLD_S"))
    ::sleep(static_cast<unsigned>(std::atoi(s)));
}

bool exchange_supported() {
  return std::getenv("GOODPUT_TEST_NO_EXCHANGE") == nullptr;
}

// Atomically swaps two paths (Linux renameat2 RENAME_EXCHANGE). False where unsupported.
bool exchange(const fs::path& a, const fs::path& b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  if (exchange_supported() &&
      ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0)
    return true;
  if (exchange_supported() && errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    throw std::system_error(errno, std::generic_category(),
                            "cannot swap " + a.string() + " and " + b.string());
#else
  (void)a;
  (void)b;
#endif
  return false;
}

bool is_within(const fs::path& inner, const fs::path& outer) {  // inner == outer or below it
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
    if (i == inner.end() || *i != *o) return false;
  return true;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

fs::path normalised(const std::string& path) {
  fs::path p = fs::absolute(fs::path(path)).lexically_normal();
  while (!p.has_filename() && p.has_relative_path()) p = p.parent_path();  // "out/" -> "out"
  if (!p.has_relative_path()) return p;                                    // the root
  // Resolve links and dot-dots in the parents so comparisons with home and cwd hold.
  return fs::weakly_canonical(p.parent_path()) / p.filename();
}

}  // namespace

std::string default_output(const std::string& name) {
  return "goodput-out/" + name;
}

std::string display_path(const fs::path& p) {
  std::error_code ec;
  const fs::path cwd = fs::weakly_canonical(fs::current_path(ec), ec);
  if (!ec && is_within(p, cwd) && p != cwd) return p.lexically_relative(cwd).string();
  return p.string();
}

const char* OutputDir::marker_name() {
  return kMarker;
}

bool OutputDir::is_goodput_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / kMarker, ec))) return false;
  std::ifstream in(dir / kMarker, std::ios::binary);
  std::string head(7, '\0');
  in.read(head.data(), 7);
  return in && head == "goodput";
}

void OutputDir::refuse(const std::string& why) const {
  throw InputError(flag_, target_.string(), why);
}

OutputDir::OutputDir(const std::string& path, std::string flag) : flag_(std::move(flag)) {
  if (path.empty()) throw InputError(flag_, "", "an empty path");
  try {
    target_ = normalised(path);
  } catch (const fs::filesystem_error& e) {
    throw InputError(flag_, path, std::string("cannot resolve the path: ") + e.code().message());
  }
  if (!target_.has_relative_path()) refuse("refusing to write a report over the root folder");
  std::error_code ec;
  const fs::path cwd = fs::weakly_canonical(fs::current_path(ec), ec);
  if (!cwd.empty() && is_within(cwd, target_))
    refuse(
        "refusing to write a report over the working folder or one of its parents; give a new "
        "folder");
  if (const char* home = std::getenv("HOME"); home && *home) {
    const fs::path h = fs::weakly_canonical(fs::path(home), ec);
    if (!ec && !h.empty() && is_within(h, target_))
      refuse(
          "refusing to write a report over the home folder or one of its parents; give a new "
          "folder");
  }
  check_target();
  const fs::path parent = target_.parent_path();
  fs::create_directories(parent, ec);
  if (ec) refuse("cannot create the folder " + parent.string() + ": " + ec.message());
  lock_path_ = parent / ("." + target_.filename().string() + ".lock");
  lock();
  try {
    recover_leftovers();
    check_target();  // again, now that no other goodput can be changing it
  } catch (...) {
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw;
  }
}

void OutputDir::check_target() const {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(target_, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    refuse("cannot inspect the path: " + ec.message());
  if (!fs::exists(st)) return;
  if (fs::is_symlink(st))
    refuse("is a symbolic link; give the folder it points to, or a new folder");
  if (!fs::is_directory(st))
    refuse(std::string("is ") +
           (fs::is_regular_file(st) ? "a file" : "not a folder (a device or special file)") +
           "; goodput writes reports only into a new folder, an empty one or an earlier goodput "
           "report");
  if (fs::is_empty(target_, ec) || is_goodput_folder(target_)) return;
  refuse(std::string("is a folder that is not empty and holds no goodput report (no ") + kMarker +
         " marker); goodput never overwrites files it did not write: give a new or empty folder");
}

void OutputDir::lock() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      refuse("cannot create the lock file " + lock_path_.string() + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        refuse("another goodput process is writing this report now (lock " + lock_path_.string() +
               "); wait for it to finish or choose another folder");
      refuse("cannot lock " + lock_path_.string() + ": " + std::strerror(err));
    }
    // The holder before us may have removed the file after we opened it: lock the live one.
    struct stat opened {
    }, named{};
    if (::fstat(fd, &opened) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
        opened.st_ino == named.st_ino && opened.st_dev == named.st_dev) {
      lock_fd_ = fd;
      return;
    }
    ::close(fd);
  }
  refuse("cannot take the lock " + lock_path_.string());
}

// With the lock held nobody else is writing this path, so staging folders and old reports of
// an earlier writer are leftovers of a crash: put a displaced report back, remove the rest.
void OutputDir::recover_leftovers() {
  const std::string name = target_.filename().string();
  const std::string staging_prefix = name + ".staging-", old_prefix = name + ".old-";
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(target_.parent_path(), ec)) {
    const std::string n = e.path().filename().string();
    if ((starts_with(n, staging_prefix) || starts_with(n, old_prefix)) && !e.is_symlink() &&
        e.is_directory() && is_goodput_folder(e.path()))
      stale.push_back(e.path());
  }
  for (const auto& p : stale) {
    if (starts_with(p.filename().string(), old_prefix) &&
        !fs::exists(fs::symlink_status(target_))) {
      fs::rename(p, target_);  // the previous report, displaced by a crash mid-publish
      continue;
    }
    fs::remove_all(p);
  }
}

const fs::path& OutputDir::staging() {
  if (!staging_.empty()) return staging_;
  staging_ = target_.parent_path() /
             (target_.filename().string() + ".staging-" + std::to_string(::getpid()));
  if (fs::exists(fs::symlink_status(staging_))) {
    if (!is_goodput_folder(staging_))
      refuse(staging_.string() + " is in the way and holds no goodput report");
    fs::remove_all(staging_);  // a leftover of an earlier goodput process with our pid
  }
  fs::create_directory(staging_);
  std::ofstream(staging_ / kMarker, std::ios::binary) << kMarkerText;
  return staging_;
}

void OutputDir::publish() {
  if (staging_.empty()) throw std::logic_error("OutputDir::publish without a staging folder");
  hold_point();
  crash_point("staged");
  check_target();
  std::error_code ec;
  if (fs::exists(fs::symlink_status(target_)) && fs::is_empty(target_, ec) && !ec)
    fs::remove(target_);  // an empty folder: nothing in it to keep
  if (!fs::exists(fs::symlink_status(target_))) {
    fs::rename(staging_, target_);
  } else if (exchange(staging_, target_)) {
    crash_point("swapped");
    fs::remove_all(staging_);  // now the earlier report (or the empty folder)
  } else {
    const fs::path old = target_.parent_path() /
                         (target_.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::rename(target_, old);
    crash_point("aside");
    fs::rename(staging_, target_);
    fs::remove_all(old);
  }
  published_ = true;
  staging_.clear();
}

fs::path OutputDir::records(bool resume) {
  const fs::path dir = target_.string() + ".partial";
  const fs::file_status st = fs::symlink_status(dir);
  if (fs::exists(st)) {
    if (!fs::is_directory(st) || fs::is_symlink(st) || !is_goodput_folder(dir))
      throw InputError(flag_, dir.string(),
                       "exists and is not goodput's record folder (no " + std::string(kMarker) +
                           " marker); move it away first");
    if (!resume) fs::remove_all(dir);
  }
  fs::create_directories(dir / "records");
  if (!is_goodput_folder(dir)) std::ofstream(dir / kMarker, std::ios::binary) << kMarkerText;
  return dir / "records";
}

void OutputDir::drop_records() {
  const fs::path dir = target_.string() + ".partial";
  if (is_goodput_folder(dir)) fs::remove_all(dir);
}

OutputDir::~OutputDir() {
  std::error_code ec;
  if (!staging_.empty()) fs::remove_all(staging_, ec);
  if (lock_fd_ >= 0) {
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
  }
}

}  // namespace goodput
