// Monte Carlo over seeds: run r draws (or replays) its fault list once and every strategy
// replays it (common random numbers, so strategy differences are paired). Runs are spread
// over threads with no shared mutable state; results land in fixed slots, so the output is
// identical whatever the thread count.
#pragma once

#include <functional>
#include <vector>

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

using ProgressFn = std::function<void(int runs_done, int runs_total)>;

// Runs first_run .. seeds - 1 (run r's results depend on r alone, so a later call can extend an
// earlier one); the returned runs are in run order. `side` (optional): one more independent
// task for the same threads (e.g. recording the timeline), started before the runs so it does
// not end up as the tail.
std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress = {}, int first_run = 0,
                                          const std::function<void()>& side = {});

}  // namespace goodput
