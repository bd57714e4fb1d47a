// Where goodput may write a report folder, and how it replaces one without losing data.
//
// Rules (README, "Where reports go"): goodput writes only into a path it may own — a folder
// that does not exist yet, an empty folder, or an earlier goodput report (recognised by the
// marker `.goodput-report`, which lists every file goodput wrote there with its size and
// SHA-256: report_marker.hpp). Anything else is refused with an InputError naming the flag: a
// file, a device, a symbolic link, a non-empty folder without the marker, the root folder, the
// home folder or one of its parents, the working folder or one of its parents. An earlier
// report that holds anything goodput did not write (a user's notes, a plots/ folder, a listed
// file edited since) is refused too, naming those entries: goodput replaces only what it
// wrote and never deletes or moves anyone else's files. Nothing refused is ever changed.
//
// Interrupted by SIGINT, SIGTERM or SIGHUP (where main called watch_interrupts), an OutputDir
// removes its unpublished staging folder and its lock, keeps a sweep's records for --resume,
// and says so; the path holds the earlier report (or, once published, the new one). Writers
// add files to the staging folder under the interrupt lock (text_util.hpp's write_file and
// make_folder), so the removal never races a file being added.
//
// While an OutputDir lives it holds an exclusive lock (`.<name>.goodput-lock` beside the
// target, flock; a file of that name goodput did not write is refused, never removed), so a
// second concurrent writer fails with InputError instead of mixing files. Reports are written
// into a staging folder made with mkdtemp (`.<name>.goodput-staging-<pid>-XXXXXX`, with a role
// file), every file fsync'd, the marker listing them written last, then published: the staging
// folder and the earlier report swap places in one atomic rename (renameat2 RENAME_EXCHANGE;
// where the file system lacks it, the old report is renamed aside first), and only then is the
// old one deleted — after checking again that it holds only goodput's files. A crash leaves
// either the previous report or the new one at the path; a crashed writer's leftovers are
// recognised by their role file alone (report_marker.hpp) and cleaned up — or put back — by the
// next writer of the same path.
//
// A target that is a mount point (a container volume) cannot be renamed: it is detected when
// claimed, and the files are moved into it one by one from a staging folder inside it, under a
// role file listing the old and new files, so an interrupted update still owns every file.
//
// Sweeps also keep their streamed per-point records in a records folder beside the target
// (`.<name>.goodput-records-<pid>-XXXXXX`, role file inside) until the final files are
// published, so an interrupted sweep, even one killed while publishing, resumes without
// redoing finished points.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "sim/core/interrupt.hpp"

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
  bool in_place() const { return in_place_; }  // a mount point: filled file by file

  // A fresh, empty staging folder unique to this process (only its role file in it).
  const std::filesystem::path& staging();
  // Lists the staged files in the marker, then moves them to the target (replacing an earlier
  // report crash-safely). Throws (nothing replaced) when a write fails or the target changed.
  void publish();

  // The sweep's folder of streamed records (inside the records folder). Without `resume` any
  // earlier one of this target is emptied first. Removed by drop_records().
  std::filesystem::path records(bool resume);
  void drop_records();

  // The marker file's name, and whether `dir` holds goodput's marker.
  static const char* marker_name();
  static bool is_goodput_folder(const std::filesystem::path& dir);

 private:
  [[noreturn]] void refuse(const std::string& why) const;
  void lock();
  void unlock();
  void recover_leftovers();
  void check_target(bool before_recovery) const;
  std::filesystem::path make_temp(const std::filesystem::path& where, const char* kind) const;
  void publish_in_place();
  void remove_displaced(const std::filesystem::path& dir) const;
  // On SIGINT, SIGTERM or SIGHUP (interrupt.hpp): removes the unpublished staging folder and
  // the lock, keeps a sweep's records; returns the line that tells the user what is left.
  std::string abandon() noexcept;

  std::string flag_;
  std::filesystem::path target_;  // absolute, normalised, parents resolved
  std::filesystem::path lock_path_;
  std::filesystem::path staging_;  // empty until staging() is called
  std::filesystem::path records_;  // the records folder, once records() is called
  int lock_fd_ = -1;
  bool in_place_ = false;
  bool published_ = false;
  // Last, so destroyed first: once it is gone no interruption touches the other members.
  std::optional<InterruptCleanup> on_interrupt_;
};

// Where a report goes when no --out is given: goodput-out/<name><suffix> in the working folder
// (git-ignored). The scenario's name is a label, not a path: separators and control characters
// become '-', leading dots, dashes and spaces are dropped; a name left empty (".", "..") is an
// InputError naming `origin` and /name. The reference reports in results/ are written only by
// scripts/regenerate-results.sh.
std::string default_output(const std::string& name, const std::string& origin,
                           const std::string& suffix = "");
// `p` relative to the working folder when it lies below it, else as is (for messages).
std::string display_path(const std::filesystem::path& p);

}  // namespace goodput
