#include "sim/run/accounting.hpp"

#include <algorithm>

namespace goodput {

void Accounting::advance(Time t) {
  if (t <= last_) return;
  const double dt = to_seconds(t - last_);
  progress_ += phase_.rate * dt;
  for (int b = 0; b < kBucketCount; ++b) bucket_[b] += phase_.loss[b] * dt;
  if (phase_.rate > 0) run_time_ += dt;
  down_gpu_s_ += static_cast<double>(down_) * dt;
  idle_gpu_s_ += static_cast<double>(std::max<std::int64_t>(0, total_gpus_ - down_ - in_use_)) * dt;
  boost_energy_s_ += boost_power_ * dt;
  boosted_domain_s_ += boosted_domains_ * dt;
  last_ = t;
}

void Accounting::phase(Time t, const Phase& p) {
  advance(t);
  if (p.rate > 0 && phase_.rate <= 0) running_since_ = t;
  phase_ = p;
}

void Accounting::checkpoint_snapshot(Time t) {
  advance(t);
  snapshot_progress_ = progress_;
  snapshot_run_time_ = run_time_;
  snapshot_pending_ = true;
}

void Accounting::checkpoint_durable(Time t) {
  advance(t);
  if (!snapshot_pending_) return;
  durable_progress_ = snapshot_progress_;
  durable_run_time_ = snapshot_run_time_;
  snapshot_pending_ = false;
  ++m_.checkpoints;
}

void Accounting::checkpoint_aborted(Time t) {
  advance(t);
  snapshot_pending_ = false;
}

void Accounting::rollback(Time t) {
  advance(t);
  const double lost = progress_ - durable_progress_;
  progress_ -= lost;
  bucket_[static_cast<int>(Bucket::WastedProgress)] += lost;
  run_time_ = durable_run_time_;
  snapshot_pending_ = false;
}

void Accounting::partial_step_lost(Time t, Time step) {
  advance(t);
  if (phase_.rate <= 0 || step <= 0) return;
  const double in_step = to_seconds((t - running_since_) % step);
  const double lost = std::min(phase_.rate * in_step, progress_ - durable_progress_);
  if (lost <= 0) return;
  progress_ -= lost;
  bucket_[static_cast<int>(Bucket::WastedProgress)] += lost;
  run_time_ -= std::min(in_step, run_time_ - durable_run_time_);
}

void Accounting::interruption(Time t) {
  advance(t);
  ++m_.interruptions;
}

void Accounting::gpus_in_use(Time t, std::int64_t in_use) {
  advance(t);
  in_use_ = in_use;
}

void Accounting::boost(Time t, double extra_power_gpus, int boosted_domains) {
  advance(t);
  boost_power_ = extra_power_gpus;
  boosted_domains_ = boosted_domains;
}

void Accounting::gpus_down(Time t, std::int64_t down) {
  advance(t);
  down_ = down;
  m_.peak_failed_gpus = std::max(m_.peak_failed_gpus, down);
}

void Accounting::count_failure(bool hit_job) {
  ++m_.failures;
  if (hit_job) ++m_.job_failures;
}

RunMetrics Accounting::finish(Time horizon, std::int64_t events) {
  advance(horizon);
  const double wall = to_seconds(horizon);
  RunMetrics out = m_;
  out.goodput = progress_ / wall;
  for (int b = 0; b < kBucketCount; ++b) out.badput[b] = bucket_[b] / wall;
  out.ettr = run_time_ / wall;
  out.gpu_hours_down = down_gpu_s_ / 3600.0;
  out.spare_gpu_hours = idle_gpu_s_ / 3600.0;
  out.events = events;
  out.boost_energy_gpu_hours = boost_energy_s_ / 3600.0;
  out.boosted_domain_hours = boosted_domain_s_ / 3600.0;
  out.wall_hours = wall / 3600.0;
  return out;
}

}  // namespace goodput
