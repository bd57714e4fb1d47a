// Fail-slow (issue 29): sits between one strategy's signals and its observers and slows the job
// while slow spans (slow_faults.hpp) touch GPUs the job uses. Every signal passes through; a
// running phase's rate is multiplied by
//   1 / max(stretch of each waited-for span)  x  (1 - sum of each Rebalanced span's loss),
// and what it loses goes to the SLOW_COMPONENTS bucket. stretch = cost.slow_step_ratio(s, 1):
// the synchronous job waits for the slow replica at every step (every replica, since they all
// meet at the gradient sync). loss = (1 - cost.slow_replica_throughput(s, boost_cap)) /
// replicas: the slow replica's local batch is cut to fit the healthy step, the others run on.
// Under /job/batch fixed a Rebalanced span cannot cut the batch: the job keeps waiting for it,
// stretch = cost.slow_step_ratio(s, power). A span that touches no GPU in the job's layout
// costs nothing. When a span starts or ends the current phase is emitted again at that time
// with the new rate. The strategy never sees slow spans.
// A boosting strategy (boost_cap > 1) boosts a Rebalanced span's TP group (tp GPUs) to the
// least power that keeps what its cap keeps (cost.slow_boost_power; under a fixed batch the
// least power that waits no longer than the cap, cost.slow_paced_power): while the job runs
// with that group in its layout, (power - 1) x tp GPU-TDP units and one boosted domain (a
// capped one when the group still falls short of its batch or its pace) are added to the
// strategy's own boost signal, so the energy and the boost figures count it.
#pragma once

#include <vector>

#include "models/cost/cost_model.hpp"
#include "models/failures/fault.hpp"
#include "models/job/job_layout.hpp"
#include "models/job/job_signals.hpp"

namespace goodput {

class SlowPacer final : public JobObserver {
 public:
  SlowPacer(JobObserver& out, const JobLayout& layout, const Topology& topology)
      : out_(out), layout_(layout), topology_(topology) {}
  // Before the first signal: the cost model and the strategy's boost cap (1: none).
  // `fixed_batch`: /job/batch fixed (a slow replica cannot cut its local batch).
  void configure(const CostModel* cost, double boost_cap, int dp, bool fixed_batch) {
    cost_ = cost;
    boost_cap_ = boost_cap;
    replicas_ = dp;
    fixed_batch_ = fixed_batch;
  }

  void slow_start(Time t, const Fault& f);
  void slow_end(Time t, const Fault& f);

  void phase(Time t, const Phase& p) override;
  void checkpoint_aborted(Time t) override { out_.checkpoint_aborted(t); }
  void rollback(Time t) override { out_.rollback(t); }
  void partial_step_lost(Time t, Time step) override { out_.partial_step_lost(t, step); }
  void interruption(Time t) override { out_.interruption(t); }
  void gpus_in_use(Time t, std::int64_t in_use) override;
  void replicas(Time t, int active, int total) override;
  void boost(Time t, double p, int d, int c) override;
  void paid(Time t, Mechanism m, Time s) override { out_.paid(t, m, s); }

 private:
  struct Span {
    const Fault* fault;
    double stretch;  // the step's stretch (Rebalanced: 1, or under a fixed batch its wait)
    double kept;     // Rebalanced (elastic): the slow replica's share of its batch; else 1
    double power;    // Rebalanced by a boosting strategy: its TP group's power; else 1
    bool detected;   // Rebalanced: known to the strategy (boosted by a boosting one)
  };
  // What the spans touching the job's layout do to it: the rate multiplier and their boost.
  struct Boost {
    double extra_power_gpus = 0;
    int boosted_domains = 0;
    int capped_domains = 0;
    bool operator==(const Boost&) const = default;
  };
  double effect(Boost* boost) const;
  void emit(Time t);
  // Passes on the strategy's boost plus the spans' (unless `always`, only when it changed).
  void send_boost(Time t, bool always);

  JobObserver& out_;
  const JobLayout& layout_;
  const Topology& topology_;
  const CostModel* cost_ = nullptr;
  double boost_cap_ = 1;
  int replicas_ = 1;
  bool fixed_batch_ = false;
  Boost own_;   // the strategy's last boost signal
  Boost slow_;  // the spans' boost while the job runs, as of the last emit
  Boost sent_;  // the sum last passed on
  std::vector<Span> spans_;
  Phase phase_;
  bool have_phase_ = false;
};

}  // namespace goodput
