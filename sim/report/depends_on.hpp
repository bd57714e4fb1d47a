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

inline constexpr int kRunRobustnessPoints = 16;  // points of the robustness line in `goodput run`
// Seeds a robustness world runs first in `goodput run`; the rest of the analysis's only where
// these leave the leader within its 95% CI (RobustnessSpec::first_seeds).
inline constexpr int kRobustnessFirstSeeds = 2;
// Seeds every range end and switch value runs first in `goodput run`; the rest of the
// analysis's only where, against some rival, these leave the lead's sign within its 95% CI or on
// the other side of the scenario's value's (SensitivityRequest::first_seeds).
inline constexpr int kEndFirstSeeds = 2;
inline constexpr int kRunCrossingEvaluations = 8;  // root-search evaluations allowed per rival
// `goodput run` analyses the first seeds of the scenario's (the same failures as the run; the
// lines say how many): as few as the sign of the winner's lead needs (analysis_seeds), at most
// kRunAnalysisSeeds, whatever the run's count; `goodput sensitivity` runs all of them.
inline constexpr int kRunAnalysisSeeds = 4;
// At least 3: over 2 seeds a paired CI is 12.7 standard errors wide (Student's t, 1 degree of
// freedom), which would call most robustness points tied and print leads of "5.8 ± 3.5 pp".
inline constexpr int kMinAnalysisSeeds = 3;

// The fewest n in [kMinAnalysisSeeds, most) for which the winner's paired lead over every rival,
// over the run's first n seeds alone, is positive beyond its 95% CI; else `most`. Paired over the
// same failures, a lead's sign is settled long before its size: each evaluation of the analysis
// runs n seeds.
int analysis_seeds(const Report& report, int most);

struct DependsOnPlan {
  SensitivityRequest request;  // no params and no switches: nothing to compute
  int max_runs = 0;            // evaluations of the scenario, at most
  int seeds = 0;               // seeds per evaluation (the first of the scenario's)
  std::string skip_note;       // why it is not computed, when it is not
};

// `off`: --no-break-even. Skipped (with a note) when its cap exceeds the work budget.
DependsOnPlan plan_depends_on(const Report& report, const Scenario& scenario,
                              const WorkEstimate& work, const WorkBudget& budget, bool off);

// `evaluate`: how a modified scenario is run (monte_carlo_evaluator, sim/run/monte_carlo.hpp, given
// the run's checkpoint pilot so that a price's evaluations reuse it);
// progress(done, max_runs) after each evaluation of the scenario. `batch` (optional): the same
// evaluator's batch form (monte_carlo_evaluators), which runs the evaluations known in advance
// side by side (SensitivityRequest::batch); the lines are the same with or without it.
void add_depends_on(Report& report, const Scenario& scenario, const DependsOnPlan& plan,
                    const ScopedEvaluate& evaluate, const std::function<void(int, int)>& progress,
                    const BatchEvaluate& batch = {});

}  // namespace goodput
