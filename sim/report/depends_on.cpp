#include "sim/report/depends_on.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/core/error.hpp"
#include "sim/report/plausible.hpp"

namespace goodput {

int analysis_seeds(const Report& report, int most) {
  const std::size_t w = report.winner;
  for (int n = kMinAnalysisSeeds; n < most; ++n) {
    bool settled = true;
    for (std::size_t k = 0; k < report.runs.size() && settled; ++k) {
      if (k == w || report.runs[k].runs.size() < static_cast<std::size_t>(n) ||
          report.runs[w].runs.size() < static_cast<std::size_t>(n)) {
        settled = settled && (k == w);
        continue;
      }
      std::vector<double> a, b;
      for (int i = 0; i < n; ++i) {
        a.push_back(report.runs[w].runs[static_cast<std::size_t>(i)].goodput);
        b.push_back(report.runs[k].runs[static_cast<std::size_t>(i)].goodput);
      }
      const Summary d = summarize_difference(a, b);
      settled = d.mean > d.ci95;  // the winner ahead beyond the CI on these n seeds alone
    }
    if (settled) return n;
  }
  return most;
}

DependsOnPlan plan_depends_on(const Report& report, const Scenario& scenario,
                              const WorkEstimate& work, const WorkBudget& budget, bool off) {
  DependsOnPlan plan;
  if (off) {
    plan.skip_note = "not computed (--no-break-even)";
    return plan;
  }
  if (scenario.mode == RunMode::Snapshot || report.runner_up == report.winner) return plan;
  PlausibleInputs in = plausible_inputs(scenario);
  if (in.numbers.empty() && in.switches.empty()) return plan;
  SensitivityRequest req;
  req.params = std::move(in.numbers);
  req.switches = std::move(in.switches);
  req.robustness_points = kRunRobustnessPoints;
  req.robustness_first_seeds = kRobustnessFirstSeeds;
  req.first_seeds = kEndFirstSeeds;
  req.sampling_precision = true;  // a break-even to the precision its seeds give, no finer
  req.scale_pilots = true;        // an estimate of the pilot where it can only move the interval
  // Fewer seeds per evaluation (the first of the scenario's, so the same failures): a break-even
  // is found on the paired mean difference, and a robustness point only needs to say who leads
  // and whether the CI separates them.
  plan.seeds = analysis_seeds(report, std::min(scenario.seeds, kRunAnalysisSeeds));
  if (report.deterministic) plan.seeds = 1;  // every seed the same run (a trace replay)
  const int rivals = static_cast<int>(report.strategies.size()) - 1;
  int switch_values = 0;
  for (const auto& sw : req.switches) switch_values += static_cast<int>(sw.values.size());
  req.max_evaluations = 1 + 2 * static_cast<int>(req.params.size()) + switch_values +
                        kRunRobustnessPoints + kRunCrossingEvaluations * std::max(1, rivals);
  // Each evaluation builds the scenario's plan again and runs every seed: work.events (setup
  // included, work_budget.hpp) per evaluation, the run already made counted as one.
  const double runs = 1 + req.max_evaluations;
  if (work.events * runs > budget.max_events) {
    char events[32];
    std::snprintf(events, sizeof events, "%.3g", work.events * runs);
    plan.skip_note = "skipped: its cap (" + std::to_string(static_cast<long long>(runs)) +
                     " runs of the scenario, each building its plan: about " + events +
                     " events with the run) exceeds the work budget (--max-events); run "
                     "`goodput sensitivity`";
    return plan;
  }
  plan.max_runs = req.max_evaluations;
  plan.request = std::move(req);
  return plan;
}

void add_depends_on(Report& report, const Scenario& scenario, const DependsOnPlan& plan,
                    const ScopedEvaluate& mc, const std::function<void(int, int)>& progress,
                    const BatchEvaluate& batch) {
  if (plan.request.params.empty() && plan.request.switches.empty()) {
    report.depends_on_note = plan.skip_note;
    return;
  }
  int evaluations = 0;
  // The analysis runs the first `seeds` of the scenario's seeds (the same failures); its base is
  // the run just made, cut to those seeds, not simulated again.
  const int seeds = plan.seeds > 0 ? std::min(plan.seeds, scenario.seeds) : scenario.seeds;
  const Scenario analysed = seeds == scenario.seeds
                                ? scenario
                                : scenario_with(scenario, {"/seeds=" + std::to_string(seeds)});
  std::vector<StrategyRuns> base = report.runs;
  for (auto& r : base)
    r.runs.resize(std::min<std::size_t>(r.runs.size(), static_cast<std::size_t>(seeds)));
  const ScopedEvaluate evaluate = [&](const Scenario& sc, const EvaluationScope& scope) {
    return &sc == &analysed ? base : mc(sc, scope);
  };
  SensitivityRequest req = plan.request;
  req.winner = static_cast<int>(report.winner);
  req.runner_up = static_cast<int>(report.runner_up);
  req.batch = batch;  // never asked for the base (the run's, above)
  SensitivityReport sr;
  try {
    sr = run_sensitivity(analysed, req, evaluate, [&](const std::string&, double) {
      progress(evaluations++, plan.max_runs);
    });
  } catch (const InputError& e) {  // a plausible value this scenario refuses: the run stands
    report.depends_on_note = std::string("not computed: ") + e.what();
    return;
  }
  report.depends_on = verdict_lines(sr);
  // Sequential ends: how many ran every seed of the analysis's.
  std::string ends;
  if (sr.ends.first_seeds > 0 && sr.ends.evaluated > 0)
    ends = "each range end and switch value on its first " + std::to_string(sr.ends.first_seeds) +
           ", all " + std::to_string(seeds) + " in the " + std::to_string(sr.ends.extended) +
           " of " + std::to_string(sr.ends.evaluated) + " whose first " +
           std::to_string(sr.ends.first_seeds) +
           " left a lead's sign unsettled (within its 95% CI) or reversed";
  if (seeds < scenario.seeds)
    report.depends_on.push_back("(computed on the first " + std::to_string(seeds) +
                                " of the run's " + std::to_string(scenario.seeds) +
                                " seeds, the same failures" + (ends.empty() ? "" : "; " + ends) +
                                ": leads above are theirs; `goodput sensitivity` runs all of "
                                "them)");
  else if (!ends.empty())
    report.depends_on.push_back("(" + ends +
                                ": leads above are theirs; `goodput sensitivity` "
                                "runs every seed everywhere)");
  report.depends_on_json = verdict_dependencies_json(sr);
}

}  // namespace goodput
