// The failed-GPU figures of a run: GPU-hours down, the time spent at each count of failed GPUs
// (time-weighted quantiles, time above thresholds) and the peak. Every strategy of a run sees
// the same cluster health, so the driver integrates these once per health change and every
// strategy's metrics take them from here (Accounting::finish), instead of each strategy's
// accounting integrating the same history.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/time.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

class FailedGpuTally {
 public:
  explicit FailedGpuTally(std::int64_t total_gpus, std::vector<double> failed_thresholds = {})
      : total_gpus_(total_gpus), failed_thresholds_(std::move(failed_thresholds)) {}

  void gpus_down(Time t, std::int64_t down);  // from t on, `down` GPUs are failed
  // Integrates up to the horizon and works out the figures (once: every strategy takes them).
  void finish(Time horizon);
  double down_gpu_s() const { return down_gpu_s_; }
  // Sets the failed-GPU fields of `out` (after finish): gpu_hours_down, peak_failed_gpus,
  // failed_gpus_mean/p50/p90/p99 and time_above_failed (fractions of the horizon).
  void fill(RunMetrics& out) const;

 private:
  void advance(Time t);

  std::int64_t total_gpus_;
  std::vector<double> failed_thresholds_;
  std::vector<double> down_time_;  // seconds spent with exactly i GPUs down
  Time last_ = 0;
  std::int64_t down_ = 0, peak_ = 0;
  double down_gpu_s_ = 0;
  RunMetrics figures_;  // its failed-GPU fields, as of finish()
};

}  // namespace goodput
