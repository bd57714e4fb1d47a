// Where goodput may write a report folder, and how it replaces one without losing data.
//
// Rules (README, "Where reports go"): goodput writes only into a path it may own — a folder
// that does not exist yet, an empty folder, or an earlier goodput report (recognised by the
// marker file `.goodput-report` it writes into every report, never by guesswork). Anything
// else is refused with an InputError naming the flag: a file, a device, a symbolic link, a
// non-empty folder without the marker, the root folder, the home folder or one of its parents,
// the working folder or one of its parents. Paths are normalised (trailing slashes, `.`,
// `..`). There is no way to force the foreign-folder rule.
//
// While an OutputDir lives it holds an exclusive lock (`.<name>.lock` beside the target, flock),
// so a second concurrent writer fails with InputError instead of mixing files. Reports are
// written into a staging folder unique to this process (`<name>.staging-<pid>`), then
// published: the staging folder and the earlier report swap places in one atomic rename
// (renameat2 RENAME_EXCHANGE; where the file system lacks it, the old report is renamed aside
// first), and only then is the old one deleted. A crash leaves either the previous report or
// the new one at the path; leftovers of a crashed writer (its staging folder, or an old report
// renamed aside) are cleaned up — or put back — by the next writer of the same path.
//
// Sweeps also keep their streamed per-point records in `<name>.partial/` (marker inside) until
// the final files are published, so an interrupted sweep, even one killed while publishing,
// resumes without redoing finished points.
#pragma once

#include <filesystem>
#include <string>

namespace goodput {

class OutputDir {
 public:
  // Claims `path` for a report; `flag` names where the path came from ("--out") in messages.
  // Throws InputError when goodput may not write there or another goodput holds the lock.
  OutputDir(const std::string& path, std::string flag);
  ~OutputDir();  // removes an unpublished staging folder, then releases the lock
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::filesystem::path& target() const { return target_; }

  // A fresh, empty staging folder unique to this process, with the marker written in it.
  const std::filesystem::path& staging();
  // Moves the staging folder to the target (replacing an earlier report crash-safely).
  void publish();

  // The sweep's folder of streamed records (`<target>.partial`, marker inside). Without
  // `resume` any earlier one (goodput's own) is emptied first. Removed by drop_records().
  std::filesystem::path records(bool resume);
  void drop_records();

  // The marker file's name, and whether `dir` holds goodput's marker.
  static const char* marker_name();
  static bool is_goodput_folder(const std::filesystem::path& dir);

 private:
  void refuse(const std::string& why) const;
  void lock();
  void recover_leftovers();
  void check_target() const;

  std::string flag_;
  std::filesystem::path target_;  // absolute, normalised, parents resolved
  std::filesystem::path lock_path_;
  std::filesystem::path staging_;  // empty until staging() is called
  int lock_fd_ = -1;
  bool published_ = false;
};

// Where a report goes when no --out is given: goodput-out/<name> in the working folder
// (git-ignored). The reference reports in results/ are written only by
// scripts/regenerate-results.sh.
std::string default_output(const std::string& name);
// `p` relative to the working folder when it lies below it, else as is (for messages).
std::string display_path(const std::filesystem::path& p);

}  // namespace goodput
