// Nonuniform TP: closed forms under the proportional model, packing, boost, the reshard
// geometry of the reference notes, uneven shards, and the snapshot hypergeometric check.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "models/cost/cost_model.hpp"
#include "models/strategies/ntp_config.hpp"
#include "models/strategies/strategy.hpp"
#include "models/strategies/tp_degrees.hpp"
#include "models/strategies/tp_rule_read.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/snapshot.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// The closed forms below are the NTP paper's idealised fractional local batch (a degraded
// replica trains exactly t/tp of its samples); whole samples: test_physical.cpp.
Json nvl32(int pp, int dp) {
  Json j = Json::parse(R"({
    "mode": "snapshot", "seeds": 1,
    "cluster": {"preset": "nvl32"},
    "job": {"tp": 32, "pp": 1, "dp": 4},
    "failures": {"preset": "none"},
    "cost": {"model": "proportional", "local_batch": "fractional"},
    "strategies": {"dp_drop": {}, "ntp": {"min_tp": 24}, "ntp_boost": {"min_tp": 24}, "checkpoint_restart": {}}
  })");
  j["job"]["pp"] = pp;
  j["job"]["dp"] = dp;
  return j;
}

struct Fixture {
  RunPlan plan;
  ClusterHealth health;
  explicit Fixture(const Json& j) : plan(make_plan(scenario_from(j))), health(*plan.topology) {}
  void fail_gpus(std::uint32_t domain, int count) {
    for (int i = 0; i < count; ++i)
      health.fail(
          plan.topology->id(ComponentKind::Gpu, domain * 32 + static_cast<std::uint32_t>(i)),
          nullptr);
  }
  Phase phase(const std::string& strategy) {
    SnapshotInput in;
    in.scenario = &plan.scenario;
    in.health = &health;
    in.cost = plan.cost.get();
    in.params = plan.scenario.strategy(strategy)->params;
    return find_strategy(strategy)->snapshot(in);
  }
};

}  // namespace

TEST_CASE("proportional model, pp 1: NTP loses exactly the failed-GPU share") {
  Fixture f(nvl32(1, 4));
  f.fail_gpus(0, 1);
  f.fail_gpus(2, 3);
  CHECK(f.phase("ntp").rate == doctest::Approx(1 - 4.0 / 128).epsilon(1e-12));
  CHECK(f.phase("dp_drop").rate == doctest::Approx(0.5));  // two damaged domains, two replicas
  CHECK(f.phase("checkpoint_restart").rate == 0);          // no spare: the whole job waits
  // Boost: 32/29 = 1.103x speed is within the default curve at 1.3x power: no loss at all.
  CHECK(f.phase("ntp_boost").rate == doctest::Approx(1.0));
}

TEST_CASE("packing: damaged domains share replicas, a replica runs at its slowest stage") {
  Fixture f(nvl32(2, 4));  // 8 domains, 2 per replica
  f.fail_gpus(1, 1);
  f.fail_gpus(6, 2);
  // dp_drop with packing loses ceil(2 damaged / 2 per replica) = 1 replica.
  CHECK(f.phase("dp_drop").rate == doctest::Approx(3.0 / 4));
  // ntp packs both partial groups (TP31, TP30) into one replica, paced by TP30.
  CHECK(f.phase("ntp").rate == doctest::Approx((3 + 30.0 / 32) / 4).epsilon(1e-12));
  f.fail_gpus(3, 1);  // a third damaged domain: ceil(3 / 2) = 2 replicas lost for dp_drop
  CHECK(f.phase("dp_drop").rate == doctest::Approx(2.0 / 4));
  CHECK(f.phase("ntp").rate == doctest::Approx((2 + 31.0 / 32 + 30.0 / 32) / 4).epsilon(1e-12));
  // Without packing each partial group degrades a replica of its own.
  Json j = nvl32(2, 4);
  j["strategies"]["ntp"]["packing"] = false;
  Fixture g(j);
  g.fail_gpus(1, 1);
  g.fail_gpus(6, 2);
  CHECK(g.phase("ntp").rate == doctest::Approx((2 + 31.0 / 32 + 30.0 / 32) / 4).epsilon(1e-12));
}

TEST_CASE("below min_tp the replica is dropped") {
  Fixture f(nvl32(1, 4));
  f.fail_gpus(0, 9);  // 23 survivors < min_tp 24
  CHECK(f.phase("ntp").rate == doctest::Approx(3.0 / 4));
}

TEST_CASE("boost: the least power that meets the healthy step, monotone in failed GPUs") {
  const RunPlan plan = make_plan(scenario_from(nvl32(1, 4)));
  const CostModel& cost = *plan.cost;
  double last = 1.0;
  for (int t = 32; t >= 24; --t) {
    const double p = cost.boost_power(t, 1.3);
    CHECK(p >= last);  // fewer survivors never need less power
    last = p;
    if (p < 1.3) {
      CHECK(cost.replica_throughput(t, p) >= 1.0);
      if (p > 1.0) CHECK(cost.replica_throughput(t, p - 1e-6) < 1.0);
    }
  }
  // Proportional: speed(p) = 32 / t exactly at the chosen power.
  CHECK(cost.power_curve().speed(cost.boost_power(30, 1.3)) ==
        doctest::Approx(32.0 / 30).epsilon(1e-6));
  // 24 of 32 needs 1.33x speed, more than 1.3x power gives: the batch is cut at the cap.
  CHECK(cost.boost_power(24, 1.3) == 1.3);
  CHECK(cost.replica_throughput(24, 1.3) < 1.0);
}

TEST_CASE("the reshard geometry of the reference notes: hidden 12,000, TP32 vs TP30") {
  const ReshardGeometry g = reshard_geometry(12000, 32, 30);
  CHECK(g.shard_n1 == 375);
  CHECK(g.shard_n2 == 400);
  CHECK(g.moved_per_core == 25);            // each of the 30 core ranks keeps 375 and takes 25
  CHECK(g.moved_per_core * 30 == 2 * 375);  // all of the 2 extra shards, nothing else
}

TEST_CASE("uneven shards: the busiest GPU, ceil(heads / t), sets the pace") {
  calib::ModelShape shape;
  shape.hidden = 20480;
  shape.heads = 128;
  shape.kv_heads = 128;
  shape.ffn = 81920;
  shape.seq_len = 4096;
  const calib::Profile p = calib::analytical_profile("B200", shape, 32, 24);
  CHECK(calib::heads_local(shape, 30) == 5);  // not 128 / 30 = 4.27
  CHECK(calib::heads_local(shape, 26) == 5);
  const double a30 = calib::attention_time_s(p, calib::heads_local(shape, 30), 4096, 160, 1);
  const double a26 = calib::attention_time_s(p, calib::heads_local(shape, 26), 4096, 160, 1);
  const double a32 = calib::attention_time_s(p, calib::heads_local(shape, 32), 4096, 160, 1);
  CHECK(a30 == doctest::Approx(a26));
  CHECK(a30 > a32 * 32.0 / 30);  // worse than an even split would be
  // The iteration model: a replica with every stage at TP30 keeps fewer micro-batches than
  // proportional 30/32 would; one with a single TP30 stage keeps more (fractional local batch:
  // whole micro-batches of 64 can round both to the same count).
  Json j = nvl32(8, 4);
  j["cost"] = {{"model", "iteration"}, {"local_batch", "fractional"}};
  j["job"]["microbatches"] = 64;
  j["job"]["model"] = {
      {"hidden", 20480}, {"heads", 128}, {"ffn", 81920}, {"layers", 96}, {"seq_len", 4096}};
  const RunPlan plan = make_plan(scenario_from(j));
  CHECK(plan.cost->replica_throughput(32, 1.0) == 1.0);
  const std::vector<int> all30(8, 30);
  const std::vector<double> ones(8, 1.0);
  CHECK(plan.cost->replica_throughput(all30, ones) < 30.0 / 32);
  CHECK(plan.cost->replica_throughput(30, 1.0) > plan.cost->replica_throughput(all30, ones));
  CHECK(plan.cost->replica_throughput(30, 1.0) > 0.5);
  CHECK(plan.cost->reshard_overhead(30) > 0);
}

TEST_CASE("snapshot: healthy TP-group share matches the hypergeometric probability") {
  Json j = nvl32(2, 16);                    // 1,024 GPUs, all in the job
  j["failures"]["failed_fraction"] = 0.01;  // 10 GPUs
  j["seeds"] = 400;
  const RunPlan plan = make_plan(scenario_from(j));
  const double n = 1024, t = 32;
  double expected = 1;  // C(n - t, k) / C(n, k)
  for (int i = 0; i < 10; ++i) expected *= (n - t - i) / (n - i);
  const auto runs = run_monte_carlo(plan, 2);
  double sum = 0, sumsq = 0;
  for (const auto& m : runs[0].runs) {
    CHECK(m.failures == 10);
    sum += m.healthy_tp_groups_fraction;
    sumsq += m.healthy_tp_groups_fraction * m.healthy_tp_groups_fraction;
  }
  const double mean = sum / 400, sd = std::sqrt(sumsq / 400 - mean * mean);
  CHECK(std::abs(mean - expected) < 4 * sd / std::sqrt(400.0));
  // And every strategy's throughput sits in [0, 1], NTP at least dp_drop's.
  for (std::size_t r = 0; r < runs[0].runs.size(); ++r) {
    for (const auto& s : runs) {
      CHECK(s.runs[r].goodput >= 0);
      CHECK(s.runs[r].goodput <= 1);
    }
    CHECK(runs[1].runs[r].goodput >= runs[0].runs[r].goodput - 1e-12);
  }
}

TEST_CASE("a calibration profile for another model is refused unless interpolation is asked for") {
  Json j = nvl32(8, 4);
  j["job"]["model"] = {
      {"hidden", 8192}, {"heads", 64}, {"ffn", 28672}, {"layers", 80}, {"seq_len", 4096}};
  j["cost"] = {{"model", "iteration"},
               {"profile", GOODPUT_SOURCE_DIR "/calibrate/profiles/b200-analytical.json"}};
  try {
    make_plan(scenario_from(j));
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/cost/profile");
  }
  j["cost"]["interpolate"] = true;
  const RunPlan plan = make_plan(scenario_from(j));
  CHECK(plan.cost_info.profile_hash.size() == 16);
  CHECK(plan.cost_info.profile_source == "analytical");
  CHECK(plan.cost->replica_throughput(30, 1.0) < 1.0);
}

TEST_CASE("one TP-degree rule: the calibration harness measures the degrees the simulator needs") {
  // Shipped scenarios, read by both sides from the same file.
  for (const char* f : {"default.json", "ntp-paper-nvl32.json", "llama3-16k-h100.json"}) {
    CAPTURE(f);
    const std::string path = std::string(GOODPUT_SOURCE_DIR) + "/scenarios/" + f;
    CHECK(needed_tp_degrees(load_scenario(path)) == calib::read_scenario(path).tp_degrees);
  }
  // Defaults (tp - tp/4), an explicit min_tp, allowed_tp lists, and no degrading strategy.
  const std::string path = std::filesystem::temp_directory_path() / "goodput-tp-degrees-test.json";
  for (const char* strategies :
       {R"({"ntp": {}})", R"({"ntp_boost": {"min_tp": 30}, "dp_drop": {}})",
        R"({"ntp": {"min_tp": 20, "allowed_tp": [16, 24, 28]}, "ntp_boost": {"min_tp": 31}})",
        R"({"dp_drop": {}, "checkpoint_restart": {}})"}) {
    CAPTURE(strategies);
    Json j = nvl32(1, 4);
    j["job"]["model"] = {
        {"hidden", 8192}, {"heads", 64}, {"ffn", 28672}, {"layers", 80}, {"seq_len", 4096}};
    j["strategies"] = Json::parse(strategies);
    std::ofstream(path) << j.dump();
    const std::vector<int> sim = needed_tp_degrees(load_scenario(path));
    CHECK(sim == calib::read_scenario(path).tp_degrees);
    CHECK(sim.back() == 32);
  }
  std::filesystem::remove(path);
  CHECK(default_min_tp(32) == 24);
}

// The harness learns which strategies degrade TP, and reads their keys, through
// tp_rule_read.hpp: its list is exactly the strategy table's entries with a TP-degree rule, and
// a bad degree is refused by both sides at the same key.
TEST_CASE("TP-degrading strategies: one list, one reader, for the simulator and the harness") {
  std::vector<std::string> with_rule, listed;
  for (const StrategyInfo& info : strategy_table())
    if (info.tp_degrees) with_rule.push_back(info.name);
  for (std::string_view name : kTpDegradingStrategies) listed.emplace_back(name);
  CHECK(with_rule == listed);
  const std::string path = std::filesystem::temp_directory_path() / "goodput-tp-rule-test.json";
  struct Bad {
    const char* strategies;
    const char* at;  // where the harness points
  };
  for (const Bad& bad :
       {Bad{R"({"ntp": {"min_tp": 33}})", "/strategies/ntp/min_tp"},
        Bad{R"({"ntp_boost": {"allowed_tp": [24, 30.5]}})", "/strategies/ntp_boost/allowed_tp/1"},
        Bad{R"({"ntp": {"allowed_tp": [40]}})", "/strategies/ntp/allowed_tp/0"}}) {
    CAPTURE(bad.strategies);
    Json j = nvl32(1, 4);
    j["job"]["model"] = {
        {"hidden", 8192}, {"heads", 64}, {"ffn", 28672}, {"layers", 80}, {"seq_len", 4096}};
    j["strategies"] = Json::parse(bad.strategies);
    std::ofstream(path) << j.dump();
    std::string sim_at = "(accepted)", calib_at = "(accepted)";
    try {
      needed_tp_degrees(load_scenario(path));
    } catch (const InputError& e) {
      sim_at = e.locator();
    }
    try {
      calib::read_scenario(path);
    } catch (const InputError& e) {
      calib_at = e.locator();
    }
    CHECK(calib_at == bad.at);
    CHECK(sim_at == bad.at);
  }
  std::filesystem::remove(path);
}

TEST_CASE(
    "a profile that lacks a reachable TP degree is refused, naming it, unless interpolating") {
  calib::ModelShape shape;
  shape.name = "m";
  shape.hidden = 8192;
  shape.heads = 64;
  shape.kv_heads = 64;
  shape.ffn = 28672;
  shape.seq_len = 4096;
  const std::string profile = std::filesystem::temp_directory_path() / "goodput-tp26-profile.json";
  calib::save_profile(calib::analytical_profile("B200", shape, 32, 26), profile);  // TP32 .. TP26
  Json j = nvl32(1, 4);
  j["job"]["model"] = {
      {"hidden", 8192}, {"heads", 64}, {"ffn", 28672}, {"layers", 80}, {"seq_len", 4096}};
  j["cost"] = {{"model", "iteration"}, {"profile", profile}};  // the strategies reach TP24
  try {
    make_plan(scenario_from(j));
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/cost/profile");
    CHECK(std::string(e.what()).find("TP degrees 24, 25 ") != std::string::npos);
  }
  j["cost"]["interpolate"] = true;
  const RunPlan interpolated = make_plan(scenario_from(j));
  CHECK(interpolated.cost_info.interpolated_tp == std::vector<int>{24, 25});
  // Narrow the strategies to what the profile covers: accepted, nothing interpolated.
  j["cost"]["interpolate"] = false;
  j["strategies"]["ntp"]["min_tp"] = 26;
  j["strategies"]["ntp_boost"]["min_tp"] = 27;
  const RunPlan covered = make_plan(scenario_from(j));
  CHECK(covered.cost_info.interpolated_tp.empty());
  std::filesystem::remove(profile);
}
