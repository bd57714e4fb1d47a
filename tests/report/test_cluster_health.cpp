// Cluster-health figures (issue 10, item 6): time above a failed-GPU threshold, time-weighted
// failed-GPU quantiles, the failed-GPUs timeline counter, job MTBI and paused hours — each
// against a value worked out by hand, and the counter against the accounting of the same run.
#include <doctest/doctest.h>

#include "sim/report/report.hpp"
#include "sim/report/timeline.hpp"
#include "sim/run/accounting.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

TEST_CASE("time above a failed-GPU threshold and failed-GPU quantiles, on a hand-made history") {
  // 1,000 GPUs over 100 h: 0 down for 10 h, 2 down for 10 h, 6 down for 10 h, 0 for 70 h.
  FailedGpuTally failed(1000, {0.001, 0.005, 0.01});
  failed.gpus_down(0, 0);
  failed.gpus_down(from_hours(10), 2);
  failed.gpus_down(from_hours(20), 6);
  failed.gpus_down(from_hours(30), 0);
  failed.finish(from_hours(100));
  // Spare GPU-hours: 1,000 GPUs, none used by the job, less those down (800 GPU-hours).
  const RunMetrics m = Accounting(1000).finish(from_hours(100), 0, failed);
  CHECK(m.spare_gpu_hours == doctest::Approx(1000 * 100 - 80));
  CHECK(m.gpu_hours_down == doctest::Approx(2 * 10 + 6 * 10));
  REQUIRE(m.time_above_failed.size() == 3);
  CHECK(m.time_above_failed[0] == doctest::Approx(0.2));  // more than 1 GPU: 20 h of 100
  CHECK(m.time_above_failed[1] == doctest::Approx(0.1));  // more than 5 GPUs: 10 h
  CHECK(m.time_above_failed[2] == 0);                     // more than 10 GPUs: never
  CHECK(m.failed_gpus_mean == doctest::Approx((2 * 10 + 6 * 10) / 100.0));
  CHECK(m.failed_gpus_p50 == 0);  // 80% of the time nothing is down
  CHECK(m.failed_gpus_p90 == 2);  // 90% of the time at most 2
  CHECK(m.failed_gpus_p99 == 6);
  CHECK(m.peak_failed_gpus == 6);
}

TEST_CASE("checkpoints: each durable save counts once, however the phase's time is cut up") {
  // Running at full rate for 1,000 s: a save starts every 110 s (interval 100 s, blocking 10 s)
  // and is durable 60 s after its start. Saves start at 100, 210, ..., 980; those durable by
  // 1,000 s are the 8 that started at or before 940 s.
  Phase p = Phase::running(1.0);
  p.cycle = {0, from_seconds(100), from_seconds(10), from_seconds(60)};
  auto checkpoints = [&](const std::vector<double>& cuts_s) {
    Accounting a(8);
    a.phase(0, p);
    for (double c : cuts_s) a.gpus_in_use(from_seconds(c), 8);  // signals that cut the time
    FailedGpuTally failed(8);
    failed.finish(from_seconds(1000));
    return a.finish(from_seconds(1000), 0, failed).checkpoints;
  };
  CHECK(checkpoints({}) == 8);
  CHECK(checkpoints({120}) == 8);  // between save 0's start and its durable point
  CHECK(checkpoints({105, 130, 150, 165, 215, 500, 950, 990}) == 8);
}

TEST_CASE("the failed-GPUs counter counts a GPU once however many open faults cover it") {
  const Scenario sc = small_at({});
  const RunPlan plan = make_plan(sc);
  FaultList f;
  f.classes.push_back({"x", false});
  f.faults.push_back({from_hours(1), from_hours(3), *plan.topology->resolve("gpu/0"), 0});
  f.faults.push_back(
      {from_hours(2), from_hours(4), *plan.topology->resolve("node/0"), 0});  // 8 GPUs, gpu/0 too
  f.faults.push_back(
      {from_hours(5), from_hours(500), *plan.topology->resolve("gpu/9"), 0});  // past the horizon
  const auto c = failed_gpu_counter(plan, f, 100);
  const std::vector<std::pair<Time, std::int64_t>> expected = {
      {0, 0}, {from_hours(1), 1}, {from_hours(2), 8}, {from_hours(4), 0}, {from_hours(5), 1}};
  CHECK(c == expected);
  bool down = false;
  const auto capped = failed_gpu_counter(plan, f, 4, &down);  // 5 points > 4: windowed maxima
  CHECK(down);
  CHECK(capped.size() <= 4);
  std::int64_t peak = 0;
  for (const auto& p : capped) peak = std::max(peak, p.second);
  CHECK(peak == 8);  // the peak survives downsampling
}

TEST_CASE(
    "the counter agrees with the run's accounting, and reports carry the cluster-health figures") {
  const RunPlan plan =
      make_plan(small_at({"/seeds=2", "/report={\"failed_gpu_thresholds\": [0.001, 0.05]}"}));
  const FaultList faults = faults_for(plan, 0);
  const RunMetrics m = simulate(plan, faults, plan.scenario.strategies.front());
  const auto c = failed_gpu_counter(plan, faults, 1'000'000);
  double area = 0;
  for (std::size_t i = 0; i < c.size(); ++i)
    area += static_cast<double>(c[i].second) *
            to_hours((i + 1 < c.size() ? c[i + 1].first : plan.horizon) - c[i].first);
  CHECK(area / to_hours(plan.horizon) == doctest::Approx(m.failed_gpus_mean).epsilon(1e-9));
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  const Json j = report_json(rep);
  for (const auto& st : plan.scenario.strategies) {
    const Json& h = j["strategies"][st.name]["cluster_health"];
    CHECK(h["time_above_failed"].size() == 2);
    CHECK(h["time_above_failed"][1]["failed_fraction_above"] == 0.05);
    const double wall = 2 * plan.scenario.horizon_hours;
    double interruptions = 0;
    for (const auto& r : rep.runs[&st - &plan.scenario.strategies[0]].runs)
      interruptions += static_cast<double>(r.interruptions);
    if (interruptions > 0)
      CHECK(h["job_mtbi_hours"].get<double>() == doctest::Approx(wall / interruptions));
  }
  const std::string csv = runs_csv(rep);
  CHECK(csv.find("time_above_failed_0.001,time_above_failed_0.05\n") != std::string::npos);
}
