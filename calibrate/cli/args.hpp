// Command lines of goodput-calibrate, goodput-profile-analytical and goodput-profile-check,
// parsed with CLI11 (header-only: a bare GPU machine gets it from third_party/include, see
// tools/vendor-headers.sh). Contract: accepts "--flag value" and "--flag=value"; a repeated flag
// keeps its last value. Unknown arguments, missing or bad values and a missing required
// argument throw goodput::InputError("", "--flag" or "PROFILE", why) -> exit 2. --help/-h sets
// `help` and skips the other checks. usage_*() return the help text.
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

struct CheckArgs {
  std::string profile;  // positional PROFILE.json
  std::string gpu;      // empty: taken from the profile's /device/name
  std::string out;      // empty: stdout
  bool help = false;
};

CalibrateArgs parse_calibrate_args(const std::vector<std::string>& argv);
AnalyticalArgs parse_analytical_args(const std::vector<std::string>& argv);
CheckArgs parse_check_args(const std::vector<std::string>& argv);
std::string usage_calibrate();
std::string usage_analytical();
std::string usage_check();

// Throws InputError when the directory that would hold `path` does not exist.
void check_output_path(const std::string& path);

}  // namespace goodput::calib
