// goodput-profile-analytical: writes a datasheet-based calibration profile (no GPU needed).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "calibrate/cli/args.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

int main(int argc, char** argv) {
  using namespace goodput::calib;
  // Ctrl-C, kill or a closed terminal while the profile is written finishes it (save_profile):
  // watched before any other thread starts (CUDA's inherit the blocked signals).
  goodput::watch_interrupts();
  try {
    const AnalyticalArgs args =
        parse_analytical_args(std::vector<std::string>(argv + 1, argv + argc));
    if (args.help) {
      std::fputs(usage_analytical().c_str(), stdout);
      return 0;
    }
    check_output_path(args.out);
    const std::vector<ProfiledModel> models =
        args.scenario ? std::vector<ProfiledModel>{read_scenario_model(*args.scenario)}
                      : standard_models();
    const Profile p = analytical_profile(args.gpu, models);
    save_profile(p, args.out);
    std::printf(
        "wrote %s: %zu GEMM, %zu reshard, %zu memory-bound kernel and %zu fused attention "
        "entries, hash %s\n",
        args.out.c_str(), p.gemm.size(), p.reshard.size(), p.memory_kernels.size(),
        p.attention.size(), profile_hash(p).c_str());
    std::printf(
        "fit (leave-one-out): GEMM max %.2f%% median %.2f%% over %d; reshard max %.2f%% over %d\n",
        100 * p.fit.gemm.max_rel_error, 100 * p.fit.gemm.median_rel_error, p.fit.gemm.held_out,
        100 * p.fit.reshard.max_rel_error, p.fit.reshard.held_out);
    return 0;
  } catch (const goodput::InputError& e) {
    std::fprintf(stderr, "goodput-profile-analytical: %s\n%s", e.what(),
                 e.locator().rfind("--", 0) == 0 ? usage_analytical().c_str() : "");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "goodput-profile-analytical: error: %s\n", e.what());
    return 1;
  }
}
