// Runs of one fault list. simulate_all() runs several strategies side by side on one engine
// and one cluster health: each fault is applied to the health once, then every strategy sees
// it in turn (its own layout, signals and accounting). A strategy's events and the fault
// events keep the same relative order as in a run of its own, so its results are identical
// to simulate()'s. Faults are fed lazily (the next start is scheduled when the previous one
// fires). `extra` (optional) observes the job signals of one strategy, e.g. a timeline writer.
// A strategy whose run provably equals another's but for the boost figures (StrategyInfo::
// follows, e.g. ntp beside an ntp_boost with no power headroom) and that no observer watches is
// not simulated: it takes that one's results with its boost figures zero.
#pragma once

#include <memory>
#include <vector>

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

// What a worker keeps from one run to the next so that later runs reuse the buffers (cluster
// health, layouts) and the strategies' memos of earlier ones: results are the same with or
// without it. It serves one plan and one list of strategies (the first it is used with);
// anything else is a logic error. One per thread.
class RunWorkspace {
 public:
  RunWorkspace();
  ~RunWorkspace();
  RunWorkspace(RunWorkspace&&) noexcept;
  RunWorkspace& operator=(RunWorkspace&&) noexcept;
  struct Parts;  // single_run.cpp
  Parts& parts(const RunPlan& plan, const std::vector<StrategyConfig>& strategies);
  // Strategies of the last run that were not simulated: each followed another whose run is its
  // own but for the boost figures (StrategyInfo::follows), and took that one's results.
  std::size_t followed() const;

 private:
  std::unique_ptr<Parts> parts_;
};

RunMetrics simulate(const RunPlan& plan, const FaultList& faults, const StrategyConfig& strategy,
                    JobObserver* extra = nullptr);
// `observers` (optional): one per strategy (null entries allowed), like simulate()'s `extra`.
// `workspace` (optional): reused from the previous run on this thread.
std::vector<RunMetrics> simulate_all(const RunPlan& plan, const FaultList& faults,
                                     const std::vector<StrategyConfig>& strategies,
                                     const std::vector<JobObserver*>& observers = {},
                                     RunWorkspace* workspace = nullptr);

}  // namespace goodput
