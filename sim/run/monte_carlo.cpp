#include "sim/run/monte_carlo.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/core/parallel_for.hpp"
#include "sim/run/monte_carlo_runs.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"

namespace goodput {

std::vector<StrategyRuns> empty_runs(const RunPlan& plan, int count) {
  const auto& strategies = plan.scenario.strategies;
  std::vector<StrategyRuns> out(strategies.size());
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    out[s].strategy = strategies[s].name;
    out[s].runs.resize(static_cast<std::size_t>(count));
  }
  return out;
}

std::vector<RunMetrics> simulate_run(const RunPlan& plan, int run, RunWorkspace& workspace) {
  if (plan.scenario.mode == RunMode::Snapshot) return simulate_snapshot(plan, run);
  return simulate_all(plan, *shared_faults_for(plan, run), plan.scenario.strategies, {},
                      &workspace);
}

void store_run(const RunPlan& plan, int slot, std::vector<RunMetrics> m,
               std::vector<StrategyRuns>& out) {
  // The job's GPUs over every GPU of the cluster (spare domains and unused GPUs included).
  const JobSpec& job = plan.scenario.job;
  const double job_share = static_cast<double>(job.tp) * job.groups_per_replica() * job.dp /
                           static_cast<double>(std::max<std::int64_t>(1, plan.topology->gpus()));
  for (std::size_t s = 0; s < out.size(); ++s) {
    m[s].goodput_per_provisioned_gpu = m[s].goodput * job_share;
    out[s].runs[static_cast<std::size_t>(slot)] = m[s];
  }
}

std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress, int first_run,
                                          const RunWatch* watch) {
  const int seeds = plan.scenario.seeds;
  const int count = std::max(0, seeds - first_run);
  std::vector<StrategyRuns> out = empty_runs(plan, count);
  const bool snapshot = plan.scenario.mode == RunMode::Snapshot;
  if (watch && snapshot) throw std::logic_error("run_monte_carlo: a watched run in snapshot mode");
  // The watched run first: it takes longest (its observers' work too), so it is not the tail.
  const int watched = watch && watch->run >= first_run && watch->run < seeds ? watch->run : -1;
  auto run_of = [&](int task) {
    if (watched < 0) return first_run + task;
    if (task == 0) return watched;
    return first_run + task - 1 + (first_run + task - 1 >= watched ? 1 : 0);
  };
  int done = 0;
  std::vector<RunWorkspace> workspaces(static_cast<std::size_t>(std::max(1, threads)));
  parallel_for(
      count, threads,
      [&](int task, int worker) {
        const int run = run_of(task);
        RunWorkspace& workspace = workspaces[static_cast<std::size_t>(worker)];
        std::vector<RunMetrics> m;
        if (run == watched) {
          const FaultList faults = faults_for(plan, run);
          m = simulate_all(plan, faults, plan.scenario.strategies, watch->observers(), &workspace);
          watch->done(faults);
        } else {
          m = simulate_run(plan, run, workspace);
        }
        store_run(plan, run - first_run, std::move(m), out);
      },
      [&](int) {
        ++done;
        if (progress) progress(done, count);
      });
  return out;
}

}  // namespace goodput
