// EvaluationScope and ScopedEvaluate: how the verdict analysis (sim/report/sensitivity.hpp) asks
// for an evaluation of a modified scenario, and what it gets back. Types only: the simulating
// evaluator is monte_carlo_evaluator (monte_carlo.hpp); the report layer sees this header, not
// the simulators.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

// What one evaluation of a modified scenario needs (the verdict analysis, sensitivity.hpp):
// `strategies`: indexes into the scenario's strategy list to simulate (empty: every one); the
// result still has one StrategyRuns per strategy of the scenario, in its order, those left out
// with their name and no runs. A strategy's runs do not depend on which others run beside it
// (each replays the same faults on its own), so a subset gives the same runs as the whole list.
// `keeps_pilot`: the modified scenario changes a price, not the failures or a strategy, so the
// adaptive checkpoint policy keeps the base's measured rollbacks (its pilot, run_plan.hpp)
// instead of simulating them again; each interval is still derived from the modified costs.
struct EvaluationScope {
  std::vector<std::size_t> strategies;
  bool keeps_pilot = false;
};
using ScopedEvaluate =
    std::function<std::vector<StrategyRuns>(const Scenario&, const EvaluationScope&)>;

}  // namespace goodput
