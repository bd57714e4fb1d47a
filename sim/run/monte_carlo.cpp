#include "sim/run/monte_carlo.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/core/parallel_for.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"

namespace goodput {

std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress, int first_run,
                                          const RunWatch* watch) {
  const int seeds = plan.scenario.seeds;
  const int count = std::max(0, seeds - first_run);
  const auto& strategies = plan.scenario.strategies;
  std::vector<StrategyRuns> out(strategies.size());
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    out[s].strategy = strategies[s].name;
    out[s].runs.resize(static_cast<std::size_t>(count));
  }
  const bool snapshot = plan.scenario.mode == RunMode::Snapshot;
  if (watch && snapshot) throw std::logic_error("run_monte_carlo: a watched run in snapshot mode");
  // The watched run first: it takes longest (its observers' work too), so it is not the tail.
  const int watched = watch && watch->run >= first_run && watch->run < seeds ? watch->run : -1;
  auto run_of = [&](int task) {
    if (watched < 0) return first_run + task;
    if (task == 0) return watched;
    return first_run + task - 1 + (first_run + task - 1 >= watched ? 1 : 0);
  };
  // The job's GPUs over every GPU of the cluster (spare domains and unused GPUs included).
  const JobSpec& job = plan.scenario.job;
  const double job_share = static_cast<double>(job.tp) * job.groups_per_replica() * job.dp /
                           static_cast<double>(std::max<std::int64_t>(1, plan.topology->gpus()));
  int done = 0;
  std::vector<RunWorkspace> workspaces(static_cast<std::size_t>(std::max(1, threads)));
  parallel_for(
      count, threads,
      [&](int task, int worker) {
        const int run = run_of(task);
        RunWorkspace& workspace = workspaces[static_cast<std::size_t>(worker)];
        std::vector<RunMetrics> m;
        if (snapshot) {
          m = simulate_snapshot(plan, run);
        } else if (run == watched) {
          const FaultList faults = faults_for(plan, run);
          m = simulate_all(plan, faults, strategies, watch->observers(), &workspace);
          watch->done(faults);
        } else {
          m = simulate_all(plan, faults_for(plan, run), strategies, {}, &workspace);
        }
        for (std::size_t s = 0; s < strategies.size(); ++s) {
          m[s].goodput_per_provisioned_gpu = m[s].goodput * job_share;
          out[s].runs[static_cast<std::size_t>(run - first_run)] = m[s];
        }
      },
      [&](int) {
        ++done;
        if (progress) progress(done, count);
      });
  return out;
}

ScopedEvaluate monte_carlo_evaluator(int threads, RunPlan::Pilot base_pilot,
                                     double base_job_faults_per_hour) {
  struct Base {
    RunPlan::Pilot pilot;
    double job_faults_per_hour = 0;
    // The last plan built and what it was built from (the scenario but its seed count, and the
    // scope's pilot): a robustness world extending its seeds (first_run > 0) asks for it again.
    std::string last_key;
    std::shared_ptr<const RunPlan> last;
  };
  auto kept = std::make_shared<Base>();
  kept->pilot = std::move(base_pilot);
  kept->job_faults_per_hour = base_job_faults_per_hour;
  // make_plan(sc, 1, nullptr, estimate), or the last plan if it was built from the same inputs:
  // a plan depends on the seed count only through the pilot's runs, min(seeds, 2).
  auto plan_for = [kept](const Scenario& sc, const PilotEstimate* estimate, const Json& scope) {
    Json inputs = sc.resolved;
    if (inputs.is_object()) inputs.erase("seeds");
    const std::string key = inputs.dump() + scope.dump() + std::to_string(std::min(sc.seeds, 2));
    if (kept->last && kept->last_key == key) {
      RunPlan plan = *kept->last;
      plan.scenario.seeds = sc.seeds;
      plan.scenario.resolved = sc.resolved;
      return plan;
    }
    RunPlan plan = make_plan(sc, 1, nullptr, estimate);
    kept->last_key = key;
    kept->last = std::make_shared<const RunPlan>(plan);
    return plan;
  };
  return [threads, kept, plan_for](const Scenario& s, const EvaluationScope& scope) {
    using Pilot = EvaluationScope::Pilot;
    const std::size_t n = s.strategies.size();
    const Json scope_key = {scope.strategies, static_cast<int>(scope.pilot), scope.own_pilot};
    if (scope.strategies.empty() && scope.pilot == Pilot::Simulate) {
      RunPlan plan = plan_for(s, nullptr, scope_key);
      if (kept->pilot.runs == 0 && plan.pilot.runs > 0) {
        kept->pilot = plan.pilot;
        kept->job_faults_per_hour = plan.job_faults_per_hour;
      }
      return run_monte_carlo(plan, threads, {}, scope.first_run);
    }
    std::vector<std::size_t> only = scope.strategies;
    if (only.empty())
      for (std::size_t i = 0; i < n; ++i) only.push_back(i);
    Scenario sub = s;
    sub.strategies.clear();
    for (std::size_t i : only) {
      if (i >= n) throw std::logic_error("monte_carlo_evaluator: strategy index out of range");
      sub.strategies.push_back(s.strategies[i]);
    }
    PilotEstimate estimate;
    const bool reuse =
        scope.pilot != Pilot::Simulate && kept->pilot.runs > 0 && kept->pilot.rollbacks.size() == n;
    if (reuse) {
      estimate.measured.runs = kept->pilot.runs;
      if (scope.pilot == Pilot::Scale)
        estimate.base_job_faults_per_hour = kept->job_faults_per_hour;
      for (std::size_t j = 0; j < only.size(); ++j) {
        estimate.measured.rollbacks.push_back(kept->pilot.rollbacks[only[j]]);
        if (std::find(scope.own_pilot.begin(), scope.own_pilot.end(), only[j]) !=
            scope.own_pilot.end())
          estimate.simulate.push_back(j);
      }
    }
    std::vector<StrategyRuns> runs = run_monte_carlo(
        plan_for(sub, reuse ? &estimate : nullptr, scope_key), threads, {}, scope.first_run);
    std::vector<StrategyRuns> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i].strategy = s.strategies[i].name;
    for (std::size_t j = 0; j < only.size(); ++j) out[only[j]] = std::move(runs[j]);
    return out;
  };
}

}  // namespace goodput
