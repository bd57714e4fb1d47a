// libFuzzer harness: the scenario loader on raw bytes. The input is written as a scenario file
// (beside links to the shipped traces and profiles, so the shipped scenarios load) and loaded the
// way `goodput run` loads it; what loads must honour its declared ranges, and small scenarios are
// planned and run once with the metric invariants checked (fuzz_support.hpp).
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "models/scenario/scenario_loader.hpp"

using namespace goodput;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    // scratch/scenarios/scenario.json beside links to the shipped traces and calibrate/, so the
    // relative paths of the shipped scenarios resolve as they do from scenarios/.
    const std::string dir = fuzz::scratch_dir() + "/scenarios";
    if (mkdir(dir.c_str(), 0700) != 0) fuzz::fail("cannot create " + dir);
    auto link = [](const std::string& target, const std::string& name) {
      if (symlink(target.c_str(), name.c_str()) != 0)
        fuzz::fail("cannot link " + name + " to " + target);
    };
    link(fuzz::source_dir() + "/scenarios/traces", dir + "/traces");
    link(fuzz::source_dir() + "/calibrate", fuzz::scratch_dir() + "/calibrate");
    return dir + "/scenario.json";
  }();
  fuzz::write_file(path, data, size);
  Scenario s;
  if (!fuzz::input_errors_only("load_scenario", [&] { s = load_scenario(path); })) return 0;
  fuzz::check_loaded(s);
  fuzz::plan_and_run(s);
  return 0;
}
