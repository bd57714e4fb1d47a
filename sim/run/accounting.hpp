// Goodput accounting: observes a run's job signals and integrates them exactly between
// events. Progress is kept in ideal seconds (seconds of the full, failure-free job); rolled
// back or lost work moves from progress to WASTED_PROGRESS, so progress plus every bucket
// always equals the wall time elapsed. A running phase may carry a checkpoint cycle: its save
// windows, snapshots and durable points are integrated in closed form (no events). Also
// integrates the GPU-hours the job does not use; the failed-GPU figures, the same for every
// strategy of a run, come from the run's FailedGpuTally at finish() (spare GPU-hours: those
// not used by the job, less those down; a failed GPU leaves the job's count when it fails). With a
// completion target (ideal seconds of training, from /report/train_hours or train_steps) it records
// when progress first reaches it: the run to completion, exact within a phase (progress is linear
// in training time).
#pragma once

#include <array>

#include "models/job/job_signals.hpp"
#include "sim/run/failed_gpu_tally.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

class Accounting final : public JobObserver {
 public:
  explicit Accounting(std::int64_t total_gpus, double completion_target_s = 0)
      : total_gpus_(total_gpus), target_s_(completion_target_s) {}

  void phase(Time t, const Phase& p) override;
  void checkpoint_aborted(Time t) override;
  void rollback(Time t) override;
  void partial_step_lost(Time t, Time step) override;
  void interruption(Time t) override;
  void gpus_in_use(Time t, std::int64_t in_use) override;
  void replicas(Time, int, int) override {}
  void boost(Time t, double extra_power_gpus, int boosted_domains, int capped_domains) override;
  void paid(Time t, Mechanism m, Time stalled) override;
  void paid_free(Time t, Mechanism m, std::uint32_t times) override;
  void stalled(Time t, Bucket b) override;  // phase(t, Phase::stalled(b)) without its scan
  void interrupted(Time t, bool counted, Lost lost, Time step) override;  // one advance

  // `gpus` GPUs of the job's groups failed at t (from the driver): they stop counting as in
  // use at once, without cutting the phase's integration there.
  void gpus_released(Time t, std::int64_t gpus) {
    // The next advance integrates from last_ with the new count: take back what that adds for
    // [last_, t), when the GPUs were still in use.
    in_use_ -= gpus;
    unused_gpu_s_ -= static_cast<double>(gpus) * to_seconds(t - last_);
  }
  void count_failure(bool hit_job) {
    ++failures_;
    if (hit_job) ++job_failures_;
  }
  // Integrates up to `horizon` and returns the run's metrics (fractions of the horizon), with
  // the failed-GPU figures of `failed` (finished at the same horizon).
  RunMetrics finish(Time horizon, std::int64_t events, const FailedGpuTally& failed);

 private:
  void advance(Time t);
  void advance_cycle(Time t, double dt);
  void promote_pending(Time t);
  double run_between(Time a, Time b) const;  // non-saving seconds of the current cycle in [a, b]
  // Progress went from `before` at last_ to progress_ at t in the current phase: if it first
  // reached the target in between, records when.
  void note_completion(double before, Time t);
  // rollback() and partial_step_lost() once integrated up to t.
  void roll_back();
  void lose_step(Time t, Time step);

  // What every signal reads or writes comes first, together (a lane's accounting is touched
  // once per fault, its lines cold by then): the phase, the integrals, the counters.
  Time last_ = 0;
  // The current phase. Its `loss` is read only at lossy_: a stall (stalled()) sets its one
  // bucket and leaves the others as they were.
  Phase phase_ = Phase::stalled(Bucket::WaitingForCapacity);
  // phase_'s buckets with a loss, first losses_ of them: integrating only those adds exactly
  // what adding every bucket would (the others would add +0).
  std::array<std::uint8_t, kBucketCount> lossy_{
      static_cast<std::uint8_t>(Bucket::WaitingForCapacity)};
  int losses_ = 1;
  bool snapshot_pending_ = false;
  double progress_ = 0;  // seconds
  std::array<double, kBucketCount> bucket_{};
  double run_time_ = 0;
  std::int64_t in_use_ = 0;
  std::int64_t total_gpus_;
  double unused_gpu_s_ = 0;  // GPU-seconds not used by the job (down ones included)
  double boost_power_ = 0;
  int boosted_domains_ = 0;
  int capped_domains_ = 0;
  double target_s_ = 0;          // completion target in ideal seconds (0: none)
  Time completed_at_ = -1;       // when progress first reached it (-1: not yet)
  Time pending_durable_at_ = 0;  // when the pending snapshot becomes durable (cycle saves)
  // The current phase's start, its progress and run time (read only while it has a cycle).
  Time phase_start_ = 0;
  double phase_progress_ = 0, phase_run_time_ = 0;
  Time running_since_ = 0;
  std::int64_t interruptions_ = 0, failures_ = 0, job_failures_ = 0;
  std::int64_t checkpoints_ = 0, rollbacks_ = 0;
  std::array<std::int64_t, kMechanismCount> paid_count_{};
  std::array<double, kMechanismCount> paid_stall_hours_{};
  // Colder: checkpoint snapshots, boost integrals.
  double durable_progress_ = 0, snapshot_progress_ = 0;
  double durable_run_time_ = 0, snapshot_run_time_ = 0;
  Time pending_started_ = 0;  // when the pending snapshot's save started
  double boost_energy_s_ = 0;
  double boosted_domain_s_ = 0;
  double capped_domain_s_ = 0;
};

}  // namespace goodput
