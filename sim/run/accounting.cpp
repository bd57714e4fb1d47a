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
    for (int k = 0; k < losses_; ++k) bucket_[lossy_[k]] += phase_.loss[lossy_[k]] * dt;
    if (phase_.rate > 0) run_time_ += dt;
    promote_pending(t);
  }
  unused_gpu_s_ += static_cast<double>(total_gpus_ - in_use_) * dt;
  // Without a boost these would add (+-)0, which leaves any sum as it is: skipped.
  if (boost_power_ != 0 || boosted_domains_ != 0 || capped_domains_ != 0) {
    boost_energy_s_ += boost_power_ * dt;
    boosted_domain_s_ += boosted_domains_ * dt;
    capped_domain_s_ += capped_domains_ * dt;
  }
  if (target_s_ > 0 && completed_at_ < 0) note_completion(before, t);
  last_ = t;
}

void Accounting::note_completion(double before, Time t) {
  if (progress_ < target_s_ || phase_.rate <= 0) return;  // (a target not yet reached: advance)
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
  ++checkpoints_;
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
  for (int k = 0; k < losses_; ++k) bucket_[lossy_[k]] += phase_.loss[lossy_[k]] * run;
  bucket_[static_cast<int>(Bucket::CheckpointSave)] += dt - run;
  run_time_ += run;
  // A snapshot an earlier phase started that became durable by now. This phase's own saves are
  // counted in closed form below: promoting one of those here too counted it twice whenever a
  // signal fell between its start and its durable point.
  if (pending_started_ < phase_start_) promote_pending(t);
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
    checkpoints_ += last_durable - lo + 1;
    durable_progress_ = progress_at(c.save_start(last_durable));
    durable_run_time_ = run_time_at(c.save_start(last_durable));
    snapshot_pending_ = false;
  }
  if (last_started > last_durable && last_started >= first) {  // the latest snapshot is in flight
    const Time s = c.save_start(last_started);
    snapshot_progress_ = progress_at(s);
    snapshot_run_time_ = run_time_at(s);
    snapshot_pending_ = true;
    pending_started_ = s;
    pending_durable_at_ = s + c.durable;
  }
}

void Accounting::phase(Time t, const Phase& p) {
  advance(t);
  const bool was_training = phase_.rate > 0 && !(phase_.cycle.on() && phase_.cycle.saving_at(t));
  if (p.rate > 0 && !was_training) running_since_ = t;
  phase_ = p;
  losses_ = 0;
  for (int b = 0; b < kBucketCount; ++b)
    if (p.loss[b] != 0) lossy_[static_cast<std::size_t>(losses_++)] = static_cast<std::uint8_t>(b);
  phase_start_ = t;
  phase_progress_ = progress_;
  phase_run_time_ = run_time_;
}

void Accounting::stalled(Time t, Bucket b) {
  advance(t);  // a phase of rate 0: running_since_ stays; one bucket has a loss
  // Phase::stalled(b) where it is read (rate, cycle, the loss at lossy_), not copied whole.
  phase_.rate = 0;
  phase_.cycle.interval = 0;
  phase_.loss[static_cast<int>(b)] = 1;
  lossy_[0] = static_cast<std::uint8_t>(b);
  losses_ = 1;
  // phase_start_, phase_progress_ and phase_run_time_ stay: only a phase with a cycle reads
  // them, and only phase() sets one (and them).
}

void Accounting::checkpoint_aborted(Time t) {
  advance(t);
  snapshot_pending_ = false;
}

void Accounting::rollback(Time t) {
  advance(t);
  roll_back();
}

void Accounting::roll_back() {
  ++rollbacks_;
  const double lost = progress_ - durable_progress_;
  progress_ -= lost;
  bucket_[static_cast<int>(Bucket::WastedProgress)] += lost;
  run_time_ = durable_run_time_;
  snapshot_pending_ = false;
}

void Accounting::partial_step_lost(Time t, Time step) {
  advance(t);
  lose_step(t, step);
}

void Accounting::lose_step(Time t, Time step) {
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
  ++interruptions_;
}

void Accounting::interrupted(Time t, bool counted, Lost lost, Time step) {
  advance(t);  // the signals' own advances at the same t would do nothing more
  if (counted) ++interruptions_;
  snapshot_pending_ = false;  // checkpoint_aborted
  if (lost == Lost::SinceCheckpoint)
    roll_back();
  else if (lost == Lost::Step)
    lose_step(t, step);
}

void Accounting::gpus_in_use(Time t, std::int64_t in_use) {
  advance(t);
  in_use_ = in_use;
}

void Accounting::boost(Time t, double extra_power_gpus, int boosted_domains, int capped_domains) {
  advance(t);
  boost_power_ = extra_power_gpus;
  boosted_domains_ = boosted_domains;
  capped_domains_ = capped_domains;
}

void Accounting::paid(Time, Mechanism m, Time stalled) {
  ++paid_count_[static_cast<int>(m)];
  paid_stall_hours_[static_cast<int>(m)] += to_seconds(stalled) / 3600.0;
}

void Accounting::paid_free(Time, Mechanism m, std::uint32_t times) {
  // `times` x paid(t, m, 0): each would add +0 hours, which leaves the sum as it is.
  paid_count_[static_cast<int>(m)] += times;
}

RunMetrics Accounting::finish(Time horizon, std::int64_t events, const FailedGpuTally& failed) {
  advance(horizon);
  const double wall = to_seconds(horizon);
  RunMetrics out;
  out.interruptions = interruptions_;
  out.failures = failures_;
  out.job_failures = job_failures_;
  out.checkpoints = checkpoints_;
  out.rollbacks = rollbacks_;
  out.paid_count = paid_count_;
  out.paid_stall_hours = paid_stall_hours_;
  out.goodput = progress_ / wall;
  for (int b = 0; b < kBucketCount; ++b) out.badput[b] = bucket_[b] / wall;
  out.ettr = run_time_ / wall;
  failed.fill(out);
  out.spare_gpu_hours = std::max(0.0, unused_gpu_s_ - failed.down_gpu_s()) / 3600.0;
  out.events = events;
  out.boost_energy_gpu_hours = boost_energy_s_ / 3600.0;
  out.boosted_domain_hours = boosted_domain_s_ / 3600.0;
  out.capped_domain_hours = capped_domain_s_ / 3600.0;
  out.wall_hours = wall / 3600.0;
  out.completion_hours = target_s_ <= 0      ? 0.0
                         : completed_at_ < 0 ? -1.0
                                             : to_seconds(completed_at_) / 3600.0;
  return out;
}

}  // namespace goodput
