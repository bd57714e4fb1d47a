#include "calibrate/cli/progress.hpp"

#include <unistd.h>

#include <algorithm>

namespace goodput::calib {

std::string format_bar(int done, int total, const std::string& label, int width) {
  const int filled = total > 0 ? std::clamp(done * width / total, 0, width) : width;
  std::string out(1, '[');
  out.append(static_cast<std::size_t>(filled), '=');
  out.append(static_cast<std::size_t>(width - filled), ' ');
  out += "] ";
  out += std::to_string(done);
  out += '/';
  out += std::to_string(total);
  out += ' ';
  out += label;
  return out;
}

Progress::Progress(int total, std::FILE* out, bool tty) : total_(total), out_(out), tty_(tty) {}

void Progress::step(const std::string& label) {
  ++done_;
  if (tty_) {
    std::fprintf(out_, "\r\033[K%s", format_bar(done_, total_, label, 30).c_str());
  } else {
    std::fprintf(out_, "[%d/%d] %s\n", done_, total_, label.c_str());
  }
  std::fflush(out_);
}

void Progress::note(const std::string& line) {
  std::fprintf(out_, tty_ ? "\r\033[K%s\n" : "%s\n", line.c_str());
  std::fflush(out_);
}

void Progress::finish() {
  if (tty_) std::fputc('\n', out_);
  std::fflush(out_);
}

bool stderr_is_tty() {
  return ::isatty(STDERR_FILENO) == 1;
}

}  // namespace goodput::calib
