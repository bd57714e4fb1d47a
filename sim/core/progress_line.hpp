// Progress on stderr for commands that run long, the one display of goodput and
// goodput-calibrate. Two uses:
//   update(): a counter with a bar and the time left, "  runs 12/40 [#####     ] 8s left",
//     redrawn in place on a terminal (from 1 s in, so short commands stay silent), or one line
//     per second off a terminal (a log).
//   step(): a finished unit with its result ("qkv fwd: 612 TFLOP/s, verified"): on a terminal
//     the counter line followed by the result, redrawn; off a terminal one line per unit,
//     "[12/70] result", so a log keeps every result.
// note() prints a line that stays (a terminal's counter line is cleared first). Never on stdout
// and never in output files. Not thread-safe: call it from one thread at a time (the Monte Carlo
// and sweep callbacks hold a lock).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace goodput {

// Whether to show progress: --progress, or stderr is a terminal; never with --quiet.
bool progress_wanted(bool progress_flag, bool quiet);

// "45s", "3m05s", "1h02m".
std::string duration_text(double seconds);

// "[####      ]": `width` cells, done / total of them filled (all when total <= 0).
std::string progress_bar(int done, int total, int width);

class ProgressLine {
 public:
  // `on`: show anything at all. Terminal or log is decided by whether `out` is a terminal.
  explicit ProgressLine(bool on, std::FILE* out = stderr);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool on() const { return on_; }
  // Starts a phase: its units are called `what` ("runs", "points", "measurements"); the time
  // left is estimated from the phase's rate so far. `at_most`: the total is an upper bound (a
  // bisection that may stop early), so the line says "at most N" and "up to ... left", no bar.
  void begin(const std::string& what, bool at_most = false);
  // `done` of `total` units finished; `seconds_left` >= 0 replaces the estimate.
  void update(int done, int total, double seconds_left = -1);
  // Unit `done` of `total` finished with `result` (see above).
  void step(int done, int total, const std::string& result);
  // A line that stays.
  void note(const std::string& line);
  // Clears the line (a terminal) so later output starts clean; idempotent.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::string counter(int done, int total, double seconds_left) const;
  void draw(const std::string& line);

  bool on_, tty_;
  std::FILE* out_;
  bool drawn_ = false, at_most_ = false;
  std::size_t width_ = 0;  // of the line drawn last (a terminal)
  std::string what_;
  Clock::time_point start_, phase_start_, last_draw_;
};

}  // namespace goodput
