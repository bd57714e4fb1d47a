// Command lines of goodput-calibrate and goodput-profile-analytical, parsed with CLI11
// (header-only: a bare GPU machine gets it from third_party/include, tools/vendor-headers.sh).
// Contract: accepts "--flag value" and "--flag=value"; a repeated flag keeps its last value.
// Unknown arguments, missing or bad values and a missing --out throw
// goodput::InputError("", "--flag", why) -> exit 2. --help/-h sets `help` and skips the other
// checks. usage_*() return the help text.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace goodput::calib {

struct CalibrateArgs {
  std::optional<std::string> scenario;
  int device = 0;
  bool quick = false;
  std::string out;
  bool help = false;
};

struct AnalyticalArgs {
  std::string gpu;
  std::optional<std::string> scenario;
  std::string out;
  bool help = false;
};

CalibrateArgs parse_calibrate_args(const std::vector<std::string>& argv);
AnalyticalArgs parse_analytical_args(const std::vector<std::string>& argv);
std::string usage_calibrate();
std::string usage_analytical();

// Throws InputError when the directory that would hold `path` does not exist.
void check_output_path(const std::string& path);

}  // namespace goodput::calib
