// One calibration run: select the device, measure the ceilings, then every entry of the
// plan (GEMMs and attention, reshard kernels, memory-bound kernels, multi-GPU transfers), and
// assemble the profile (fit report included). Contract: throws NoDeviceError before
// measuring anything when there is no usable GPU; never writes files (the caller saves the
// returned profile atomically); progress goes to stderr.
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct RunOptions {
  int device = 0;
  bool quick = false;
  std::string scenario;  // path, or "builtin"
};

Profile run_calibration(const RunOptions& options, const std::vector<ProfiledModel>& models);

}  // namespace goodput::calib
