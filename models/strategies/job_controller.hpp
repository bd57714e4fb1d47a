// Mechanisms every strategy is built from: stalls made of timed steps, checkpoint saves,
// and three recovery procedures — restart the whole job from the last checkpoint, drop the
// damaged replicas and let them rejoin after a state copy, or swap the damaged hardware in
// place. A strategy file picks which procedure answers each fault (react()). The controller
// keeps the job's replica counts and always leaves the layout holding complete groups for
// the replicas that are active or joining.
#pragma once

#include <deque>
#include <vector>

#include "models/strategies/strategy.hpp"

namespace goodput {

enum class BatchPolicy { Shrink, Accumulate, PauseBelow };

struct DropOptions {
  BatchPolicy policy = BatchPolicy::Shrink;
  int min_replicas = 1;
  double reconfig_s = 60;
  double state_copy_s = 300;
};

// Throughput of `active` of `dp` replicas under a batch policy (m micro-batches per replica).
// accumulate: the healthy step over the step of ceil(dp m / active) micro-batches, both from
// the cost model's pipeline schedule (the bubble does not grow with the micro-batches);
// without a cost model, m / ceil(dp m / active).
double drop_rate(const DropOptions& o, int active, int dp, int m, const CostModel* cost);

class JobController : public Strategy {
 public:
  void start(JobContext& ctx) final;
  void on_fault(const FaultImpact& impact) final;
  void on_repair(const RepairImpact& impact) final;
  void handle(std::uint32_t kind, std::uint64_t arg) final;
  std::int64_t events_handled() const final { return events_; }

 protected:
  // Called for faults that hit job groups, after in-domain refill of the hit domains
  // (groups that could not be refilled are gone from the layout).
  virtual void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) = 0;

  // Called for every repair unless a whole-job restart is pending or under way; the default
  // re-forms groups and lets dropped replicas rejoin.
  virtual void react_repair(const RepairImpact& impact);
  // At start and after a whole-job restart (the layout holds all dp x pp full groups again).
  virtual void on_layout_reset() {}
  // The job's phase while running, and whether it can run at all (defaults: replica counts).
  virtual Phase running_phase() const;
  virtual bool can_run() const;

  void recover_by_restart(std::span<const std::uint32_t> dirty);
  // Stall for detection + infra_s (INFRASTRUCTURE_RECOVERY) + restore_s (checkpoint restore),
  // then run in the new layout.
  // `planned`: a change the strategy chose (not counted as an interruption).
  void recover_by_reconfiguring(double infra_s, double restore_s, bool rollback, bool planned = false);
  bool restarting() const { return restarting_ || full_restart_pending_; }
  // Re-emits the running phase after the strategy changed what running_phase() returns.
  void refresh_phase();
  bool running() const { return mode_ == Mode::Running; }
  bool waiting() const { return mode_ == Mode::Waiting; }
  void resume_if_waiting() {
    if (mode_ == Mode::Waiting && can_run()) resume();
  }
  void recover_by_drop(std::size_t groups_hit, std::span<const std::uint32_t> dirty);
  void recover_in_place(double swap_s, bool rollback);

  bool layout_full() const { return ctx_->layout->total_assigned() >= job_groups(); }
  std::int64_t job_groups() const { return static_cast<std::int64_t>(scenario().job.dp) * scenario().job.pp; }
  const Scenario& scenario() const { return *ctx_->scenario; }
  JobContext& ctx() { return *ctx_; }
  const JobContext& ctx() const { return *ctx_; }
  bool degraded() const { return active_ + joining_ < scenario().job.dp; }

  DropOptions drop_;

 private:
  enum Event : std::uint32_t { kStallStep = 1, kJoin };
  enum class Mode { Running, Stalled, Waiting };
  enum class After { Resume, FullRestart, WaitForFullRestart };
  struct Step {
    Time duration;
    Bucket bucket;
  };

  void begin_stall(std::vector<Step> steps, After after);
  void begin_full_restart();  // restart + checkpoint load, once capacity is there
  void next_stall_step();
  void resume();
  void interrupt(bool rollback, bool count = true);
  // Checkpoints are a closed-form cycle on the running phase (CheckpointCycle), not events.
  CheckpointCycle cycle() const;
  void stop_cycle(Time now);  // leaving the running state: where the next save falls
  void relayout_replicas(std::span<const std::uint32_t> dirty);
  void set_in_use();

  JobContext* ctx_ = nullptr;
  std::int64_t events_ = 0;
  Mode mode_ = Mode::Running;
  After after_ = After::Resume;
  std::vector<Step> steps_;
  std::size_t step_ = 0;
  EventId stall_event_ = 0;
  Time next_due_ = 0;  // start of the next save (while not running)
  Time anchor_ = 0;    // the running phase's cycle anchor
  bool full_restart_pending_ = false;  // waiting for capacity before a whole-job restart
  bool restarting_ = false;            // a whole-job restart is under way

 protected:
  int active_ = 0;
  int joining_ = 0;

 private:
  std::deque<EventId> joins_;
  std::vector<std::uint32_t> hit_domains_;
};

}  // namespace goodput
