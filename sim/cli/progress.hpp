// Progress on stderr for commands that run long: one line, "  runs 12/40 [#####     ] 8s left",
// redrawn in place on a terminal (from 1 s in, so short commands stay silent), or one line per
// second when --progress sends it elsewhere. Shown when stderr is a terminal or --progress was
// given, never with --quiet; never on stdout and never in output files. Not thread-safe: call
// it from one thread at a time (the Monte Carlo and sweep callbacks hold a lock).
#pragma once

#include <chrono>
#include <string>

namespace goodput {

// Whether to show progress: --progress, or stderr is a terminal; never with --quiet.
bool progress_wanted(bool progress_flag, bool quiet);

// "45s", "3m05s", "1h02m".
std::string duration_text(double seconds);

class ProgressLine {
 public:
  explicit ProgressLine(bool on);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool on() const { return on_; }
  // Starts a phase: its units are called `what` ("runs", "points"); the time left is estimated
  // from the phase's rate so far. `at_most`: the total is an upper bound (a bisection that may
  // stop early), so the line says "at most N" and "up to ... left", without a bar.
  void begin(const std::string& what, bool at_most = false);
  // `done` of `total` units finished; `seconds_left` >= 0 replaces the estimate.
  void update(int done, int total, double seconds_left = -1);
  // Clears the line (a terminal) so later output starts clean; idempotent.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  bool on_, tty_;
  bool drawn_ = false, at_most_ = false;
  std::size_t width_ = 0;  // of the line drawn last (a terminal)
  std::string what_;
  Clock::time_point start_, phase_start_, last_draw_;
};

}  // namespace goodput
