#include "sim/run/accounting.hpp"

#include <algorithm>

namespace goodput {

void Accounting::advance(Time t) {
  if (t <= last_) return;
  const double dt = to_seconds(t - last_);
  const double before = progress_;
  if (phase_.cycle.on() && phase_.rate > 0) {
    advance_cycle(t, dt);
  } else {
    progress_ += phase_.rate * dt;
    for (int b = 0; b < kBucketCount; ++b) bucket_[b] += phase_.loss[b] * dt;
    if (phase_.rate > 0) run_time_ += dt;
    promote_pending(t);
  }
  down_gpu_s_ += static_cast<double>(down_) * dt;
  if (static_cast<std::size_t>(down_) >= down_time_.size())
    down_time_.resize(static_cast<std::size_t>(down_) + 1, 0.0);
  down_time_[static_cast<std::size_t>(down_)] += dt;
  idle_gpu_s_ += static_cast<double>(std::max<std::int64_t>(0, total_gpus_ - down_ - in_use_)) * dt;
  boost_energy_s_ += boost_power_ * dt;
  boosted_domain_s_ += boosted_domains_ * dt;
  note_completion(before, t);
  last_ = t;
}

void Accounting::note_completion(double before, Time t) {
  if (target_s_ <= 0 || completed_at_ >= 0 || progress_ < target_s_ || phase_.rate <= 0) return;
  // Progress over [last_, x] is rate x (training seconds in it): find the first millisecond x
  // at which it reaches the target (save windows of a cycle do not train).
  const double need = (target_s_ - before) / phase_.rate;  // training seconds
  auto trained = [&](Time x) {
    return phase_.cycle.on() ? run_between(last_, x) : to_seconds(x - last_);
  };
  Time lo = last_, hi = t;  // trained(lo) < need <= trained(hi), up to rounding
  while (hi - lo > 1) {
    const Time mid = lo + (hi - lo) / 2;
    (trained(mid) >= need ? hi : lo) = mid;
  }
  completed_at_ = hi;
}

void Accounting::promote_pending(Time t) {
  if (!snapshot_pending_ || pending_durable_at_ <= 0 || pending_durable_at_ > t) return;
  durable_progress_ = snapshot_progress_;
  durable_run_time_ = snapshot_run_time_;
  snapshot_pending_ = false;
  ++m_.checkpoints;
}

double Accounting::run_between(Time a, Time b) const {
  const CheckpointCycle& c = phase_.cycle;
  return to_seconds((b - a) - (c.saving_until(b) - c.saving_until(a)));
}

// Running with periodic saves over [last_, t]: split the time into training and saving, then
// find the snapshots this stretch started or made durable. Progress at a time x of the phase is
// phase_progress_ + rate x (training time since the phase start).
void Accounting::advance_cycle(Time t, double dt) {
  const CheckpointCycle& c = phase_.cycle;
  const double run = run_between(last_, t);
  progress_ += phase_.rate * run;
  for (int b = 0; b < kBucketCount; ++b) bucket_[b] += phase_.loss[b] * run;
  bucket_[static_cast<int>(Bucket::CheckpointSave)] += dt - run;
  run_time_ += run;
  promote_pending(t);  // a snapshot of an earlier stretch that became durable by now
  auto progress_at = [&](Time x) {
    return phase_progress_ + phase_.rate * run_between(phase_start_, x);
  };
  auto run_time_at = [&](Time x) { return phase_run_time_ + run_between(phase_start_, x); };
  // The step in flight counts from the end of the latest save window (it may have started in an
  // earlier phase of the same cycle).
  const Time k_end = c.last_save_at(t - c.blocking);
  if (k_end >= 0) running_since_ = std::max(running_since_, c.save_start(k_end) + c.blocking);
  // Saves that started in this phase have indices from `first` on.
  const Time first = c.last_save_at(phase_start_ - 1) + 1;
  const Time last_started = c.last_save_at(t);
  if (last_started < first) return;
  const Time last_durable = c.last_save_at(t - c.durable);
  const Time lo = std::max(first, c.last_save_at(last_ - c.durable) + 1);
  if (last_durable >= lo) {
    m_.checkpoints += last_durable - lo + 1;
    durable_progress_ = progress_at(c.save_start(last_durable));
    durable_run_time_ = run_time_at(c.save_start(last_durable));
    snapshot_pending_ = false;
  }
  if (last_started > last_durable && last_started >= first) {  // the latest snapshot is in flight
    const Time s = c.save_start(last_started);
    snapshot_progress_ = progress_at(s);
    snapshot_run_time_ = run_time_at(s);
    snapshot_pending_ = true;
    pending_durable_at_ = s + c.durable;
  }
}

void Accounting::phase(Time t, const Phase& p) {
  advance(t);
  const bool was_training = phase_.rate > 0 && !(phase_.cycle.on() && phase_.cycle.saving_at(t));
  if (p.rate > 0 && !was_training) running_since_ = t;
  phase_ = p;
  phase_start_ = t;
  phase_progress_ = progress_;
  phase_run_time_ = run_time_;
}

void Accounting::checkpoint_aborted(Time t) {
  advance(t);
  snapshot_pending_ = false;
}

void Accounting::rollback(Time t) {
  advance(t);
  ++m_.rollbacks;
  const double lost = progress_ - durable_progress_;
  progress_ -= lost;
  bucket_[static_cast<int>(Bucket::WastedProgress)] += lost;
  run_time_ = durable_run_time_;
  snapshot_pending_ = false;
}

void Accounting::partial_step_lost(Time t, Time step) {
  advance(t);
  if (phase_.rate <= 0 || step <= 0) return;
  if (phase_.cycle.on() && phase_.cycle.saving_at(t)) return;  // interrupted while saving
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

void Accounting::paid(Time, Mechanism m, Time stalled) {
  ++m_.paid_count[static_cast<int>(m)];
  m_.paid_stall_hours[static_cast<int>(m)] += to_seconds(stalled) / 3600.0;
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
  out.completion_hours = target_s_ <= 0      ? 0.0
                         : completed_at_ < 0 ? -1.0
                                             : to_seconds(completed_at_) / 3600.0;
  // Time-weighted failed-GPU quantiles: the smallest count whose cumulative time reaches q.
  auto quantile = [&](double q) {
    double cum = 0;
    for (std::size_t i = 0; i < down_time_.size(); ++i) {
      cum += down_time_[i];
      if (cum >= q * wall * (1 - 1e-12)) return static_cast<double>(i);
    }
    return static_cast<double>(down_time_.empty() ? 0 : down_time_.size() - 1);
  };
  out.failed_gpus_mean = down_gpu_s_ / wall;
  out.failed_gpus_p50 = quantile(0.5);
  out.failed_gpus_p90 = quantile(0.9);
  out.failed_gpus_p99 = quantile(0.99);
  for (double x : failed_thresholds_) {
    double above = 0;
    for (std::size_t i = 0; i < down_time_.size(); ++i)
      if (static_cast<double>(i) > x * static_cast<double>(total_gpus_)) above += down_time_[i];
    out.time_above_failed.push_back(above / wall);
  }
  return out;
}

}  // namespace goodput
