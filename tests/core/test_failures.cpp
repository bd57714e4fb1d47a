#include <doctest/doctest.h>

#include <cmath>

#include "models/failures/failure_generator.hpp"
#include "sim/core/stats.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

TEST_CASE("statistical fault counts are Poisson: mean and variance within bounds") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 256});
  FailureSpec spec;
  RepairSpec fixed;
  fixed.modes = {{1, 2.0, 0}};
  spec.classes = {{"gpu", ComponentKind::Gpu, 20000.0, fixed}};
  const double hours = 500;
  const double expected = topo.gpus() * hours / 20000.0;  // 51.2
  const int runs = 400;
  double sum = 0, sumsq = 0;
  for (int r = 0; r < runs; ++r) {
    const auto n = static_cast<double>(
        generate_faults(spec, topo, from_hours(hours), 600, 5, r).faults.size());
    sum += n;
    sumsq += n * n;
  }
  const double mean = sum / runs, var = sumsq / runs - mean * mean;
  CHECK(std::abs(mean - expected) < 4 * std::sqrt(expected / runs));
  CHECK(var / expected > 0.75);  // Poisson: variance == mean
  CHECK(var / expected < 1.3);
}

TEST_CASE("faults: sorted, inside the horizon, lemons fail more, correlated events spread") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 100});
  FailureSpec spec;
  RepairSpec fixed;
  fixed.modes = {{1, 1.0, 0}};
  spec.classes = {{"host", ComponentKind::Node, 2000.0, fixed}};
  spec.lemon_fraction = 0.1;
  spec.lemon_rate_multiplier = 10;
  spec.correlated_fraction = 1.0;
  spec.correlated_nodes = 3;
  const FaultList f = generate_faults(spec, topo, from_hours(5000), 600, 1, 0);
  REQUIRE(f.faults.size() > 100);
  for (std::size_t i = 1; i < f.faults.size(); ++i)
    CHECK(f.faults[i - 1].start <= f.faults[i].start);
  CHECK(f.faults.size() % 3 == 0);  // every event takes three nodes
  for (const auto& x : f.faults) {
    CHECK(x.start < from_hours(5000));
    CHECK(x.end - x.start == from_hours(1.0));
  }
  // The same (seed, run) gives the same list; another run a different one.
  CHECK(generate_faults(spec, topo, from_hours(5000), 600, 1, 0).faults.size() == f.faults.size());
  CHECK(generate_faults(spec, topo, from_hours(5000), 600, 1, 1).faults.size() != f.faults.size());
}

TEST_CASE("the Llama 3 scenario's failure model gives the paper's 419 interruptions") {
  const Scenario s = load_scenario(GOODPUT_SOURCE_DIR "/scenarios/llama3-16k-h100.json",
                                   {"/seeds=10", "/strategies={\"dp_drop\": {}}"});
  const RunPlan plan = make_plan(s);
  // The rates were derived from 419 interruptions in 54 days on the job's 16,384 GPUs.
  CHECK(plan.job_faults_per_hour * 54 * 24 == doctest::Approx(419).epsilon(1e-9));
  const auto runs = run_monte_carlo(plan, 2);
  std::vector<double> hits;
  for (const auto& m : runs[0].runs) hits.push_back(static_cast<double>(m.job_failures));
  const Summary sm = summarize(hits);
  CHECK(std::abs(sm.mean - 419) < 4 * std::sqrt(419.0 / 10));
  for (const auto& m : runs[0].runs)
    CHECK(m.interruptions == m.job_failures);  // dp_drop: one per fault
}
