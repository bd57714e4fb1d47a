#include "sim/run/snapshot.hpp"

#include <algorithm>
#include <cmath>

#include "models/failures/failure_generator.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/engine/random.hpp"

namespace goodput {

std::vector<std::uint32_t> snapshot_failed_gpus(const RunPlan& plan, int run) {
  const std::uint32_t n = plan.topology->gpus();
  const auto k = static_cast<std::uint32_t>(std::llround(plan.scenario.failed_fraction * n));
  RandomStream rng(plan.scenario.seed, static_cast<std::uint64_t>(run), stream_id("snapshot"));
  // Floyd's algorithm: k distinct GPUs, uniformly.
  std::vector<std::uint32_t> chosen;
  chosen.reserve(k);
  for (std::uint32_t j = n - k; j < n; ++j) {
    const auto t = static_cast<std::uint32_t>(rng.below(static_cast<std::uint64_t>(j) + 1));
    chosen.push_back(std::find(chosen.begin(), chosen.end(), t) == chosen.end() ? t : j);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::vector<RunMetrics> simulate_snapshot(const RunPlan& plan, int run) {
  const Scenario& s = plan.scenario;
  const Topology& topo = *plan.topology;
  ClusterHealth health(topo);
  const auto failed = snapshot_failed_gpus(plan, run);
  for (std::uint32_t g : failed) health.fail(topo.id(ComponentKind::Gpu, g), nullptr);

  // The failure-free layout puts groups in domain order, each on tp consecutive GPUs.
  const std::uint32_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(s.job.tp);
  const std::int64_t groups = s.job_groups();
  std::int64_t healthy_groups = 0;
  for (std::int64_t gi = 0; gi < groups; ++gi) {
    const auto d = static_cast<std::uint32_t>(gi / per_domain);
    const std::uint32_t first =
        d * topo.gpus_per_domain() + static_cast<std::uint32_t>(gi % per_domain) * s.job.tp;
    bool ok = true;
    for (std::uint32_t g = first; g < first + static_cast<std::uint32_t>(s.job.tp) && ok; ++g)
      ok = health.up(g);
    healthy_groups += ok ? 1 : 0;
  }

  std::vector<RunMetrics> out;
  for (const auto& sc : s.strategies) {
    SnapshotInput in;
    in.scenario = &s;
    in.health = &health;
    in.cost = plan.cost.get();
    in.params = sc.params;
    const Phase p = find_strategy(sc.name)->snapshot(in);
    RunMetrics m;
    m.goodput = p.rate;
    for (int b = 0; b < kBucketCount; ++b) m.badput[b] = p.loss[b];
    m.failures = static_cast<std::int64_t>(failed.size());
    m.peak_failed_gpus = static_cast<std::int64_t>(failed.size());
    m.healthy_tp_groups_fraction =
        static_cast<double>(healthy_groups) / static_cast<double>(groups);
    m.ettr = p.rate > 0 ? 1.0 : 0.0;
    out.push_back(m);
  }
  return out;
}

}  // namespace goodput
