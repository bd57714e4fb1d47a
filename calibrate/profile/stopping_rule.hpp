// When to stop repeating a timed measurement.
// Contract: feed each timed sample (seconds) to add(); done(wall_s) says whether to stop,
// given the wall time spent on this entry so far. It stops when, after min_samples, the
// relative standard error of the mean falls below the target (converged), or when a sample,
// measured-time or wall-time cap is hit. reason() names which, for the profile.
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/settings.hpp"

namespace goodput::calib {

class StoppingRule {
 public:
  explicit StoppingRule(StopSettings settings);

  void add(double sample_s);
  bool done(double wall_elapsed_s);
  // "converged" | "sample_cap" | "measured_time_cap" | "wall_time_cap" | "running"
  const std::string& reason() const { return reason_; }
  const std::vector<double>& samples() const { return samples_; }
  const StopSettings& settings() const { return settings_; }

 private:
  StopSettings settings_;
  std::vector<double> samples_;
  double measured_s_ = 0.0;
  std::string reason_ = "running";
};

}  // namespace goodput::calib
