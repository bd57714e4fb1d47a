#include "sim/run/monte_carlo.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

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
  };
  auto kept = std::make_shared<Base>(Base{std::move(base_pilot), base_job_faults_per_hour});
  return [threads, kept](const Scenario& s, const EvaluationScope& scope) {
    using Pilot = EvaluationScope::Pilot;
    const std::size_t n = s.strategies.size();
    if (scope.strategies.empty() && scope.pilot == Pilot::Simulate) {
      RunPlan plan = make_plan(s);
      if (kept->pilot.runs == 0 && plan.pilot.runs > 0)
        *kept = {plan.pilot, plan.job_faults_per_hour};
      return run_monte_carlo(plan, threads);
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
    std::vector<StrategyRuns> runs =
        run_monte_carlo(make_plan(sub, 1, nullptr, reuse ? &estimate : nullptr), threads);
    std::vector<StrategyRuns> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i].strategy = s.strategies[i].name;
    for (std::size_t j = 0; j < only.size(); ++j) out[only[j]] = std::move(runs[j]);
    return out;
  };
}

}  // namespace goodput
