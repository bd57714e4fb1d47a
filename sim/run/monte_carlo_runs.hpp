// The pieces of a Monte Carlo run that the Monte Carlo (monte_carlo.cpp) and its evaluators
// (monte_carlo_evaluator.cpp) share: a result with empty run slots, one run of a plan, and its
// metrics stored in their slot. Internal to sim/run.
#pragma once

#include <vector>

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

class RunWorkspace;

// Each strategy of the plan with `count` empty run slots.
std::vector<StrategyRuns> empty_runs(const RunPlan& plan, int count);
// Run `run` of the plan, every strategy (not watched; snapshot mode too).
std::vector<RunMetrics> simulate_run(const RunPlan& plan, int run, RunWorkspace& workspace);
// Stores a run's metrics (every strategy's, in the plan's order) in slot `slot` of `out`, with
// their Goodput per provisioned GPU.
void store_run(const RunPlan& plan, int slot, std::vector<RunMetrics> m,
               std::vector<StrategyRuns>& out);

}  // namespace goodput
