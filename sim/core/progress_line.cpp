#include "sim/core/progress_line.hpp"

#include <unistd.h>

#include <algorithm>

namespace goodput {

namespace {

constexpr double kQuietStart_s = 1.0;   // a terminal shows nothing for commands shorter than this
constexpr double kLogEvery_s = 1.0;     // off a terminal: at most one counter line per second
constexpr double kRedrawEvery_s = 0.1;  // on a terminal: at most ten redraws per second
constexpr int kBarWidth = 30;

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

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

std::string progress_bar(int done, int total, int width) {
  const int filled = total > 0 ? std::clamp(done * width / total, 0, width) : width;
  return "[" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(width - filled), ' ') + "]";
}

ProgressLine::ProgressLine(bool on, std::FILE* out)
    : on_(on), tty_(on && isatty(fileno(out)) == 1), out_(out), start_(Clock::now()) {
  phase_start_ = last_draw_ = start_;
}

void ProgressLine::begin(const std::string& what, bool at_most) {
  what_ = what;
  at_most_ = at_most;
  phase_start_ = Clock::now();
}

std::string ProgressLine::counter(int done, int total, double left) const {
  if (left < 0) {
    const double elapsed = seconds(Clock::now() - phase_start_);
    left = done > 0 ? elapsed / done * (total - done) : 0;
  }
  const std::string eta =
      done > 0 ? (at_most_ ? "up to " : "") + duration_text(left) + " left" : "starting";
  return "  " + what_ + " " + std::to_string(done) +
         (at_most_
              ? " (at most " + std::to_string(total) + "), "
              : "/" + std::to_string(total) + " " + progress_bar(done, total, kBarWidth) + " ") +
         eta;
}

void ProgressLine::draw(const std::string& line) {
  if (tty_) {
    std::fprintf(out_, "\r%s%s", line.c_str(),
                 std::string(width_ > line.size() ? width_ - line.size() : 0, ' ').c_str());
    width_ = line.size();
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
  drawn_ = true;
  last_draw_ = Clock::now();
}

void ProgressLine::update(int done, int total, double left) {
  if (!on_) return;
  const auto now = Clock::now();
  const bool last = done >= total;
  if (tty_ && seconds(now - start_) < kQuietStart_s && !drawn_) return;
  if (drawn_ && !last && seconds(now - last_draw_) < (tty_ ? kRedrawEvery_s : kLogEvery_s)) return;
  draw(counter(done, total, left));
}

void ProgressLine::step(int done, int total, const std::string& result) {
  if (!on_) return;
  if (tty_)
    draw(counter(done, total, -1) + "  " + result);
  else
    draw("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + result);
}

void ProgressLine::note(const std::string& line) {
  if (!on_) return;
  finish();
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

void ProgressLine::finish() {
  if (tty_ && drawn_) {
    std::fprintf(out_, "\r%s\r", std::string(width_, ' ').c_str());
    std::fflush(out_);
  }
  drawn_ = false;
}

}  // namespace goodput
