// What a run's verdict depends on: the break-even of the leader against the runner-up over
// each price of the list (/recovery), under the same failures (sensitivity.hpp).
// Contract: plan_depends_on() decides whether it is computed and how many runs it may take at
// most (bisection may stop early); add_depends_on() computes it and fills the report's
// depends_on sentences and JSON, or records why it was skipped. Both leave the report as is
// when there is nothing to compare (snapshot mode, a tie, no price).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/report/report.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/work_budget.hpp"

namespace goodput {

struct DependsOnPlan {
  std::vector<SensitivityParam> params;  // empty: nothing to compute
  int max_runs = 0;                      // runs of the scenario, at most
  std::string skip_note;                 // why it is not computed, when it is not
};

// `off`: --no-break-even. Skipped (with a note) when its worst case exceeds the work budget.
DependsOnPlan plan_depends_on(const Report& report, const Scenario& scenario,
                              const WorkEstimate& work, const WorkBudget& budget, bool off);

// progress(done, max_runs) after each run of the scenario.
void add_depends_on(Report& report, const Scenario& scenario, const DependsOnPlan& plan,
                    int threads, const std::function<void(int, int)>& progress);

}  // namespace goodput
