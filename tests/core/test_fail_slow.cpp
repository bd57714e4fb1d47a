// Fail-slow (issue 29): slow faults pace the job by closed forms of the cost model; what each
// strategy does about them (evict, tolerate, ntp's exclude-if-faster) by hand calculation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/cost/pipeline_schedule.hpp"
#include "models/failures/failure_generator.hpp"
#include "models/failures/failure_presets.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/slow_faults.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

constexpr double H = 100 * 3600.0;  // the small scenario's horizon, s

double bucket(const RunMetrics& m, Bucket b) {
  return m.badput[static_cast<int>(b)];
}

// One slow fault on `component` from start_h to end_h, `slowdown` times slower, detected after
// detection_s.
FaultList one_slow(const Topology& topo, const std::string& component, double start_h, double end_h,
                   float slowdown, double detection_s) {
  FaultList f;
  f.classes.push_back({"slow", false, true, from_seconds(detection_s)});
  Fault x{from_hours(start_h), from_hours(end_h), *topo.resolve(component), 0};
  x.slowdown = slowdown;
  f.faults.push_back(x);
  return f;
}

// A single-replica TP8 job (one HGX-8 domain of four), no checkpoints.
Json one_replica() {
  Json j = small_scenario(1, 4);
  j["checkpoint"]["interval"] = "none";
  return j;
}

RunMetrics run(const Json& j, const std::string& strategy, const FaultList& faults) {
  const RunPlan plan = make_plan(scenario_from(j));
  return simulate(plan, faults, config_for(plan.scenario, strategy));
}

// Two TP32 replicas on three NVL32 domains (proportional model, fractional batch, no
// checkpoints, no failures of its own): ntp and ntp_boost (max_power 1.2) at `min_tp`.
Json two_tp32_replicas(int min_tp) {
  Json j = Json::parse(R"({
    "name": "slow-tp32", "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "nvl32", "domains": 3},
    "job": {"tp": 32, "pp": 1, "dp": 2, "step_s": 10},
    "failures": {"preset": "none"},
    "checkpoint": {"interval": "none"},
    "cost": {"model": "proportional", "local_batch": "fractional"},
    "strategies": {"ntp": {}, "ntp_boost": {"max_power": 1.2}}
  })");
  j["strategies"]["ntp"]["min_tp"] = min_tp;
  j["strategies"]["ntp_boost"]["min_tp"] = min_tp;
  return j;
}

}  // namespace

TEST_CASE("fail-slow: an undetected slow GPU paces a single-replica job by its slowdown") {
  // Proportional model: the replica's step takes s times longer, so the job trains at 1/s for
  // the 10 h the GPU is slow; nobody notices (detection after the end).
  Json j = one_replica();
  const RunPlan plan = make_plan(scenario_from(j));
  for (const std::string s : {"dp_drop", "checkpoint_restart", "hot_spares"}) {
    CAPTURE(s);
    const RunMetrics m = run(j, s, one_slow(*plan.topology, "gpu/3", 10, 20, 1.5f, 1e7));
    const double lost = 10 * 3600.0 * (1 - 1 / 1.5) / H;
    CHECK(bucket(m, Bucket::SlowComponents) == doctest::Approx(lost).epsilon(1e-9));
    CHECK(m.goodput == doctest::Approx(1 - lost).epsilon(1e-9));
    CHECK(m.interruptions == 0);
  }
}

TEST_CASE("fail-slow: a slow GPU the job does not use costs nothing") {
  Json j = one_replica();  // the job sits on domain 0; gpu/20 is in domain 2 (idle)
  const RunPlan plan = make_plan(scenario_from(j));
  const RunMetrics m = run(j, "dp_drop", one_slow(*plan.topology, "gpu/20", 10, 20, 2.0f, 1e7));
  CHECK(m.goodput == 1.0);
  CHECK(bucket(m, Bucket::SlowComponents) == 0);
}

TEST_CASE("fail-slow: the iteration model stretches the step by the step model's closed form") {
  // PP1, m micro-batches: step = m (f + b) + tail, f and b each compute / speed + comm, so one
  // slow GPU (its TP group's compute s times slower) gives m (s cf + mf + s cb + mb) + tail.
  Json j = Json::parse(R"({
    "name": "slow-iter", "mode": "snapshot", "seeds": 1,
    "cluster": {"preset": "nvl32", "gpu": "B200"},
    "job": {"tp": 32, "pp": 1, "dp": 4, "microbatches": 4, "micro_batch": 1,
            "model": {"preset": "ntp-paper-480b"}},
    "failures": {"preset": "none"},
    "cost": {"model": "iteration"},
    "strategies": {"dp_drop": {}}
  })");
  j["job"]["model"]["layers"] = 4;
  const Scenario sc = scenario_from(j);
  const auto cost = cost_model_of(sc);
  const IterationDetail* d = cost->iteration_detail();
  REQUIRE(d != nullptr);
  const StageBreakdown b = stage_breakdown(d->setup, d->profile, 32, 0);
  for (const double s : {1.0, 1.25, 2.0}) {
    CAPTURE(s);
    PipelineSpec spec;
    spec.microbatches = 4;
    spec.stages = {b.times(1.0 / s)};
    PipelineSpec healthy = spec;
    healthy.stages = {b.times(1.0)};
    const double ratio = pipeline_step_s(spec) / pipeline_step_s(healthy);
    CHECK(cost->slow_step_ratio(s, 1.0) == doctest::Approx(ratio).epsilon(1e-12));
    const double by_hand =
        (4 * (s * (b.compute_fwd_s() + b.compute_bwd_s()) + b.comm_fwd_s() + b.comm_bwd_s()) +
         b.tail_s()) /
        (4 * (b.compute_fwd_s() + b.compute_bwd_s() + b.comm_fwd_s() + b.comm_bwd_s()) +
         b.tail_s());
    CHECK(cost->slow_step_ratio(s, 1.0) == doctest::Approx(by_hand).epsilon(1e-9));
  }
  CHECK(cost->slow_step_ratio(1.5, 1.0) > 1.0);
  CHECK(cost->slow_step_ratio(1.5, 1.0) < 1.5);  // communication and the tail do not slow down
  // slow_boost_power: the least power that keeps what the cap keeps (1 when power 1 does).
  for (const double s : {1.02, 1.1, 1.5}) {
    CAPTURE(s);
    const double cap = 1.3;
    const double p = cost->slow_boost_power(s, cap);
    const double kept = cost->slow_replica_throughput(s, cap);
    CHECK(p >= 1.0);
    CHECK(p <= cap);
    CHECK(cost->slow_replica_throughput(s, p) >= kept);
    if (p > 1.0) CHECK(cost->slow_replica_throughput(s, p - 1e-6) < kept);
  }
  CHECK(cost->slow_boost_power(1.0, 1.3) == 1.0);  // not slow: no boost
  // 4 samples per replica (whole samples): at s = 1.1 some power brings back the 4th sample;
  // at s = 1.5 even the cap keeps only 3 of them, which power 1 keeps already: no boost.
  CHECK(cost->slow_replica_throughput(1.1, 1.0) == 0.75);
  CHECK(cost->slow_replica_throughput(1.1, 1.3) == 1.0);
  CHECK(cost->slow_boost_power(1.1, 1.3) > 1.0);
  CHECK(cost->slow_replica_throughput(1.5, 1.3) == 0.75);
  CHECK(cost->slow_boost_power(1.5, 1.3) == 1.0);
  // Boosted (a fixed batch waits for the group): the slow compute at speed(p) / s, by hand as
  // above; asked after slow_replica_throughput of the same (s, p), so a shared cache entry
  // would show. slow_paced_power: the least power whose wait is the cap's.
  const PowerCurve& curve = cost->power_curve();
  for (const double s : {1.1, 1.5}) {
    CAPTURE(s);
    const double p = 1.2, k = s / curve.speed(p);
    const double by_hand = std::max(
        1.0, (4 * (k * (b.compute_fwd_s() + b.compute_bwd_s()) + b.comm_fwd_s() + b.comm_bwd_s()) +
              b.tail_s()) /
                 (4 * (b.compute_fwd_s() + b.compute_bwd_s() + b.comm_fwd_s() + b.comm_bwd_s()) +
                  b.tail_s()));
    CHECK(cost->slow_replica_throughput(s, p) <= 1.0);
    CHECK(cost->slow_step_ratio(s, p) == doctest::Approx(by_hand).epsilon(1e-9));
    CHECK(cost->slow_step_ratio(s, p) < cost->slow_step_ratio(s, 1.0));
    const double paced = cost->slow_paced_power(s, 1.3);
    CHECK(cost->slow_step_ratio(s, paced) <= cost->slow_step_ratio(s, 1.3));
    if (paced > 1.0) CHECK(cost->slow_step_ratio(s, paced - 1e-6) > cost->slow_step_ratio(s, 1.3));
  }
  // At s = 1.1 the cap's speed (> 1.1) runs the group at the healthy pace: the least power that
  // does, below the cap.
  REQUIRE(curve.speed(1.3) > 1.1);
  CHECK(cost->slow_step_ratio(1.1, 1.3) == 1.0);
  CHECK(cost->slow_paced_power(1.1, 1.3) < 1.3);
}

TEST_CASE("fail-slow: evict = paced until detection, then the fail-stop fault from detection") {
  // /recovery/slow_response evict: the run equals one with an ordinary fault at detection, less
  // the paced time before it (1 - 1/s of the detection time).
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["slow_response"] = "evict";
  const RunPlan plan = make_plan(scenario_from(j));
  const double detect_s = 1800, s = 1.5;
  for (const std::string name : {"dp_drop", "hot_spares", "checkpoint_restart"}) {
    CAPTURE(name);
    const RunMetrics slow =
        run(j, name, one_slow(*plan.topology, "gpu/3", 10, 20, static_cast<float>(s), detect_s));
    const RunMetrics stop =
        run(j, name, one_fault(*plan.topology, "gpu/3", 10 + detect_s / 3600, 20));
    const double paced = detect_s * (1 - 1 / s) / H;
    CHECK(bucket(slow, Bucket::SlowComponents) == doctest::Approx(paced).epsilon(1e-9));
    // checkpoint_restart without checkpoints rolls back to the start either way: the paced
    // progress is part of what it loses, so its Goodput is the same.
    const double expected = name == "checkpoint_restart" ? stop.goodput : stop.goodput - paced;
    CHECK(slow.goodput == doctest::Approx(expected).epsilon(1e-9));
    CHECK(slow.interruptions == stop.interruptions);
  }
}

TEST_CASE("fail-slow: tolerate keeps the job paced until the slowness ends") {
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["slow_response"] = "tolerate";
  const RunPlan plan = make_plan(scenario_from(j));
  const RunMetrics m = run(j, "dp_drop", one_slow(*plan.topology, "gpu/3", 10, 20, 1.25f, 600));
  const double lost = 10 * 3600.0 * (1 - 1 / 1.25) / H;
  CHECK(m.goodput == doctest::Approx(1 - lost).epsilon(1e-9));
  CHECK(m.interruptions == 0);
}

TEST_CASE("fail-slow: ntp excludes a slow GPU exactly when TP7 keeps more than running slow") {
  // TP8, proportional, fractional batch: excluding gives 7/8 of the replica's batch, running
  // slow 1/s of it: exclude iff s > 8/7.
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  j["cost"] = {{"model", "proportional"}, {"local_batch", "fractional"}};
  j["strategies"] = {{"ntp", {{"min_tp", 4}}}, {"dp_drop", Json::object()}};
  const RunPlan plan = make_plan(scenario_from(j));
  const StrategyInfo* ntp = find_strategy("ntp");
  const SlowRule rule = ntp->slow_rule(plan.scenario, plan.scenario.strategy("ntp")->params);
  CHECK(rule.kind == SlowRule::Kind::ExcludeIfFaster);
  const auto decide = [&](float s) {
    Fault f{0, 1, *plan.topology->resolve("gpu/3"), 0};
    f.slowdown = s;
    return decide_slow(rule, RecoverySpec::SlowResponse::Declared, *plan.cost, *plan.topology, f,
                       plan.scenario.job);
  };
  CHECK(decide(1.1f) == SlowDecision::Tolerate);  // 1/1.1 = 0.909 > 0.875
  CHECK(decide(1.2f) == SlowDecision::Evict);     // 1/1.2 = 0.833 < 0.875
  CHECK(decide(8.0f / 7.0f - 0.001f) == SlowDecision::Tolerate);
  CHECK(decide(8.0f / 7.0f + 0.001f) == SlowDecision::Evict);
  // dp_drop always evicts; the policy overrides every rule.
  const SlowRule drop{};
  Fault f{0, 1, *plan.topology->resolve("gpu/3"), 0};
  f.slowdown = 1.01f;
  CHECK(decide_slow(drop, RecoverySpec::SlowResponse::Declared, *plan.cost, *plan.topology, f,
                    plan.scenario.job) == SlowDecision::Evict);
  CHECK(decide_slow(rule, RecoverySpec::SlowResponse::Evict, *plan.cost, *plan.topology, f,
                    plan.scenario.job) == SlowDecision::Evict);
  CHECK(decide_slow(drop, RecoverySpec::SlowResponse::Tolerate, *plan.cost, *plan.topology, f,
                    plan.scenario.job) == SlowDecision::Tolerate);

  // Tolerated by ntp (s = 1.1, known after detection): paced by the whole job until detection,
  // then only the slow replica's batch is cut, to 1/s: a loss of (1 - 1/s) / 3 of the job.
  const double detect_s = 600;
  const RunMetrics m = run(j, "ntp", one_slow(*plan.topology, "gpu/3", 10, 20, 1.1f, detect_s));
  const double s = static_cast<double>(1.1f);
  const double lost = (detect_s * (1 - 1 / s) + (10 * 3600.0 - detect_s) * (1 - 1 / s) / 3) / H;
  CHECK(bucket(m, Bucket::SlowComponents) == doctest::Approx(lost).epsilon(1e-9));
  CHECK(m.interruptions == 0);
}

TEST_CASE("fail-slow: ntp_boost boosts a tolerated slow group to the least power, and counts it") {
  // Two TP32 replicas (NVL32, proportional model, fractional batch); min_tp 32 leaves ntp_boost
  // no lower degree, so it tolerates the slow GPU and, once it is detected, boosts its TP group
  // (32 GPUs) to the least power that keeps what its cap keeps: curve.power_for_speed(s) when
  // that is within the cap (the full batch kept), else the cap (the batch cut to speed(cap) / s,
  // a capped domain). That power, minus 1, x 32 GPUs x the detected span is its boost energy.
  const Json j = two_tp32_replicas(32);
  const RunPlan plan = make_plan(scenario_from(j));
  const double cap = find_strategy("ntp_boost")
                         ->slow_rule(plan.scenario, plan.scenario.strategy("ntp_boost")->params)
                         .boost_cap;
  REQUIRE(cap == doctest::Approx(1.2));  // max_power binds (the B200's board allows more)
  const PowerCurve& curve = plan.cost->power_curve();
  const double detect_s = 600, span_s = 10 * 3600.0 - detect_s;  // detected part of 10 h
  for (const float slowdown : {1.05f, 1.5f}) {
    CAPTURE(slowdown);
    const double s = static_cast<double>(slowdown);
    const FaultList faults = one_slow(*plan.topology, "gpu/3", 10, 20, slowdown, detect_s);
    const RunMetrics m = run(j, "ntp_boost", faults);
    const bool keeps = curve.speed(cap) >= s;
    CHECK(keeps == (slowdown < 1.1f));
    const double power = keeps ? curve.power_for_speed(s) : cap;
    const double kept = std::min(1.0, curve.speed(cap) / s);
    CHECK(m.boost_energy_gpu_hours ==
          doctest::Approx((power - 1) * 32 * span_s / 3600).epsilon(1e-6));
    CHECK(m.boosted_domain_hours == doctest::Approx(span_s / 3600).epsilon(1e-9));
    CHECK(m.capped_domain_hours == doctest::Approx(keeps ? 0.0 : span_s / 3600).epsilon(1e-9));
    // The job waits for the slow GPU until detection; then only the slow replica's batch is
    // cut (to `kept`), the other replica whole.
    const double lost = (detect_s * (1 - 1 / s) + span_s * (1 - kept) / 2) / H;
    CHECK(bucket(m, Bucket::SlowComponents) == doctest::Approx(lost).epsilon(1e-9));
    // ntp, the same fault without boost: no energy, and the batch cut to 1 / s.
    const RunMetrics n = run(j, "ntp", faults);
    CHECK(n.boost_energy_gpu_hours == 0);
    CHECK(n.boosted_domain_hours == 0);
    CHECK(n.capped_domain_hours == 0);
    CHECK(bucket(n, Bucket::SlowComponents) ==
          doctest::Approx((detect_s * (1 - 1 / s) + span_s * (1 - 1 / s) / 2) / H).epsilon(1e-9));
  }
  // A slow GPU the job does not use (domain 2 holds no group) draws no boost.
  const RunMetrics idle =
      run(j, "ntp_boost", one_slow(*plan.topology, "gpu/70", 10, 20, 1.05f, 600));
  CHECK(idle.boost_energy_gpu_hours == 0);
  CHECK(idle.boosted_domain_hours == 0);
}

TEST_CASE("fail-slow: under a fixed batch a tolerated slow replica paces the whole job") {
  // As above, but /job/batch fixed: the slow replica cannot cut its local batch, so after
  // detection the job keeps waiting for it at every step, stretch max(1, s / speed(power)).
  // ntp_boost boosts the group to the least power whose wait is the cap's:
  // curve.power_for_speed(s) when that is within the cap (no wait), else the cap (a capped
  // domain). ntp waits s.
  Json j = two_tp32_replicas(32);
  j["job"]["batch"] = "fixed";
  const RunPlan plan = make_plan(scenario_from(j));
  REQUIRE(plan.scenario.job.fixed_batch);
  const PowerCurve& curve = plan.cost->power_curve();
  const double cap = 1.2, detect_s = 600, span_s = 10 * 3600.0 - detect_s;
  for (const float slowdown : {1.05f, 1.5f}) {
    CAPTURE(slowdown);
    const double s = static_cast<double>(slowdown);
    const FaultList faults = one_slow(*plan.topology, "gpu/3", 10, 20, slowdown, detect_s);
    const bool keeps = curve.speed(cap) >= s;
    const double power = keeps ? curve.power_for_speed(s) : cap;
    const double stretch = std::max(1.0, s / curve.speed(cap));
    CHECK(plan.cost->slow_step_ratio(s, cap) == doctest::Approx(stretch).epsilon(1e-12));
    CHECK(plan.cost->slow_paced_power(s, cap) == doctest::Approx(power).epsilon(1e-8));
    const RunMetrics m = run(j, "ntp_boost", faults);
    CHECK(m.boost_energy_gpu_hours ==
          doctest::Approx((power - 1) * 32 * span_s / 3600).epsilon(1e-6));
    CHECK(m.boosted_domain_hours == doctest::Approx(span_s / 3600).epsilon(1e-9));
    CHECK(m.capped_domain_hours == doctest::Approx(keeps ? 0.0 : span_s / 3600).epsilon(1e-9));
    // The whole job waits, before detection at s, after it at the boosted stretch.
    const double lost = (detect_s * (1 - 1 / s) + span_s * (1 - 1 / stretch)) / H;
    CHECK(bucket(m, Bucket::SlowComponents) == doctest::Approx(lost).epsilon(1e-9));
    const RunMetrics n = run(j, "ntp", faults);
    CHECK(n.boost_energy_gpu_hours == 0);
    CHECK(bucket(n, Bucket::SlowComponents) ==
          doctest::Approx((detect_s + span_s) * (1 - 1 / s) / H).epsilon(1e-9));
  }
}

TEST_CASE("fail-slow: under a fixed batch ntp evicts only when TP31 keeps the whole batch") {
  // TP32 on NVL32 (min_tp 24), 8 samples a replica in whole samples: without the slow GPU the
  // group runs at TP31, 7 of its 8 samples unboosted (ntp: a fixed-batch job cannot run a
  // sample short, so it waits for the slow GPU instead; elastic, it evicts when 7/8 beats the
  // floor(8/s)/8 the slow replica keeps), all 8 boosted (ntp_boost, 1.2x: 31/32 x speed(1.2)
  // >= 1), which then evicts exactly when its boosted wait would still slow the job:
  // s > speed(1.2).
  Json j = two_tp32_replicas(24);
  j["job"]["batch"] = "fixed";
  j["job"]["microbatches"] = 8;
  j["job"]["micro_batch"] = 1;
  j["cost"]["local_batch"] = "whole_samples";
  const RunPlan plan = make_plan(scenario_from(j));
  const double top = plan.cost->power_curve().speed(1.2);
  REQUIRE(31.0 / 32 * top >= 1.0);
  auto decide = [&](const char* strategy, double s, bool fixed) {
    JobSpec job = plan.scenario.job;
    job.fixed_batch = fixed;
    const SlowRule rule =
        find_strategy(strategy)->slow_rule(plan.scenario, plan.scenario.strategy(strategy)->params);
    Fault f{0, 1, *plan.topology->resolve("gpu/3"), 0};
    f.slowdown = static_cast<float>(s);
    return decide_slow(rule, RecoverySpec::SlowResponse::Declared, *plan.cost, *plan.topology, f,
                       job);
  };
  int evicted_elastic = 0;
  for (const double s : {1.05, 1.5, 3.0}) {
    CAPTURE(s);
    const double f = static_cast<double>(static_cast<float>(s));
    CHECK(decide("ntp", s, true) == SlowDecision::Tolerate);
    const bool evict = 7.0 / 8 > std::floor(8 / f) / 8;
    evicted_elastic += evict;
    CHECK(decide("ntp", s, false) == (evict ? SlowDecision::Evict : SlowDecision::Tolerate));
    CHECK(decide("ntp_boost", s, true) == (f > top ? SlowDecision::Evict : SlowDecision::Tolerate));
  }
  CHECK(evicted_elastic == 2);  // 1.5 and 3: what the fixed batch changes
}

TEST_CASE("fail-slow: per-strategy fault lists") {
  FaultList base;
  base.classes = {{"stop", false}, {"slow", false, true, from_seconds(100)}};
  Fault a{from_seconds(0), from_seconds(1000), 5, 1};
  a.slowdown = 1.5f;
  Fault b{from_seconds(50), from_seconds(60), 7, 0};
  Fault c{from_seconds(200), from_seconds(250), 9, 1};  // 50 s: over before its detection
  c.slowdown = 2.0f;
  base.faults = {a, b, c};
  const FaultList evict = strategy_faults(base, {SlowDecision::Evict, SlowDecision::Evict}, false);
  // a: slow [0, 100) then stop [100, 1000); b unchanged; c: over before detection, slow only.
  REQUIRE(evict.faults.size() == 4);
  CHECK(evict.faults[0].is_slow());
  CHECK(evict.faults[0].end == from_seconds(100));
  CHECK(evict.faults[1].component == 7);
  CHECK(!evict.faults[2].is_slow());
  CHECK(evict.faults[2].start == from_seconds(100));
  CHECK(evict.faults[2].end == from_seconds(1000));
  CHECK(evict.faults[3].is_slow());
  CHECK(evict.faults[3].end == from_seconds(250));
  const FaultList cut =
      strategy_faults(base, {SlowDecision::Tolerate, SlowDecision::Tolerate}, true);
  REQUIRE(cut.faults.size() == 4);
  CHECK(cut.faults[2].slow == Fault::Slow::Rebalanced);
  CHECK(cut.faults[2].start == from_seconds(100));
  const FaultList paced =
      strategy_faults(base, {SlowDecision::Tolerate, SlowDecision::Tolerate}, false);
  REQUIRE(paced.faults.size() == 3);
  CHECK(paced.faults[0].end == from_seconds(1000));
  CHECK(paced.faults[0].slow == Fault::Slow::Undetected);
}

TEST_CASE("fail-slow: the generator draws slowdowns in range and leaves stop classes alone") {
  const Scenario sc = scenario_from(small_scenario());
  const RunPlan plan = make_plan(sc);
  FailureSpec stop;
  stop.classes = failure_preset("llama3");
  FailureSpec slow;
  slow.classes = failure_preset("llama3-slow");
  const Time horizon = from_hours(50000);
  const FaultList a = generate_faults(stop, *plan.topology, horizon, 600, 7, 0);
  const FaultList b = generate_faults(slow, *plan.topology, horizon, 600, 7, 0);
  std::size_t slow_faults = 0, stop_in_b = 0;
  for (const Fault& f : b.faults) {
    if (!f.is_slow()) {
      ++stop_in_b;
      continue;
    }
    ++slow_faults;
    const auto& c = slow.classes[f.fault_class];
    CHECK(b.classes[f.fault_class].slow);
    CHECK(f.slowdown >= static_cast<float>(c.slowdown) - 1e-6f);
    CHECK(f.slowdown <= static_cast<float>(c.slowdown_max) + 1e-6f);
  }
  CHECK(slow_faults > 0);
  CHECK(stop_in_b == a.faults.size());  // the stop classes' streams are their own
  CHECK(has_slow_faults(b));
  CHECK(!has_slow_faults(a));
}
