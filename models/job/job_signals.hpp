// What a strategy says about the job, as it happens; accounting, statistics and timeline
// writers observe these signals (strategies never compute Goodput themselves).
// A Phase holds from its start time until the next one: the job makes useful progress at
// `rate` (1 = the full, failure-free job) and the rest of each second is charged to the
// badput buckets in `loss` (rate + sum(loss) == 1).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sim/engine/time.hpp"

namespace goodput {

enum class Bucket : std::uint8_t {
  WastedProgress,          // WASTED_PROGRESS_FROM_DISRUPTION: work rolled back or lost mid-step
  InfrastructureRecovery,  // INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION: detection, restart, swap
  CheckpointSave,          // UNPRODUCTIVE_CHECKPOINT_SAVE_TIME
  CheckpointRestore,       // UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME
  DegradedCapacity,        // running with fewer replicas or smaller batches
  ReshardOverhead,         // NTP gradient reshard exposed time
  WaitingForCapacity,      // not enough healthy hardware to run
  SlowComponents,          // running slower because a slow (fail-slow) component paces the job
};
inline constexpr int kBucketCount = 8;
const char* bucket_name(Bucket b);  // the report's key, e.g. "WASTED_PROGRESS_FROM_DISRUPTION"

// The recovery mechanisms a strategy pays for, each priced once in the scenario's price list
// (/recovery, models/scenario/scenario_params.cpp): the same physical action costs the same
// under every strategy.
enum class Mechanism : std::uint8_t {
  Detection,            // /recovery/detection_s
  JobRestart,           // /recovery/restart_s
  CheckpointLoad,       // /checkpoint/load_s
  CommunicatorRebuild,  // /recovery/communicator_rebuild_s
  StateCopy,            // /recovery/state_copy_s (or derived from bytes)
  SpareSwapIn,          // /recovery/spare_swap_s
  NtpReshard,           // /recovery/ntp_reshard_s (or derived from bytes): per changed TP group
  NtpReconfig,          // /recovery/ntp_reconfig_s: per TP group re-formed at a new degree
  Rejoin,               // /recovery/rejoin_s (default: communicator_rebuild_s): per replica
};
inline constexpr int kMechanismCount = 9;
const char* mechanism_name(Mechanism m);  // the report's key, e.g. "communicator_rebuild"

// Periodic checkpoints while running, described in closed form instead of as events: save k
// starts at anchor + k (interval + blocking) + interval, training stops for `blocking`, and the
// snapshot taken at the save's start becomes restorable `durable` after it (durable >= blocking,
// durable <= interval + blocking, so at most one save is in flight). interval 0: no checkpoints.
struct CheckpointCycle {
  Time anchor = 0;
  Time interval = 0;
  Time blocking = 0;
  Time durable = 0;
  bool on() const { return interval > 0; }
  Time period() const { return interval + blocking; }
  // Saving time in [anchor, x] (x >= anchor).
  Time saving_until(Time x) const {
    if (x <= anchor) return 0;
    const Time n = (x - anchor) / period(), c = (x - anchor) - n * period();
    return n * blocking + std::max<Time>(0, c - interval);
  }
  Time save_start(Time k) const { return anchor + k * period() + interval; }
  // Index of the last save that started at or before x (-1: none).
  Time last_save_at(Time x) const {
    return x < anchor + interval ? -1 : (x - anchor - interval) / period();
  }
  bool saving_at(Time x) const {
    const Time k = last_save_at(x);
    return k >= 0 && x < save_start(k) + blocking;
  }
};

struct Phase {
  double rate = 0;
  std::array<double, kBucketCount> loss{};
  CheckpointCycle cycle;  // only while running

  static Phase stalled(Bucket b) {
    Phase p;
    p.loss[static_cast<int>(b)] = 1;
    return p;
  }
  static Phase running(double rate, Bucket rest = Bucket::DegradedCapacity) {
    Phase p;
    p.rate = rate;
    p.loss[static_cast<int>(rest)] = 1 - rate;
    return p;
  }
};

// What a disruption loses of the training in flight (JobObserver::interrupted).
enum class Lost : std::uint8_t { Nothing, Step, SinceCheckpoint };

class JobObserver {
 public:
  virtual ~JobObserver() = default;
  virtual void phase(Time t, const Phase& p) = 0;  // snapshots and durable points: p.cycle
  virtual void checkpoint_aborted(Time t) = 0;     // the snapshot in flight will never be durable
  virtual void rollback(Time t) = 0;  // progress since the last durable checkpoint is lost
  virtual void partial_step_lost(Time t, Time step) = 0;  // the step in flight is lost
  virtual void interruption(Time t) = 0;                  // a disruption stopped the whole job
  virtual void gpus_in_use(Time t, std::int64_t in_use) = 0;
  virtual void replicas(Time t, int active, int total) = 0;
  // Power boost in force from t: extra power in GPU-TDP units, domains boosted, and degraded
  // domains whose power cap (board power, domain budget, max_power) keeps their replica short
  // of its batch.
  virtual void boost(Time t, double extra_power_gpus, int boosted_domains, int capped_domains) = 0;
  // A recovery mechanism was paid (at t, when it ended); `stalled`: how long the job stood
  // still for it (0 for work done in the background, e.g. a rejoining replica's state copy).
  virtual void paid(Time /*t*/, Mechanism /*m*/, Time /*stalled*/) {}
  // `times` payments of m at t that stall nothing (work in parallel or overlapped): the same as
  // `times` x paid(t, m, 0), which an observer may take at once.
  virtual void paid_free(Time t, Mechanism m, std::uint32_t times) {
    for (std::uint32_t k = 0; k < times; ++k) paid(t, m, 0);
  }
  // phase(t, Phase::stalled(b)), the most frequent phase (every step of every stall): an
  // observer may take it faster than through phase(), with the same effect.
  virtual void stalled(Time t, Bucket b) { phase(t, Phase::stalled(b)); }
  // A disruption at t, the signals in their order: interruption (when `counted`), the snapshot
  // in flight aborted, then rollback (Lost::SinceCheckpoint) or the step in flight lost
  // (Lost::Step, of length `step`). One call, which an observer may take at once.
  virtual void interrupted(Time t, bool counted, Lost lost, Time step) {
    if (counted) interruption(t);
    checkpoint_aborted(t);
    if (lost == Lost::SinceCheckpoint)
      rollback(t);
    else if (lost == Lost::Step)
      partial_step_lost(t, step);
  }
};

// Fans every signal out to the registered observers, in registration order.
class JobSignals final : public JobObserver {
 public:
  void add(JobObserver* o) { observers_.push_back(o); }
  void clear() { observers_.clear(); }
  void phase(Time t, const Phase& p) override {
    for (auto* o : observers_) o->phase(t, p);
  }
  void checkpoint_aborted(Time t) override {
    for (auto* o : observers_) o->checkpoint_aborted(t);
  }
  void rollback(Time t) override {
    for (auto* o : observers_) o->rollback(t);
  }
  void partial_step_lost(Time t, Time step) override {
    for (auto* o : observers_) o->partial_step_lost(t, step);
  }
  void interruption(Time t) override {
    for (auto* o : observers_) o->interruption(t);
  }
  void gpus_in_use(Time t, std::int64_t n) override {
    for (auto* o : observers_) o->gpus_in_use(t, n);
  }
  void replicas(Time t, int a, int n) override {
    for (auto* o : observers_) o->replicas(t, a, n);
  }
  void boost(Time t, double p, int d, int c) override {
    for (auto* o : observers_) o->boost(t, p, d, c);
  }
  void paid(Time t, Mechanism m, Time s) override {
    for (auto* o : observers_) o->paid(t, m, s);
  }
  void paid_free(Time t, Mechanism m, std::uint32_t times) override {
    for (auto* o : observers_) o->paid_free(t, m, times);
  }
  void stalled(Time t, Bucket b) override {
    for (auto* o : observers_) o->stalled(t, b);
  }
  void interrupted(Time t, bool counted, Lost lost, Time step) override {
    for (auto* o : observers_) o->interrupted(t, counted, lost, step);
  }

 private:
  std::vector<JobObserver*> observers_;
};

}  // namespace goodput
