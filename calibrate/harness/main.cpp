// goodput-calibrate: times the sharded GEMMs, attention and NTP reshard kernels on a local GPU
// and writes a calibration profile. Exit codes: 0 ok, 2 bad input, 3 no usable GPU, 1 other.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "calibrate/cli/args.hpp"
#include "calibrate/harness/run_calibration.hpp"
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
    const CalibrateArgs args =
        parse_calibrate_args(std::vector<std::string>(argv + 1, argv + argc));
    if (args.help) {
      std::fputs(usage_calibrate().c_str(), stdout);
      return 0;
    }
    check_output_path(args.out);
    const std::vector<ProfiledModel> models =
        args.scenario ? std::vector<ProfiledModel>{read_scenario_model(*args.scenario)}
                      : standard_models();
    RunOptions options;
    options.device = args.device;
    options.quick = args.quick;
    options.scenario = args.scenario.value_or("builtin");
    const Profile p = run_calibration(options, models);
    save_profile(p, args.out);  // temp file + rename: never a partial profile
    std::printf("wrote %s (%s): %zu GEMM and %zu reshard entries, hash %s\n", args.out.c_str(),
                p.device.name.c_str(), p.gemm.size(), p.reshard.size(), profile_hash(p).c_str());
    std::printf("ceilings: GEMM %.1f TFLOP/s, copy %.1f GB/s\n", p.ceilings.gemm_tflops,
                p.ceilings.copy_gbps);
    std::printf(
        "fit (leave-one-out): GEMM max %.2f%% median %.2f%% over %d; reshard max %.2f%% median "
        "%.2f%% over %d\n",
        100 * p.fit.gemm.max_rel_error, 100 * p.fit.gemm.median_rel_error, p.fit.gemm.held_out,
        100 * p.fit.reshard.max_rel_error, 100 * p.fit.reshard.median_rel_error,
        p.fit.reshard.held_out);
    return 0;
  } catch (const goodput::InputError& e) {
    std::fprintf(stderr, "goodput-calibrate: %s\n%s", e.what(),
                 e.locator().rfind("--", 0) == 0 ? usage_calibrate().c_str() : "");
    return 2;
  } catch (const goodput::NoDeviceError& e) {
    std::fprintf(stderr, "goodput-calibrate: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "goodput-calibrate: error: %s\n", e.what());
    return 1;
  }
}
