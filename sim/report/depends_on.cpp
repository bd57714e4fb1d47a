#include "sim/report/depends_on.hpp"

namespace goodput {

DependsOnPlan plan_depends_on(const Report& report, const Scenario& scenario,
                              const WorkEstimate& work, const WorkBudget& budget, bool off) {
  DependsOnPlan plan;
  if (off) {
    plan.skip_note = "not computed (--no-break-even)";
    return plan;
  }
  if (scenario.mode == RunMode::Snapshot || report.runner_up == report.winner) return plan;
  std::vector<SensitivityParam> params;
  for (auto& p : default_params(scenario))
    if (p.pointer.rfind("/recovery/", 0) == 0) params.push_back(std::move(p));
  if (params.empty()) return plan;
  const double runs = 1 + static_cast<double>(params.size()) * (2 + 2 * kBreakEvenIterations);
  if (work.events * runs > budget.max_events) {
    plan.skip_note = "skipped: its worst case (" + std::to_string(static_cast<long long>(runs)) +
                     " runs of the scenario) exceeds the work budget; run `goodput sensitivity`";
    return plan;
  }
  plan.params = std::move(params);
  plan.max_runs = static_cast<int>(runs);
  return plan;
}

void add_depends_on(Report& report, const Scenario& scenario, const DependsOnPlan& plan,
                    int threads, const std::function<void(int, int)>& progress) {
  if (plan.params.empty()) {
    report.depends_on_note = plan.skip_note;
    return;
  }
  int evaluations = 0;
  const SensitivityReport sr =
      run_sensitivity(scenario, plan.params, monte_carlo_evaluator(threads),
                      [&](const std::string&, double) { progress(evaluations++, plan.max_runs); });
  Json list = Json::array();
  for (const auto& p : sr.params) {
    const std::string other = other_leader_sentence(sr, p);
    const std::string sentence =
        break_even_sentence(sr, p) + (other.empty() ? "" : " (" + other + ")");
    report.depends_on.push_back(sentence);
    Json crossings = Json::array();
    for (const auto& c : p.crossings) crossings.push_back(c.value);
    list.push_back({{"pointer", p.param.pointer},
                    {"low", p.param.lo},
                    {"base", p.param.base},
                    {"high", p.param.hi},
                    {"crossings", crossings},
                    {"statement", sentence}});
  }
  report.depends_on_json = {{"leader", sr.strategies[sr.winner]},
                            {"runner_up", sr.strategies[sr.runner_up]},
                            {"prices", list}};
}

}  // namespace goodput
