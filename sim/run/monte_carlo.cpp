#include "sim/run/monte_carlo.hpp"

#include <algorithm>

#include "sim/core/parallel_for.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"

namespace goodput {

std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress, int first_run,
                                          const std::function<void()>& side) {
  const int seeds = plan.scenario.seeds;
  const int count = std::max(0, seeds - first_run);
  const auto& strategies = plan.scenario.strategies;
  std::vector<StrategyRuns> out(strategies.size());
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    out[s].strategy = strategies[s].name;
    out[s].runs.resize(static_cast<std::size_t>(count));
  }
  const int extra = side ? 1 : 0;
  int done = 0;
  std::vector<RunWorkspace> workspaces(static_cast<std::size_t>(std::max(1, threads)));
  parallel_for(
      count + extra, threads,
      [&](int task, int worker) {
        if (task < extra) {
          side();
          return;
        }
        const int i = task - extra;
        const int run = first_run + i;
        const auto m = plan.scenario.mode == RunMode::Snapshot
                           ? simulate_snapshot(plan, run)
                           : simulate_all(plan, faults_for(plan, run), strategies, {},
                                          &workspaces[static_cast<std::size_t>(worker)]);
        for (std::size_t s = 0; s < strategies.size(); ++s)
          out[s].runs[static_cast<std::size_t>(i)] = m[s];
      },
      [&](int task) {
        if (task < extra) return;
        ++done;
        if (progress) progress(done, count);
      });
  return out;
}

}  // namespace goodput
