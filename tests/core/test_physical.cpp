// Physical limits (issue 27): a degraded replica's local batch in whole samples, boost within
// the GPU's rated board power and a domain power budget, the fixed global batch counted in
// whole samples, and the retired /cost/partial_microbatch key.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "models/cost/cost_model.hpp"
#include "models/strategies/ntp_config.hpp"
#include "models/strategies/ntp_strategy.hpp"
#include "sim/core/error.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/snapshot.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Scenario shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_scenario(std::string(GOODPUT_SOURCE_DIR) + "/scenarios/" + name, overrides);
}

// NVL32 domains of B200, TP32 x PP`pp` x DP`dp`, the proportional cost model.
Json nvl32(int pp, int dp) {
  Json j = Json::parse(R"({
    "mode": "snapshot", "seeds": 1,
    "cluster": {"preset": "nvl32"},
    "job": {"tp": 32, "pp": 1, "dp": 4, "microbatches": 8, "micro_batch": 1},
    "failures": {"preset": "none"},
    "cost": {"model": "proportional"},
    "strategies": {"ntp": {"min_tp": 24}, "ntp_boost": {"min_tp": 24}}
  })");
  j["job"]["pp"] = pp;
  j["job"]["dp"] = dp;
  return j;
}

struct Health {
  RunPlan plan;
  ClusterHealth health;
  explicit Health(const Json& j) : plan(make_plan(scenario_from(j))), health(*plan.topology) {}
  void fail_gpus(std::uint32_t domain, int count) {
    const auto per = static_cast<std::uint32_t>(plan.scenario.cluster.gpus_per_domain());
    for (int i = 0; i < count; ++i)
      health.fail(
          plan.topology->id(ComponentKind::Gpu, domain * per + static_cast<std::uint32_t>(i)),
          nullptr);
  }
  NtpConfig config(const std::string& strategy) const {
    const Scenario& s = plan.scenario;
    const auto o = read_ntp_options(s, s.strategy(strategy)->params, strategy == "ntp_boost");
    return ntp_config(health, s.job.tp, s.job.pp, s.job.dp, o.layout, *plan.cost);
  }
};

// A GPU down in each of the first eight NVL32 domains of `s`: one replica of eight TP31
// stages; the layout `strategy` (ntp or ntp_boost) gives.
NtpConfig eight_tp31_stages(const Scenario& s, const std::string& strategy) {
  const RunPlan plan = make_plan(s);
  ClusterHealth health(*plan.topology);
  for (std::uint32_t d = 0; d < 8; ++d)
    health.fail(plan.topology->id(ComponentKind::Gpu, d * 32), nullptr);
  const auto o = read_ntp_options(s, s.strategy(strategy)->params, strategy == "ntp_boost");
  return ntp_config(health, s.job.tp, s.job.pp, s.job.dp, o.layout, *plan.cost);
}

}  // namespace

TEST_CASE("whole samples: a TP31 stage of 8 one-sequence micro-batches keeps exactly 7/8") {
  const Json j = nvl32(1, 4);
  auto cost = cost_model_of(scenario_from(j));
  // 31/32 of the pace is 7.75 sequences of 8: the replica trains 7.
  CHECK(cost->replica_throughput(31, 1.0) == 7.0 / 8);
  CHECK(cost->replica_throughput(28, 1.0) == 7.0 / 8);  // 7 sequences exactly
  CHECK(cost->replica_throughput(27, 1.0) == 6.0 / 8);
  // Four sequences per micro-batch: the granularity is 1/32 of the replica's batch.
  Json four = j;
  four["job"]["micro_batch"] = 4;
  cost = cost_model_of(scenario_from(four));
  CHECK(cost->replica_throughput(31, 1.0) == 31.0 / 32);
  CHECK(cost->replica_throughput(25, 1.0) == 25.0 / 32);
  // The idealised switch keeps the fraction; whole micro-batches round to eighths.
  Json frac = j;
  frac["cost"]["local_batch"] = "fractional";
  CHECK(cost_model_of(scenario_from(frac))->replica_throughput(31, 1.0) ==
        doctest::Approx(31.0 / 32).epsilon(1e-15));
  Json whole_mb = four;
  whole_mb["cost"]["local_batch"] = "whole_microbatches";
  CHECK(cost_model_of(scenario_from(whole_mb))->replica_throughput(31, 1.0) == 7.0 / 8);
  // The job: 3 healthy replicas and one at 7/8.
  Health h(j);
  h.fail_gpus(0, 1);
  CHECK(h.config("ntp").throughput == (3 + 7.0 / 8) / 4);
}

TEST_CASE(
    "whole samples under the iteration model: multiples of 1 / (microbatches x micro_batch)") {
  for (int mb : {1, 4}) {
    // The shipped profile was measured for one sequence per micro-batch: its fit answers for 4.
    const std::vector<std::string> set = {"/job/micro_batch=" + std::to_string(mb),
                                          "/cost/interpolate=true"};
    const Scenario s = shipped("ntp-paper-nvl32.json", set);
    const auto whole = cost_model_of(s);
    auto frac_set = set;
    frac_set.push_back("/cost/local_batch=fractional");
    const auto frac = cost_model_of(shipped("ntp-paper-nvl32.json", frac_set));
    const double grain = static_cast<double>(s.job.microbatches) * mb;
    for (int t = 31; t >= 24; --t) {
      const double r = whole->replica_throughput(t, 1.0);
      CHECK(r * grain == std::round(r * grain));
      CHECK(r <= frac->replica_throughput(t, 1.0));
      CHECK(r > frac->replica_throughput(t, 1.0) - 1 / grain);  // the largest whole count
    }
  }
}

TEST_CASE("the retired /cost/partial_microbatch names its replacement") {
  Json j = nvl32(1, 4);
  j["cost"]["partial_microbatch"] = true;
  try {
    scenario_from(j);
    FAIL("loaded a scenario with partial_microbatch");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("test.json") != std::string::npos);
    CHECK(what.find("/cost/partial_microbatch") != std::string::npos);
    CHECK(what.find("local_batch") != std::string::npos);
    CHECK(what.find("\"fractional\"") != std::string::npos);
  }
}

TEST_CASE("GPU power ratings: declared per type with a source, resolved into the scenario") {
  for (const calib::GpuSpec& g : calib::gpu_catalogue()) {
    CHECK(g.max_power_w >= g.nominal_power_w);
    CHECK(g.power_source.size() > 20);
  }
  const Scenario s = scenario_from(nvl32(1, 4));  // nvl32: B200
  CHECK(s.gpu_nominal_power_w == 1000);
  CHECK(s.gpu_max_power_w == 1200);
  CHECK(s.resolved["cluster"]["gpu_max_power_w"] == 1200);
  Json below = nvl32(1, 4);
  below["cluster"]["gpu_max_power_w"] = 900;
  CHECK_THROWS_AS(scenario_from(below), InputError);
}

TEST_CASE("boost never exceeds the GPU's rated board power (random degraded layouts)") {
  // Board power 1.1x the nominal: below what TP28 and lower need, so caps bind often.
  for (const char* extension : {"linear", "flat"}) {
    Json j = nvl32(4, 8);
    j["cluster"]["gpu_max_power_w"] = 1100;
    j["cost"]["curve_extension"] = extension;
    Health h(j);
    const double board = 1.1;
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 60; ++trial) {
      h.health.reset();
      const int damaged = 1 + static_cast<int>(rng() % 12);
      for (int k = 0; k < damaged; ++k)
        h.fail_gpus(static_cast<std::uint32_t>(rng() % 32), 1 + static_cast<int>(rng() % 8));
      const NtpConfig c = h.config("ntp_boost");
      CHECK(c.max_power <= board + 1e-12);
      // The extra power is within every boosted group's headroom at the board cap.
      CHECK(c.extra_power_gpus <= (board - 1) * 32 * c.boosted_domains + 1e-9);
      // Without boost never more; with it never less.
      CHECK(c.throughput >= h.config("ntp").throughput - 1e-12);
    }
  }
}

TEST_CASE("a per-domain power budget caps the boosted group's power (closed form)") {
  Json j = nvl32(1, 4);
  j["cluster"]["domain_power_budget_kw"] = 32.0;  // the domain's nominal draw: 32 x 1000 W
  Health h(j);
  h.fail_gpus(0, 1);
  // The failed GPU's 1000 W is free: the 31 survivors may draw 32/31 each, speed 1 + 0.692 x
  // (1/31) < 32/31: the replica still falls to 7/8, capped. 31/32 at nominal power keeps 7/8
  // too (whole samples), so the boost would buy nothing: none is drawn.
  NtpConfig c = h.config("ntp_boost");
  CHECK(c.throughput == (3 + 7.0 / 8) / 4);
  CHECK(c.capped_domains == 1);
  CHECK(c.extra_power_gpus == 0);
  CHECK(c.boosted_domains == 0);
  CHECK(c.max_power == 1);
  // 10% more budget: the least power that keeps pace, 1 + (1/31) / 0.692, fits.
  j["cluster"]["domain_power_budget_kw"] = 35.2;
  Health more(j);
  more.fail_gpus(0, 1);
  c = more.config("ntp_boost");
  CHECK(c.throughput == 1.0);
  CHECK(c.capped_domains == 0);
  CHECK(c.max_power == doctest::Approx(1 + (1.0 / 31) / 0.692).epsilon(1e-7));
  CHECK(31 * c.max_power <= 35.2 + 1e-9);
}

TEST_CASE("a capped stage draws the least power that keeps what its cap keeps (closed form)") {
  // Board power 1.1x. TP27 keeps 27/32 x speed(p) of its 8 samples: 6 at nominal power, 7 at
  // the cap (27/32 x 1.0692 = 0.902), never 8. It runs at the least power that keeps 7:
  // speed(p) = 7/8 x 32/27.
  Json j = nvl32(1, 4);
  j["cluster"]["gpu_max_power_w"] = 1100;
  Health h(j);
  h.fail_gpus(0, 5);
  const NtpConfig c = h.config("ntp_boost");
  const PowerCurve& curve = h.plan.cost->power_curve();
  const double least = curve.power_for_speed(7.0 / 8 * 32 / 27);
  CHECK(least > 1.0);
  CHECK(least < 1.1);
  CHECK(c.throughput == (3 + 7.0 / 8) / 4);
  CHECK(c.capped_domains == 1);
  CHECK(c.boosted_domains == 1);
  CHECK(c.max_power == doctest::Approx(least).epsilon(1e-8));
  CHECK(c.extra_power_gpus == doctest::Approx(27 * (least - 1)).epsilon(1e-7));
  // Plain ntp keeps 6 of 8.
  CHECK(h.config("ntp").throughput == (3 + 6.0 / 8) / 4);
}

TEST_CASE("a stage with slack beside a capped one is not boosted (closed form)") {
  // One replica of a TP27 and a TP31 stage (PP2): TP27 sets the pace, 7 of 8 samples at the
  // least power above (the cap, 1.1x, cannot keep 8); TP31 keeps 7/8 at nominal power
  // (31/32 > 7/8), so it draws nothing extra. Raising both to the cap would draw 5.8 GPU-TDP.
  Json j = nvl32(2, 4);
  j["cluster"]["gpu_max_power_w"] = 1100;
  Health h(j);
  h.fail_gpus(0, 5);
  h.fail_gpus(1, 1);
  const NtpConfig c = h.config("ntp_boost");
  const double least = h.plan.cost->power_curve().power_for_speed(7.0 / 8 * 32 / 27);
  CHECK(c.degraded_replicas == 1);
  CHECK(c.throughput == (3 + 7.0 / 8) / 4);
  CHECK(c.capped_domains == 1);  // TP27's domain: TP31 alone would keep the batch
  CHECK(c.boosted_domains == 1);
  CHECK(c.max_power == doctest::Approx(least).epsilon(1e-8));
  CHECK(c.extra_power_gpus == doctest::Approx(27 * (least - 1)).epsilon(1e-7));
}

TEST_CASE("flat curve extension: no boost beyond the last measured point") {
  Json j = nvl32(1, 4);
  j["cluster"]["gpu_max_power_w"] = 1300;
  j["cost"]["curve_extension"] = "flat";
  Health h(j);
  h.fail_gpus(0, 4);  // TP28 needs speed 32/28 = 1.143 > 1.122 at 1.2x
  const NtpConfig c = h.config("ntp_boost");
  CHECK(c.capped_domains == 1);
  CHECK(c.throughput == (3 + 7.0 / 8) / 4);
  // 7 of 8 samples is what TP28 keeps at nominal power too (28/32): nothing drawn for nothing.
  CHECK(c.max_power == 1);
  CHECK(c.extra_power_gpus == 0);
  // Whatever the damage, no stage goes past 1.2x although the board allows 1.3x.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    h.health.reset();
    h.fail_gpus(static_cast<std::uint32_t>(rng() % 4), 1 + static_cast<int>(rng() % 8));
    CHECK(h.config("ntp_boost").max_power <= 1.2 + 1e-12);
  }
  // The linear extension (1.3x allowed) reaches the speed: the full batch, at a power past
  // the last measured point.
  j["cost"]["curve_extension"] = "linear";
  Health linear(j);
  linear.fail_gpus(0, 4);
  const NtpConfig l = linear.config("ntp_boost");
  CHECK(l.throughput == 1.0);
  CHECK(l.capped_domains == 0);
  CHECK(l.max_power > 1.2);
  CHECK(l.max_power <= 1.3);
}

TEST_CASE("fixed batch: several boosted stages of one replica keep the whole batch") {
  // Eight damaged domains packed into one replica of eight TP31 stages (iteration model): the
  // stages' powers rise together until the replica keeps its full batch, so the fixed-batch job
  // runs instead of pausing a few millionths short.
  const Scenario s = shipped("ntp-paper-nvl32.json", {"/job/batch=fixed", "/mode=snapshot"});
  const NtpConfig c = eight_tp31_stages(s, "ntp_boost");
  CHECK(c.degraded_replicas == 1);
  CHECK(c.boosted_domains == 8);
  CHECK(c.throughput == 1.0);
  CHECK(keeps_global_batch(c.throughput, s.job));
  CHECK(c.max_power <= 1.2 + 1e-12);  // B200: 1200 W of 1000 W
  // Plain ntp is short by whole samples: it pauses.
  CHECK_FALSE(keeps_global_batch(eight_tp31_stages(s, "ntp").throughput, s.job));
}

TEST_CASE("stages short only together at their caps are all capped (iteration model)") {
  // Eight TP31 stages of one replica, each of which would keep pace alone just under its cap:
  // together (each stage's slack no longer hides another's) they fall short even at the cap.
  // No stage falls short alone, so every one of the eight counts as capped; each still draws
  // only the least power that keeps what the replica keeps, never more than the cap.
  const Scenario probe = shipped("ntp-paper-nvl32.json", {"/mode=snapshot"});
  const RunPlan probe_plan = make_plan(probe);
  const double alone = probe_plan.cost->boost_power(31, 1.2);
  REQUIRE(alone > 1.0);
  REQUIRE(alone < 1.19);
  const double cap = alone + 1e-3;
  const Scenario s =
      shipped("ntp-paper-nvl32.json",
              {"/mode=snapshot", "/strategies/ntp_boost/max_power=" + std::to_string(cap)});
  const NtpConfig c = eight_tp31_stages(s, "ntp_boost");
  REQUIRE(c.degraded_replicas == 1);
  REQUIRE(probe_plan.cost->replica_throughput(31, cap) >= 1.0);  // alone it keeps pace at the cap
  CHECK(c.throughput < 1.0);                                     // together the replica falls short
  CHECK(c.capped_domains == 8);
  CHECK(c.max_power <= cap + 1e-12);
  CHECK(c.extra_power_gpus <= 8 * 31 * (cap - 1) + 1e-9);
}

TEST_CASE("keeps_global_batch counts whole samples") {
  JobSpec j;
  j.dp = 4;
  j.microbatches = 8;
  j.micro_batch = 1;  // 32 samples per step
  CHECK(keeps_global_batch(1.0, j));
  CHECK(keeps_global_batch(1 - 0.5 / 32, j));  // half a sample short: none
  CHECK_FALSE(keeps_global_batch(1 - 1.0 / 32, j));
}

TEST_CASE("fixed batch: waiting for hardware is not recovery, even while a replica rejoins") {
  // Three replicas, no spare, free state copy: node 0 fails at 10 h (back at 20 h), node 1 at
  // 12 h (back at 30 h). When node 0's replica rejoins at 20 h the job still lacks node 1's:
  // that wait is for capacity. Only the last rejoin's swap-in (180 s, the batch complete once it
  // lands) and the stalls (detection 100 + rebuild 60, twice; the rejoin's rebuild 60) are
  // recovery.
  Json j = small_scenario(3, 3);
  j["checkpoint"]["interval"] = "none";
  j["job"]["batch"] = "fixed";
  j["recovery"]["state_copy_s"] = 0;
  const RunPlan plan = make_plan(scenario_from(j));
  FaultList f;
  f.classes.push_back({"test", false});
  f.faults.push_back({from_hours(10), from_hours(20), *plan.topology->resolve("node/0"), 0});
  f.faults.push_back({from_hours(12), from_hours(30), *plan.topology->resolve("node/1"), 0});
  const RunMetrics m = simulate(plan, f, config_for(plan.scenario, "dp_drop"));
  constexpr double H = 100 * 3600.0;
  const double recovery_s = 2 * (100 + 60) + 180 + 60;
  CHECK(m.badput[static_cast<int>(Bucket::InfrastructureRecovery)] * H ==
        doctest::Approx(recovery_s).epsilon(1e-9));
  // Paused from 10 h until the last rejoin's rebuild ends; the rest of it waiting for capacity.
  CHECK(m.badput[static_cast<int>(Bucket::WaitingForCapacity)] * H ==
        doctest::Approx(20 * 3600.0 + 180 + 60 - recovery_s).epsilon(1e-9));
}

TEST_CASE("fixed batch: ntp_boost with enough power never pauses, ntp does") {
  // GPU faults only (2 h repairs), at most a few per domain at once: every degraded domain stays
  // at TP >= 24, which 2.0x power keeps at the full batch (linear curve: speed 1.54 > 32/24).
  Json j = Json::parse(R"({
    "horizon_hours": 200, "seeds": 1,
    "cluster": {"preset": "nvl32", "gpu_max_power_w": 2000},
    "job": {"tp": 32, "pp": 2, "dp": 4, "step_s": 10, "batch": "fixed"},
    "failures": {"classes": [{"name": "gpu", "scope": "gpu", "mtbf_hours": 500,
                              "repair": {"kind": "fixed", "hours": 2}}]},
    "cost": {"model": "proportional"},
    "checkpoint": {"interval": "none"},
    "strategies": {"ntp": {"min_tp": 24}, "ntp_boost": {"min_tp": 24, "max_power": 2.0}}
  })");
  for (int seed = 0; seed < 3; ++seed) {
    j["seed"] = seed;
    const RunPlan plan = make_plan(scenario_from(j));
    const FaultList faults = faults_for(plan, 0);
    REQUIRE(faults.faults.size() > 40);
    const RunMetrics boost = simulate(plan, faults, config_for(plan.scenario, "ntp_boost"));
    const RunMetrics ntp = simulate(plan, faults, config_for(plan.scenario, "ntp"));
    CHECK(boost.badput[static_cast<int>(Bucket::WaitingForCapacity)] == 0);
    CHECK(boost.capped_domain_hours == 0);
    CHECK(boost.boosted_domain_hours > 0);
    CHECK(ntp.badput[static_cast<int>(Bucket::WaitingForCapacity)] > 0);
    CHECK(boost.goodput > ntp.goodput);
  }
  // At the B200's own 1.2x board limit TP28 and below fall short: capped time is reported.
  j["cluster"].erase("gpu_max_power_w");
  j["failures"]["classes"][0]["scope"] = "node";  // a tray of 4 GPUs: TP28
  j["failures"]["classes"][0]["mtbf_hours"] = 100;
  const RunPlan plan = make_plan(scenario_from(j));
  const RunMetrics capped =
      simulate(plan, faults_for(plan, 0), config_for(plan.scenario, "ntp_boost"));
  CHECK(capped.capped_domain_hours > 0);
  CHECK(capped.badput[static_cast<int>(Bucket::WaitingForCapacity)] > 0);
}
