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
#include <iostream>
#include <set>
#include <system_error>
#include <vector>

#include "sim/core/durable_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/folder_ops.hpp"
#include "sim/report/report_marker.hpp"

namespace goodput {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockHead = "goodput lock";

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

fs::path normalised(const std::string& path) {
  fs::path p = fs::absolute(fs::path(path)).lexically_normal();
  while (!p.has_filename() && p.has_relative_path()) p = p.parent_path();  // "out/" -> "out"
  if (!p.has_relative_path()) return p;                                    // the root
  // Resolve links and dot-dots in the parents so comparisons with home and cwd hold.
  return fs::weakly_canonical(p.parent_path()) / p.filename();
}

std::string list_entries(const std::vector<std::string>& entries) {
  std::string s;
  for (std::size_t i = 0; i < entries.size() && i < 8; ++i) s += (i ? ", " : "") + entries[i];
  if (entries.size() > 8) s += " and " + std::to_string(entries.size() - 8) + " more";
  return s;
}

}  // namespace

std::string default_output(const std::string& name, const std::string& origin,
                           const std::string& suffix) {
  std::string s;
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    s += (c < 0x20 || c == 0x7f || c == '/' || c == '\\') ? '-' : ch;
  }
  const std::size_t first = s.find_first_not_of(".- ");
  s = first == std::string::npos ? "" : s.substr(first);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.empty())
    throw InputError(origin, "/name",
                     "the scenario's name \"" + std::string(name.size() > 40 ? "..." : name) +
                         "\" cannot name the default output folder goodput-out/<name>: give a "
                         "name with a letter or digit, or --out");
  if (s.size() > 200) s.resize(200);
  return "goodput-out/" + s + suffix;
}

std::string display_path(const fs::path& p) {
  std::error_code ec;
  const fs::path cwd = fs::weakly_canonical(fs::current_path(ec), ec);
  if (!ec && is_within(p, cwd) && p != cwd) return p.lexically_relative(cwd).string();
  return p.string();
}

const char* OutputDir::marker_name() {
  return kMarkerFile;
}

bool OutputDir::is_goodput_folder(const fs::path& dir) {
  return read_manifest(dir).has_value();
}

void OutputDir::refuse(const std::string& why) const {
  throw InputError(flag_, target_.string(), why);
}

OutputDir::OutputDir(const std::string& path, std::string flag) : flag_(std::move(flag)) {
  if (path.empty()) throw InputError(flag_, "", "an empty path");
  if (path == "-")
    throw InputError(flag_, path, "a report is a folder of files: give a folder, not -");
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
  check_target(true);
  const fs::path parent = target_.parent_path();
  fs::create_directories(parent, ec);
  if (ec) refuse("cannot create the folder " + parent.string() + ": " + ec.message());
  lock_path_ = parent / ("." + short_name(target_) + ".goodput-lock");
  {
    InterruptLock guard;  // a signal waits until the lock file has its cleanup: none is left
    lock();
    on_interrupt_.emplace([this] { return abandon(); });
  }
  try {
    recover_leftovers();
    check_target(false);  // again, now that no other goodput can be changing it
    in_place_ = is_mount_point(target_);
  } catch (...) {
    {
      InterruptLock guard;
      unlock();
    }
    on_interrupt_.reset();
    throw;
  }
}

std::string OutputDir::abandon() noexcept {
  try {
    if (!staging_.empty() && leftover_role(staging_, target_)) remove_owned(staging_);
    staging_.clear();
  } catch (...) {  // left for the next writer to recognise
  }
  unlock();
  try {
    std::error_code ec;
    std::string line = display_path(target_);
    line += published_                                    ? " holds the new report"
            : fs::exists(fs::symlink_status(target_, ec)) ? " was left as it was"
                                                          : " was not written";
    if (!records_.empty())
      line += "; the finished points are kept: rerun the same command with --resume to go on";
    return line;
  } catch (...) {
    return "";
  }
}

void OutputDir::check_target(bool before_recovery) const {
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
  if (fs::is_empty(target_, ec)) return;
  if (before_recovery && read_role(target_)) return;  // a crashed writer's: decided after
  const auto manifest = read_manifest(target_);
  // An empty folder but for goodput's own work in progress counts as empty. Before the lock
  // this is a quick look (sizes, no hashes); the check under the lock decides.
  const std::vector<std::string> foreign =
      foreign_entries(target_, manifest.value_or(Manifest{}), !before_recovery);
  if (foreign.empty()) return;
  if (!manifest)
    refuse(std::string("is a folder that is not empty and holds no goodput report (no ") +
           kMarkerFile +
           " marker); goodput never overwrites files it did not write: give a new or empty "
           "folder");
  refuse("is an earlier goodput report that also holds what goodput did not write: " +
         list_entries(foreign) +
         "; goodput replaces only the files it wrote and never deletes or moves yours: move "
         "them out of the folder, or give another folder");
}

void OutputDir::lock() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 && errno == EEXIST) {
      fd = ::open(lock_path_.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
      if (fd >= 0) {  // goodput's (empty if its writer died before saying so), or refused
        char head[12] = {};
        const ssize_t n = ::pread(fd, head, sizeof head, 0);
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
            (n != 0 && (n != 12 || std::memcmp(head, kLockHead, 12) != 0))) {
          ::close(fd);
          refuse("cannot take the lock: " + lock_path_.string() +
                 " is in the way and goodput did not write it; move it away");
        }
      }
    }
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
    if (::fstat(fd, &opened) == 0 && ::lstat(lock_path_.c_str(), &named) == 0 &&
        opened.st_ino == named.st_ino && opened.st_dev == named.st_dev) {
      const std::string text = std::string(kLockHead) + " for " + target_.string() + "\n";
      if (::ftruncate(fd, 0) != 0 ||
          ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
        ::close(fd);
        refuse("cannot write the lock file " + lock_path_.string() + ": " + std::strerror(errno));
      }
      lock_fd_ = fd;
      return;
    }
    ::close(fd);
  }
  refuse("cannot take the lock " + lock_path_.string());
}

void OutputDir::unlock() {
  if (lock_fd_ < 0) return;
  // Ours: we wrote it, and it is still the file we locked.
  struct stat opened {
  }, named{};
  if (::fstat(lock_fd_, &opened) == 0 && ::lstat(lock_path_.c_str(), &named) == 0 &&
      opened.st_ino == named.st_ino && opened.st_dev == named.st_dev)
    ::unlink(lock_path_.c_str());
  ::close(lock_fd_);
  lock_fd_ = -1;
}

// A displaced earlier report is deleted only if it still holds goodput's files alone;
// otherwise it is left where it is, and the user told.
void OutputDir::remove_displaced(const fs::path& dir) const {
  // (no marker: a removal cut short after the marker went, so nothing of goodput's is left)
  const std::vector<std::string> foreign =
      foreign_entries(dir, read_manifest(dir).value_or(Manifest{}));
  std::error_code ec;
  if (foreign.empty()) {
    try {
      remove_owned(dir);
      return;
    } catch (const fs::filesystem_error& e) {
      ec = e.code();
    }
  }
  std::cerr << "warning: left the earlier report " << dir.string()
            << " in place: " << (ec ? ec.message() : "it holds " + list_entries(foreign)) << "\n";
}

// With the lock held nobody else is writing this path, so folders whose role file names this
// target are leftovers of a crash: put a displaced report back, remove the rest.
void OutputDir::recover_leftovers() {
  const fs::path parent = target_.parent_path();
  std::error_code ec;
  std::vector<std::pair<fs::path, FolderRole>> found;
  const std::string prefix = "." + short_name(target_) + ".goodput-";
  std::vector<fs::path> abandoned;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    if (e.path() == target_) continue;
    if (auto r = leftover_role(e.path(), target_))
      found.emplace_back(e.path(), *r);
    else if (abandoned_temp(e.path(), prefix))
      abandoned.push_back(e.path());
  }
  for (const auto& dir : abandoned) fs::remove_all(dir);
  if (fs::is_directory(fs::symlink_status(target_)))  // an in-place update's staging folder
    for (const auto& e : fs::directory_iterator(target_, ec))
      if (auto r = leftover_role(e.path(), target_); r && r->role == "staging")
        found.emplace_back(e.path(), *r);
  for (const auto& [dir, role] : found) {
    if (role.role == "staging") {
      remove_owned(dir);
    } else if (role.role == "displaced") {
      if (!fs::exists(fs::symlink_status(target_))) {  // displaced by a crash mid-publish
        fs::rename(dir, target_);
        fs::remove(target_ / kRoleFile);
        fsync_dir(parent);
      } else {
        remove_displaced(dir);
      }
    }
  }
  // The new report, published just before a crash, may still hold its staging role file, or
  // the earlier one its "displaced" mark: either way it is the report. ("updating" stays: the
  // in-place update it describes is finished by the next publish.)
  if (const auto r = read_role(target_); r && r->role != "updating") {
    fs::remove(target_ / kRoleFile);
    fsync_dir(target_);
  }
  if (fs::is_directory(fs::symlink_status(target_)))  // a role file being written at the kill
    fs::remove(target_ / (std::string(kRoleFile) + ".tmp"), ec);
}

fs::path OutputDir::make_temp(const fs::path& where, const char* kind) const {
  std::string tmpl = (where / ("." + short_name(target_) + ".goodput-" + kind + "-" +
                               std::to_string(::getpid()) + "-XXXXXX"))
                         .string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    throw FileError("cannot create a folder in " + where.string() + ": " + std::strerror(errno));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(tmpl.c_str(), 0777 & ~mask);  // mkdtemp makes it 0700; a report gets the usual mode
  const fs::path dir(tmpl);
  try {
    write_role(dir, {kind, target_, dir, static_cast<long>(::getpid()), {}});
  } catch (...) {
    ::rmdir(tmpl.c_str());  // still empty: write_role removes its partial file
    throw;
  }
  return dir;
}

const fs::path& OutputDir::staging() {
  InterruptLock guard;
  if (staging_.empty())
    staging_ = make_temp(in_place_ ? target_ : target_.parent_path(), "staging");
  return staging_;
}

void OutputDir::publish() {
  if (staging_.empty()) throw std::logic_error("OutputDir::publish without a staging folder");
  hold_point();         // before the guard: a test interrupts a writer that has staged its files
  InterruptLock guard;  // an interruption waits for the publish to finish
  crash_point("staged");
  write_file_durable(staging_ / kMarkerFile, manifest_text(digest_tree(staging_)));
  fsync_tree(staging_);
  check_target(false);
  const fs::path parent = target_.parent_path();
  if (in_place_) {
    publish_in_place();
  } else {
    if (fs::is_directory(fs::symlink_status(target_)) && fs::is_empty(target_))
      ::rmdir(target_.c_str());  // an empty folder: nothing in it to keep (fails if not empty)
    if (!fs::exists(fs::symlink_status(target_))) {
      fs::rename(staging_, target_);
      crash_point("renamed");
    } else {
      write_role(target_, {"displaced", target_, staging_, static_cast<long>(::getpid()), {}});
      crash_point("marked");
      if (exchange(staging_, target_)) {
        crash_point("swapped");
        fs::remove(target_ / kRoleFile);
        fsync_dir(target_);
        fsync_dir(parent);
        remove_displaced(staging_);  // now the earlier report
      } else {
        const fs::path old = make_temp(parent, "displaced");
        write_role(target_, {"displaced", target_, old, static_cast<long>(::getpid()), {}});
        fs::remove(old / kRoleFile);
        fs::rename(target_, old);  // onto the empty folder mkdtemp made
        crash_point("aside");
        fs::rename(staging_, target_);
        fsync_dir(parent);
        remove_displaced(old);
      }
    }
    fs::remove(target_ / kRoleFile);
    fsync_dir(target_);
    fsync_dir(parent);
  }
  staging_.clear();
  published_ = true;
}

// A mount point: every old file goodput wrote and every new one are listed in the target's
// role file first, so whatever a crash leaves, the folder holds goodput's files alone.
void OutputDir::publish_in_place() {
  std::vector<std::string> all;
  std::set<std::string> fresh;
  for (const auto& f : digest_tree(staging_)) fresh.insert(f.path);
  std::vector<fs::path> old_top;  // the earlier report's top-level entries
  for (const auto& e : fs::directory_iterator(target_)) {
    const std::string n = e.path().filename().string();
    if (e.path() == staging_ || n == kMarkerFile || n == kRoleFile) continue;
    old_top.push_back(e.path());
  }
  for (const auto& f : digest_tree(target_)) {
    if (fs::path(f.path).begin()->string() == staging_.filename().string()) continue;
    all.push_back(f.path);
  }
  all.insert(all.end(), fresh.begin(), fresh.end());
  write_role(target_, {"updating", target_, target_, static_cast<long>(::getpid()), all});
  crash_point("updating");
  for (const auto& p : old_top) {  // goodput's (checked): the new report replaces them all
    const std::string n = p.filename().string();
    if (fs::is_directory(fs::symlink_status(p)) || !fresh.count(n)) fs::remove_all(p);
  }
  for (const auto& e : fs::directory_iterator(staging_)) {
    const std::string n = e.path().filename().string();
    if (n == kMarkerFile || n == kRoleFile) continue;
    fs::rename(e.path(), target_ / n);  // a file replaces the old one atomically
  }
  fs::rename(staging_ / kMarkerFile, target_ / kMarkerFile);
  fsync_dir(target_);
  fs::remove(target_ / kRoleFile);
  fsync_dir(target_);
  remove_owned(staging_);
}

fs::path OutputDir::records(bool resume) {
  InterruptLock guard;
  const fs::path parent = target_.parent_path();
  std::error_code ec;
  fs::path found;
  for (const auto& e : fs::directory_iterator(parent, ec))
    if (auto r = leftover_role(e.path(), target_); r && r->role == "records") {
      if (found.empty() || e.path() < found) found = e.path();
    }
  if (!found.empty() && !resume) {
    remove_owned(found);
    found.clear();
  }
  records_ = found.empty() ? make_temp(parent, "records") : found;
  fs::create_directories(records_ / "records");
  return records_ / "records";
}

void OutputDir::drop_records() {
  InterruptLock guard;
  if (!records_.empty() && leftover_role(records_, target_)) remove_owned(records_);
  records_.clear();
}

OutputDir::~OutputDir() {
  InterruptLock guard;
  if (!staging_.empty() && leftover_role(staging_, target_)) {
    try {
      remove_owned(staging_);
    } catch (const fs::filesystem_error&) {  // left for the next writer to recognise
    }
  }
  unlock();
}

}  // namespace goodput
