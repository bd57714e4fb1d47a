// Runs of one fault list. simulate_all() runs several strategies side by side on one engine
// and one cluster health: each fault is applied to the health once, then every strategy sees
// it in turn (its own layout, signals and accounting). A strategy's events and the fault
// events keep the same relative order as in a run of its own, so its results are identical
// to simulate()'s. Faults are fed lazily (the next start is scheduled when the previous one
// fires). `extra` (optional) observes the job signals of one strategy, e.g. a timeline writer.
#pragma once

#include <vector>

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

RunMetrics simulate(const RunPlan& plan, const FaultList& faults, const StrategyConfig& strategy,
                    JobObserver* extra = nullptr);
// `observers` (optional): one per strategy (null entries allowed), like simulate()'s `extra`.
std::vector<RunMetrics> simulate_all(const RunPlan& plan, const FaultList& faults,
                                     const std::vector<StrategyConfig>& strategies,
                                     const std::vector<JobObserver*>& observers = {});

}  // namespace goodput
