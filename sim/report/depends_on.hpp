// What a run's verdict depends on: for the winner against every rival, the break-even of each
// input of the plausible table (plausible.hpp) in its own unit and as seconds of stall per fault,
// whether flipping each model switch changes the winner, and the robustness line (robustness.hpp)
// — all under the same failures (sensitivity.hpp), every evaluation shared by all rivals.
// Contract: plan_depends_on() decides whether it is computed and caps its evaluations (a root
// search that reaches the cap stops at its current, coarser bracket); add_depends_on() computes
// it and fills the report's depends_on lines and JSON, or records why it was skipped. Both leave
// the report as is when there is nothing to compare (snapshot mode, one strategy, no input).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/report/report.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/work_budget.hpp"

namespace goodput {

inline constexpr int kRunRobustnessPoints = 16;    // points of the robustness line in `goodput run`
inline constexpr int kRunCrossingEvaluations = 8;  // root-search evaluations allowed per rival
// `goodput run` analyses the first max(kRunAnalysisSeeds, seeds / 5) of the scenario's seeds (the
// same failures as the run); `goodput sensitivity` runs all of them.
inline constexpr int kRunAnalysisSeeds = 4;

struct DependsOnPlan {
  SensitivityRequest request;  // no params and no switches: nothing to compute
  int max_runs = 0;            // evaluations of the scenario, at most
  int seeds = 0;               // seeds per evaluation (the first of the scenario's)
  std::string skip_note;       // why it is not computed, when it is not
};

// `off`: --no-break-even. Skipped (with a note) when its cap exceeds the work budget.
DependsOnPlan plan_depends_on(const Report& report, const Scenario& scenario,
                              const WorkEstimate& work, const WorkBudget& budget, bool off);

// `evaluate`: how a modified scenario is run (monte_carlo_evaluator, sim/run/monte_carlo.hpp);
// progress(done, max_runs) after each evaluation of the scenario.
void add_depends_on(Report& report, const Scenario& scenario, const DependsOnPlan& plan,
                    const Evaluate& evaluate, const std::function<void(int, int)>& progress);

}  // namespace goodput
