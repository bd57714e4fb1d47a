#include "sim/cli/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace goodput {

namespace {

constexpr double kQuietStart_s = 1.0;   // a terminal shows nothing for commands shorter than this
constexpr double kLogEvery_s = 1.0;     // off a terminal: at most one line per second
constexpr double kRedrawEvery_s = 0.1;  // on a terminal: at most ten redraws per second
constexpr int kBarWidth = 30;

}  // namespace

bool progress_wanted(bool progress_flag, bool quiet) {
  return !quiet && (progress_flag || isatty(STDERR_FILENO));
}

std::string duration_text(double s) {
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", static_cast<long>(s) / 3600,
                  static_cast<long>(s) % 3600 / 60);
  else if (s >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", static_cast<long>(s) / 60,
                  static_cast<long>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  return buf;
}

ProgressLine::ProgressLine(bool on)
    : on_(on), tty_(on && isatty(STDERR_FILENO)), start_(Clock::now()) {
  phase_start_ = last_draw_ = start_;
}

void ProgressLine::begin(const std::string& what, bool at_most) {
  what_ = what;
  at_most_ = at_most;
  phase_start_ = Clock::now();
}

void ProgressLine::update(int done, int total, double left) {
  if (!on_) return;
  const auto now = Clock::now();
  auto secs = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  const bool last = done >= total;
  if (tty_ && secs(now - start_) < kQuietStart_s && !drawn_) return;
  if (drawn_ && !last && secs(now - last_draw_) < (tty_ ? kRedrawEvery_s : kLogEvery_s)) return;
  if (left < 0) {
    const double elapsed = secs(now - phase_start_);
    left = done > 0 ? elapsed / done * (total - done) : 0;
  }
  const int filled = total > 0 ? done * kBarWidth / total : kBarWidth;
  const std::string eta =
      done > 0 ? (at_most_ ? "up to " : "") + duration_text(left) + " left" : "starting";
  const std::string line =
      "  " + what_ + " " + std::to_string(done) +
      (at_most_ ? " (at most " + std::to_string(total) + "), "
                : "/" + std::to_string(total) + " [" +
                      std::string(static_cast<std::size_t>(filled), '#') +
                      std::string(static_cast<std::size_t>(kBarWidth - filled), ' ') + "] ") +
      eta;
  if (tty_) {
    std::cerr << "\r" << line << std::string(width_ > line.size() ? width_ - line.size() : 0, ' ')
              << std::flush;
    width_ = line.size();
  } else {
    std::cerr << line << "\n" << std::flush;
  }
  drawn_ = true;
  last_draw_ = now;
}

void ProgressLine::finish() {
  if (tty_ && drawn_) std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace goodput
