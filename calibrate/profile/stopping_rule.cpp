#include "calibrate/profile/stopping_rule.hpp"

#include <stdexcept>

#include "calibrate/profile/stats.hpp"

namespace goodput::calib {

StoppingRule::StoppingRule(StopSettings settings) : settings_(settings) {
  if (settings_.min_samples < 1 || settings_.max_samples < settings_.min_samples) {
    throw std::invalid_argument("stopping rule: need 1 <= min_samples <= max_samples");
  }
}

void StoppingRule::add(double sample_s) {
  if (!(sample_s >= 0.0)) throw std::invalid_argument("stopping rule: negative or NaN sample");
  samples_.push_back(sample_s);
  measured_s_ += sample_s;
}

bool StoppingRule::done(double wall_elapsed_s) {
  const auto n = static_cast<int>(samples_.size());
  if (n >= settings_.min_samples) {
    const SampleStats s = summarize(samples_);
    if (s.rel_stderr < settings_.rel_stderr_target) {
      reason_ = "converged";
      return true;
    }
  }
  if (n >= settings_.max_samples) {
    reason_ = "sample_cap";
    return true;
  }
  // The time caps only apply once there is something to report.
  if (n >= 1 && measured_s_ >= settings_.max_measured_s) {
    reason_ = "measured_time_cap";
    return true;
  }
  if (n >= 1 && wall_elapsed_s >= settings_.max_wall_s) {
    reason_ = "wall_time_cap";
    return true;
  }
  reason_ = "running";
  return false;
}

}  // namespace goodput::calib
