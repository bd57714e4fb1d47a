// goodput-profile-check: reviews a measured profile against the analytical model and the
// device's measured ceilings (profile/profile_check.hpp) and writes a markdown report.
// Usage: goodput-profile-check PROFILE.json [--gpu GPU of the catalogue] [--out check.md]
// Exit codes: 0 nothing flagged; 1 entries flagged (or another error); 2 bad input.
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "calibrate/cli/args.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/profile_check.hpp"
#include "sim/core/error.hpp"

int main(int argc, char** argv) {
  using namespace goodput::calib;
  try {
    const CheckArgs args = parse_check_args(std::vector<std::string>(argv + 1, argv + argc));
    if (args.help) {
      std::fputs(usage_check().c_str(), stdout);
      return 0;
    }
    const std::string& path = args.profile;
    const std::string& out = args.out;
    std::string gpu = args.gpu;
    const Profile measured = load_profile(path);
    if (gpu.empty()) gpu = datasheet_gpu_of(measured.device.name);
    if (gpu.empty())
      throw goodput::InputError(path, "/device/name",
                                "unknown GPU '" + measured.device.name + "': give --gpu");
    const CheckReport report = check_profile(measured, analytical_profile(gpu, measured.models));
    const std::string md = to_markdown(report);
    if (out.empty()) {
      std::fputs(md.c_str(), stdout);
    } else {
      std::ofstream(out) << md;
      std::printf("wrote %s: %zu entries, %d flagged, %d far from the analytical model\n",
                  out.c_str(), report.rows.size(), report.flagged, report.noted);
    }
    return report.flagged > 0 ? 1 : 0;
  } catch (const goodput::InputError& e) {
    std::fprintf(stderr, "goodput-profile-check: %s\n%s", e.what(),
                 e.file().empty() ? usage_check().c_str() : "");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "goodput-profile-check: error: %s\n", e.what());
    return 1;
  }
}
