// The device under test: selection, description and observed clocks.
// Contract: select_device() throws goodput::NoDeviceError (exit 3) when CUDA reports no
// usable device or the index is out of range, and leaves clocks and power settings alone.
// ClockSampler reads current SM/memory clocks through NVML loaded at run time (dlopen), so the
// harness neither links NVML nor fails where it is missing ("observed_via": "none").
#pragma once

#include <memory>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

// Makes `device` current and describes it.
DeviceInfo select_device(int device);

class ClockSampler {
 public:
  explicit ClockSampler(int device);
  ~ClockSampler();
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  bool available() const { return handle_ != nullptr; }
  void sample();                    // one reading of SM and memory clocks
  void fill(Clocks& clocks) const;  // observed ranges + "observed_via"

 private:
  struct Api;
  std::unique_ptr<Api> api_;
  void* handle_ = nullptr;  // nvmlDevice_t
  std::vector<double> sm_, mem_;
};

}  // namespace goodput::calib
