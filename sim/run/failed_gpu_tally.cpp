#include "sim/run/failed_gpu_tally.hpp"

#include <algorithm>
#include <utility>

namespace goodput {

void FailedGpuTally::advance(Time t) {
  if (t <= last_) return;
  const double dt = to_seconds(t - last_);
  down_gpu_s_ += static_cast<double>(down_) * dt;
  if (static_cast<std::size_t>(down_) >= down_time_.size())
    down_time_.resize(static_cast<std::size_t>(down_) + 1, 0.0);
  down_time_[static_cast<std::size_t>(down_)] += dt;
  last_ = t;
}

void FailedGpuTally::gpus_down(Time t, std::int64_t down) {
  advance(t);
  down_ = down;
  peak_ = std::max(peak_, down);
}

void FailedGpuTally::finish(Time horizon) {
  advance(horizon);
  const double wall = to_seconds(last_);
  RunMetrics& f = figures_;
  f.gpu_hours_down = down_gpu_s_ / 3600.0;
  f.peak_failed_gpus = peak_;
  // Time-weighted failed-GPU quantiles: the smallest count whose cumulative time reaches q.
  auto quantile = [&](double q) {
    double cum = 0;
    for (std::size_t i = 0; i < down_time_.size(); ++i) {
      cum += down_time_[i];
      if (cum >= q * wall * (1 - 1e-12)) return static_cast<double>(i);
    }
    return static_cast<double>(down_time_.empty() ? 0 : down_time_.size() - 1);
  };
  f.failed_gpus_mean = wall > 0 ? down_gpu_s_ / wall : 0.0;
  f.failed_gpus_p50 = quantile(0.5);
  f.failed_gpus_p90 = quantile(0.9);
  f.failed_gpus_p99 = quantile(0.99);
  f.time_above_failed.clear();
  for (double x : failed_thresholds_) {
    double above = 0;
    for (std::size_t i = 0; i < down_time_.size(); ++i)
      if (static_cast<double>(i) > x * static_cast<double>(total_gpus_)) above += down_time_[i];
    f.time_above_failed.push_back(wall > 0 ? above / wall : 0.0);
  }
}

void FailedGpuTally::fill(RunMetrics& out) const {
  out.gpu_hours_down = figures_.gpu_hours_down;
  out.peak_failed_gpus = figures_.peak_failed_gpus;
  out.failed_gpus_mean = figures_.failed_gpus_mean;
  out.failed_gpus_p50 = figures_.failed_gpus_p50;
  out.failed_gpus_p90 = figures_.failed_gpus_p90;
  out.failed_gpus_p99 = figures_.failed_gpus_p99;
  out.time_above_failed = figures_.time_above_failed;
}

}  // namespace goodput
