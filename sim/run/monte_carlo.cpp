#include "sim/run/monte_carlo.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"

namespace goodput {

std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads, const ProgressFn& progress) {
  const int seeds = plan.scenario.seeds;
  const auto& strategies = plan.scenario.strategies;
  std::vector<StrategyRuns> out(strategies.size());
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    out[s].strategy = strategies[s].name;
    out[s].runs.resize(static_cast<std::size_t>(seeds));
  }
  std::atomic<int> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex mutex;
  auto worker = [&] {
    for (int run = next++; run < seeds; run = next++) {
      try {
        if (plan.scenario.mode == "snapshot") {
          auto m = simulate_snapshot(plan, run);
          for (std::size_t s = 0; s < strategies.size(); ++s) out[s].runs[static_cast<std::size_t>(run)] = m[s];
        } else {
          const FaultList faults = faults_for(plan, run);
          auto m = simulate_all(plan, faults, strategies);
          for (std::size_t s = 0; s < strategies.size(); ++s) out[s].runs[static_cast<std::size_t>(run)] = m[s];
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        next = seeds;
        return;
      }
      const int d = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(mutex);
        progress(d, seeds);
      }
    }
  };
  const int n = std::max(1, std::min(threads, seeds));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace goodput
