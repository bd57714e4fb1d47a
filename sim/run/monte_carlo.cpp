#include "sim/run/monte_carlo.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"

namespace goodput {

std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress, int first_run) {
  const int seeds = plan.scenario.seeds;
  const int count = std::max(0, seeds - first_run);
  const auto& strategies = plan.scenario.strategies;
  std::vector<StrategyRuns> out(strategies.size());
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    out[s].strategy = strategies[s].name;
    out[s].runs.resize(static_cast<std::size_t>(count));
  }
  std::atomic<int> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex mutex;
  auto worker = [&] {
    for (int i = next++; i < count; i = next++) {
      const int run = first_run + i;
      try {
        const auto m = plan.scenario.mode == "snapshot"
                           ? simulate_snapshot(plan, run)
                           : simulate_all(plan, faults_for(plan, run), strategies);
        for (std::size_t s = 0; s < strategies.size(); ++s)
          out[s].runs[static_cast<std::size_t>(i)] = m[s];
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        next = count;
        return;
      }
      const int d = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(mutex);
        progress(d, count);
      }
    }
  };
  const int n = std::max(1, std::min(threads, count));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace goodput
