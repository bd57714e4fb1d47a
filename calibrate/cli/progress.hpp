// Progress report on stderr for long calibration runs.
// Contract: on a terminal, one self-overwriting bar "[=====     ] 12/70 label"; otherwise one
// plain line per finished entry "[12/70] label", so logs stay readable. format_bar() is the
// pure formatting, unit-tested.
#pragma once

#include <cstdio>
#include <string>

namespace goodput::calib {

std::string format_bar(int done, int total, const std::string& label, int width);

class Progress {
 public:
  Progress(int total, std::FILE* out, bool tty);
  void step(const std::string& label);  // one entry done
  void note(const std::string& line);   // a message that must not be overwritten
  void finish();

 private:
  int total_, done_ = 0;
  std::FILE* out_;
  bool tty_;
};

bool stderr_is_tty();

}  // namespace goodput::calib
