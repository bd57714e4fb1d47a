// EvaluationScope and ScopedEvaluate: how the verdict analysis (sim/report/sensitivity.hpp) asks
// for an evaluation of a modified scenario, and what it gets back. Types only: the simulating
// evaluator is monte_carlo_evaluator (monte_carlo.hpp); the report layer sees this header, not
// the simulators.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

// What one evaluation of a modified scenario needs (the verdict analysis, sensitivity.hpp):
// `strategies`: indexes into the scenario's strategy list to simulate (empty: every one); the
// result still has one StrategyRuns per strategy of the scenario, in its order, those left out
// with their name and no runs. A strategy's runs do not depend on which others run beside it
// (each replays the same faults on its own), so a subset gives the same runs as the whole list.
// `pilot`: where the adaptive checkpoint policy's rollback counts come from (run_plan.hpp):
//   Simulate: the modified scenario's own pilot (as `goodput run` on it would);
//   Keep: a price moved, not the failures or a strategy's rules: the base's measured rollbacks;
//   Scale: the failures or the job's speed moved, not a strategy's rules: the base's rollbacks
//     times the modified scenario's expected job faults per hour over the base's (PilotEstimate).
// Each interval is still derived from the modified scenario's costs. Under Keep and Scale,
// `own_pilot` lists the strategies whose own inputs moved (/strategies/NAME/...): theirs is
// simulated, as under Simulate.
// `own_pilot_rules` (optional, parallel to own_pilot): each such strategy's rules, the settings
// that decide which faults roll it back (pilot_rules_of, sensitivity.hpp). A pilot of the same
// rules simulated by an earlier evaluation under Keep (the base's failures) is reused, scaled
// like the others', instead of simulated again.
// `first_run`: simulate runs first_run .. seeds - 1 only (a robustness world extending the seeds
// it ran first, robustness.hpp); each strategy's runs are those runs, in run order.
struct EvaluationScope {
  std::vector<std::size_t> strategies;
  enum class Pilot : std::uint8_t { Keep, Scale, Simulate };  // least to most demanding
  Pilot pilot = Pilot::Simulate;
  std::vector<std::size_t> own_pilot;
  int first_run = 0;
  std::vector<std::string> own_pilot_rules{};
  // Whether strategy i is simulated (`strategies` empty: every one).
  bool runs(std::size_t i) const {
    return strategies.empty() ||
           std::find(strategies.begin(), strategies.end(), i) != strategies.end();
  }
};
using ScopedEvaluate =
    std::function<std::vector<StrategyRuns>(const Scenario&, const EvaluationScope&)>;

// Several evaluations asked for at once, e.g. every input's range ends or every robustness world:
// an evaluator may run them side by side. Each outcome is what a ScopedEvaluate gives for its
// request, or the exception it throws (rethrown by whoever reads it, where the one-at-a-time
// evaluation would have thrown).
struct EvaluationRequest {
  Scenario scenario;
  EvaluationScope scope;
};
struct EvaluationOutcome {
  std::vector<StrategyRuns> runs;
  std::exception_ptr error;  // set: runs is empty
};
// `done(i)` (optional) is told when request i is finished (its runs, or its error), once per
// request, in any order, one call at a time: for progress only.
using BatchDone = std::function<void(std::size_t)>;
using BatchEvaluate = std::function<std::vector<EvaluationOutcome>(
    const std::vector<EvaluationRequest>&, const BatchDone&)>;

// A batch as one evaluation after another (what any BatchEvaluate must equal).
inline std::vector<EvaluationOutcome> evaluate_each(const ScopedEvaluate& evaluate,
                                                    const std::vector<EvaluationRequest>& requests,
                                                    const BatchDone& done = {}) {
  std::vector<EvaluationOutcome> out(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    try {
      out[i].runs = evaluate(requests[i].scenario, requests[i].scope);
    } catch (...) {
      out[i].error = std::current_exception();
    }
    if (done) done(i);
  }
  return out;
}

}  // namespace goodput
