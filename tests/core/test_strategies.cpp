// Closed-form checks of the three baseline strategies on hand-written fault lists, and the
// invariants every strategy in the table must keep.
#include <doctest/doctest.h>

#include "models/job/checkpoint_policy.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

double bucket(const RunMetrics& m, Bucket b) {
  return m.badput[static_cast<int>(b)];
}
constexpr double H = 100 * 3600.0;  // the small scenario's horizon, s

RunMetrics run(const Json& j, const std::string& strategy, const FaultList& faults) {
  const RunPlan plan = make_plan(scenario_from(j));
  return simulate(plan, faults, config_for(plan.scenario, strategy));
}

RunMetrics run_one_fault(Json j, const std::string& strategy, double start_h, double end_h,
                         const std::string& component = "gpu/0", bool restart_only = false) {
  const RunPlan plan = make_plan(scenario_from(j));
  return simulate(plan, one_fault(*plan.topology, component, start_h, end_h, restart_only),
                  config_for(plan.scenario, strategy));
}

}  // namespace

TEST_CASE("zero failures: Goodput is 1 minus the checkpoint saves, for every strategy") {
  // Saves start every 3,660 s (3,600 s of training + 60 s save), the first at 3,600 s.
  double saving = 0;
  for (double start = 3600; start < H; start += 3660) saving += std::min(60.0, H - start);
  for (const auto& info : strategy_table()) {
    CAPTURE(info.name);
    const RunMetrics m = run(small_scenario(), info.name, FaultList{});
    CHECK(m.goodput == doctest::Approx(1 - saving / H).epsilon(1e-12));
    CHECK(bucket(m, Bucket::CheckpointSave) == doctest::Approx(saving / H).epsilon(1e-12));
    CHECK(m.interruptions == 0);
    CHECK(bucket(m, Bucket::WastedProgress) == 0);
    CHECK(bucket(m, Bucket::InfrastructureRecovery) == 0);
  }
  Json none = small_scenario();
  none["checkpoint"]["interval"] = "none";
  CHECK(run(none, "checkpoint_restart", FaultList{}).goodput == 1.0);
}

TEST_CASE("checkpoint_restart: one fault rolls back to the last durable checkpoint") {
  // Fault at 36,000 s. Durable checkpoints end at k * 3,660 s; the last before the fault is the
  // 9th (32,940 s), a snapshot taken at 32,880 s after 8 saves: progress 32,880 - 480 = 32,400 s.
  // Progress at the fault: 36,000 - 9 * 60 = 35,460 s, so 3,060 s are rolled back.
  const RunMetrics m = run_one_fault(small_scenario(), "checkpoint_restart", 10.0, 20.0);
  CHECK(m.interruptions == 1);
  CHECK(bucket(m, Bucket::WastedProgress) * H == doctest::Approx(3060).epsilon(1e-9));
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H == doctest::Approx(100 + 200).epsilon(1e-9));
  CHECK(bucket(m, Bucket::CheckpointRestore) * H == doctest::Approx(300).epsilon(1e-9));
  CHECK(bucket(m, Bucket::WaitingForCapacity) == 0);  // the spare node takes over at once
}

TEST_CASE("checkpoint_restart without a spare waits for the repair") {
  Json j = small_scenario(3, 3);
  j["checkpoint"]["interval"] = "none";
  const RunMetrics m = run_one_fault(j, "checkpoint_restart", 10.0, 20.0);
  CHECK(bucket(m, Bucket::WastedProgress) * H ==
        doctest::Approx(36000).epsilon(1e-9));  // back to the start
  CHECK(bucket(m, Bucket::WaitingForCapacity) * H == doctest::Approx(36000 - 100).epsilon(1e-9));
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H == doctest::Approx(100 + 200).epsilon(1e-9));
  CHECK(bucket(m, Bucket::CheckpointRestore) * H == doctest::Approx(300).epsilon(1e-9));
  CHECK(m.goodput * H == doctest::Approx(H - 36000 - 35900 - 300 - 300).epsilon(1e-9));
}

TEST_CASE(
    "dp_drop: the damaged replica leaves, and rejoins through a swap-in, a state copy and a "
    "rebuild") {
  Json j = small_scenario(3, 3);  // no spare
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["state_copy_s"] = 40;  // spare swap-in: 180 s (default), communicator rebuild: 60 s
  const double t0 = 36003;             // 3 s into a 10 s step
  const RunMetrics m = run_one_fault(j, "dp_drop", t0 / 3600, 20.0);
  CHECK(m.interruptions == 1);  // the rejoin is planned: not an interruption, no step lost
  CHECK(bucket(m, Bucket::WastedProgress) * H == doctest::Approx(3).epsilon(1e-9));
  // Detection + rebuild when it leaves; a rebuild when it rejoins.
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 60 + 60).epsilon(1e-9));
  // Two of three replicas from the end of the stall until repair (72,000 s) + swap-in + state copy.
  CHECK(bucket(m, Bucket::DegradedCapacity) * H ==
        doctest::Approx((72000 + 180 + 40 - (t0 + 160)) / 3).epsilon(1e-9));
  CHECK(bucket(m, Bucket::WaitingForCapacity) == 0);
  auto paid = [&](const RunMetrics& r, Mechanism k) { return r.paid_count[static_cast<int>(k)]; };
  CHECK(paid(m, Mechanism::Detection) == 1);
  // The rejoin is priced as its own mechanism (/recovery/rejoin_s, default: the rebuild's 60 s).
  CHECK(paid(m, Mechanism::CommunicatorRebuild) == 1);
  CHECK(paid(m, Mechanism::Rejoin) == 1);
  CHECK(paid(m, Mechanism::SpareSwapIn) == 1);
  CHECK(paid(m, Mechanism::StateCopy) == 1);
  CHECK(paid(m, Mechanism::JobRestart) == 0);
  // The state copy ran in the background: no stall; the rebuilds stalled 2 x 60 s.
  CHECK(m.paid_stall_hours[static_cast<int>(Mechanism::StateCopy)] == 0);
  CHECK(m.paid_stall_hours[static_cast<int>(Mechanism::CommunicatorRebuild)] * 3600 ==
        doctest::Approx(60));
  CHECK(m.paid_stall_hours[static_cast<int>(Mechanism::Rejoin)] * 3600 == doctest::Approx(60));

  // With a spare node the replica is re-formed there once the fault is detected (100 s) and
  // rejoins after swap-in + state copy.
  Json s = small_scenario(3, 4);
  s["checkpoint"]["interval"] = "none";
  s["recovery"]["state_copy_s"] = 40;
  const RunMetrics ms = run_one_fault(s, "dp_drop", t0 / 3600, 20.0);
  CHECK(bucket(ms, Bucket::DegradedCapacity) * H ==
        doctest::Approx((100 + 180 + 40 - 160) / 3.0).epsilon(1e-9));
  CHECK(bucket(ms, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 60 + 60).epsilon(1e-9));
}

TEST_CASE("dp_drop batch policies") {
  Json j = small_scenario(3, 3);
  j["checkpoint"]["interval"] = "none";
  j["job"]["microbatches"] = 1;
  j["strategies"]["dp_drop"]["batch_policy"] = "accumulate";
  // accumulate with one micro-batch per replica: 2 replicas need 2 rounds -> half speed.
  const double degraded_s =
      72180 - 36160;  // until repair + spare swap-in (state copy: 0 s, no shape)
  RunMetrics m = run_one_fault(j, "dp_drop", 10.0, 20.0);
  CHECK(bucket(m, Bucket::DegradedCapacity) * H == doctest::Approx(degraded_s / 2).epsilon(1e-9));
  // pause_below 3: the job waits instead of running on two replicas.
  j["strategies"]["dp_drop"] = {{"batch_policy", "pause_below"}, {"min_replicas", 3}};
  m = run_one_fault(j, "dp_drop", 10.0, 20.0);
  CHECK(bucket(m, Bucket::DegradedCapacity) == 0);
  CHECK(bucket(m, Bucket::WaitingForCapacity) * H == doctest::Approx(degraded_s).epsilon(1e-9));
}

TEST_CASE("hot_spares' dp_drop fallback has its own batch settings, not dp_drop's") {
  // No spare (3 domains, dp 3): the fallback acts. As in "dp_drop batch policies": pause_below
  // 3 waits until repair + swap-in instead of running on two replicas.
  Json j = small_scenario(3, 3);
  j["checkpoint"]["interval"] = "none";
  j["strategies"]["hot_spares"] = {{"fallback", "dp_drop"},
                                   {"fallback_batch_policy", "pause_below"},
                                   {"fallback_min_replicas", 3}};
  const double degraded_s = 72180 - 36160;
  RunMetrics m = run_one_fault(j, "hot_spares", 10.0, 20.0);
  CHECK(bucket(m, Bucket::DegradedCapacity) == 0);
  CHECK(bucket(m, Bucket::WaitingForCapacity) * H == doctest::Approx(degraded_s).epsilon(1e-9));
  // dp_drop's own section does not change hot_spares' fallback.
  j["strategies"]["dp_drop"] = {{"batch_policy", "shrink"}};
  CHECK(run_one_fault(j, "hot_spares", 10.0, 20.0).goodput == m.goodput);
  // Its defaults shrink, whatever dp_drop's section says.
  j["strategies"]["hot_spares"] = {{"fallback", "dp_drop"}};
  j["strategies"]["dp_drop"] = {{"batch_policy", "pause_below"}, {"min_replicas", 3}};
  m = run_one_fault(j, "hot_spares", 10.0, 20.0);
  CHECK(bucket(m, Bucket::WaitingForCapacity) == 0);
  CHECK(bucket(m, Bucket::DegradedCapacity) * H == doctest::Approx(degraded_s / 3).epsilon(1e-9));
}

TEST_CASE("hot_spares swaps a spare in, and falls back when the pool is empty") {
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  const double t0 = 36003;
  RunMetrics m = run_one_fault(j, "hot_spares", t0 / 3600, 20.0);
  // Detection, spare swap-in (180 s), state copy (0 s: no model shape), communicator rebuild (60
  // s).
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 180 + 60).epsilon(1e-9));
  CHECK(bucket(m, Bucket::WastedProgress) * H == doctest::Approx(3).epsilon(1e-9));
  CHECK(bucket(m, Bucket::DegradedCapacity) == 0);
  // Scope gpu on HGX: no idle GPU inside the node, so the checkpoint_restart fallback acts.
  j["strategies"]["hot_spares"]["scope"] = "gpu";
  m = run_one_fault(j, "hot_spares", t0 / 3600, 20.0);
  CHECK(bucket(m, Bucket::WastedProgress) * H == doctest::Approx(t0).epsilon(1e-9));
  CHECK(bucket(m, Bucket::CheckpointRestore) * H == doctest::Approx(300).epsilon(1e-9));
}

TEST_CASE("a fault on an idle spare or outside the job does not interrupt it") {
  for (const auto& info : strategy_table()) {
    const RunMetrics m = run_one_fault(small_scenario(3, 4), info.name, 10.0, 20.0, "node/3");
    CHECK(m.interruptions == 0);
    CHECK(m.failures == 1);
    CHECK(m.job_failures == 0);
    CHECK(m.gpu_hours_down == doctest::Approx(8 * 10.0));
  }
}

TEST_CASE("invariants over every strategy under random failures") {
  Json j = Json::parse(R"({
    "horizon_hours": 500, "seeds": 1,
    "cluster": {"preset": "nvl32", "spare_domains": 2},
    "job": {"tp": 16, "pp": 4, "dp": 6, "step_s": 7},
    "failures": {"preset": "pessimistic", "rate_scale": 40, "lemon_fraction": 0.1, "correlated_fraction": 0.2},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {"batch_policy": "accumulate"},
                   "hot_spares": {"fallback": "dp_drop", "fallback_batch_policy": "accumulate"}, "ntp": {"min_tp": 8, "reconfig": "restart", "in_memory_recovery": false},
                   "ntp_boost": {"min_tp": 12}}
  })");
  for (int seed = 0; seed < 4; ++seed) {
    j["seed"] = seed;
    const RunPlan plan = make_plan(scenario_from(j));
    const FaultList faults = faults_for(plan, 0);
    REQUIRE(faults.faults.size() > 50);
    for (const auto& sc : plan.scenario.strategies) {
      CAPTURE(sc.name);
      const RunMetrics m = simulate(plan, faults, sc);
      double sum = m.goodput;
      for (double b : m.badput) {
        CHECK(b >= -1e-12);
        sum += b;
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
      CHECK(m.goodput >= 0);
      CHECK(m.goodput <= 1);
      CHECK(m.ettr <= 1 + 1e-12);
      CHECK(m.interruptions >= 1);
      // the same seed gives the same numbers
      const RunMetrics again = simulate(plan, faults, sc);
      CHECK(again.goodput == m.goodput);
      CHECK(again.events == m.events);
    }
  }
}

TEST_CASE("a run workspace reused across runs gives every run's results exactly as a fresh one") {
  // The workspace keeps the health, layouts and strategy memos (NTP's remembered figures) from
  // one run to the next; runs in any order must not see each other. ntp and ntp_boost share one
  // degree rule, so they also share the run's health indexes (RunShared): each must still get
  // exactly what it gets in a run of its own (simulate()).
  Json j = Json::parse(R"({
    "horizon_hours": 400, "seeds": 1,
    "cluster": {"preset": "nvl32", "spare_domains": 2},
    "job": {"tp": 16, "pp": 4, "dp": 6, "step_s": 7},
    "failures": {"preset": "pessimistic", "rate_scale": 40},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "hot_spares": {},
                   "ntp": {"min_tp": 8}, "ntp_boost": {"min_tp": 8}}
  })");
  const RunPlan plan = make_plan(scenario_from(j));
  const auto& strategies = plan.scenario.strategies;
  RunWorkspace workspace;
  for (const int run : {0, 1, 2, 1, 0}) {
    CAPTURE(run);
    const FaultList faults = faults_for(plan, run);
    const auto fresh = simulate_all(plan, faults, strategies);
    const auto reused = simulate_all(plan, faults, strategies, {}, &workspace);
    REQUIRE(fresh.size() == reused.size());
    for (std::size_t s = 0; s < fresh.size(); ++s) {
      CAPTURE(strategies[s].name);
      CHECK(reused[s].goodput == fresh[s].goodput);
      CHECK(reused[s].events == fresh[s].events);
      CHECK(reused[s].interruptions == fresh[s].interruptions);
      CHECK(reused[s].spare_gpu_hours == fresh[s].spare_gpu_hours);
      for (int b = 0; b < kBucketCount; ++b) CHECK(reused[s].badput[b] == fresh[s].badput[b]);
      if (run == 0) {
        const RunMetrics alone = simulate(plan, faults, strategies[s]);
        CHECK(alone.goodput == fresh[s].goodput);
        CHECK(alone.interruptions == fresh[s].interruptions);
        CHECK(alone.boost_energy_gpu_hours == fresh[s].boost_energy_gpu_hours);
      }
    }
  }
  // Bound to that plan and strategy list.
  const RunPlan other = make_plan(scenario_from(j));
  CHECK_THROWS_AS(
      simulate_all(other, faults_for(other, 0), other.scenario.strategies, {}, &workspace),
      std::logic_error);
}

TEST_CASE("hot_spares: a restart-only fault restarts on a spare, without waiting for its GPUs") {
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  const RunMetrics m = run_one_fault(j, "hot_spares", 10.0, 20.0, "gpu/0", /*restart_only=*/true);
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 180 + 60).epsilon(1e-9));
  CHECK(bucket(m, Bucket::WaitingForCapacity) == 0);
  // Without a spare it re-forms in place (state copy + rebuild) and waits for its processes
  // (the 10 h outage).
  const RunMetrics w = run_one_fault(small_scenario(3, 3), "hot_spares", 10.0, 20.0, "gpu/0", true);
  CHECK(bucket(w, Bucket::InfrastructureRecovery) * H == doctest::Approx(100 + 60).epsilon(1e-9));
  CHECK(bucket(w, Bucket::WaitingForCapacity) * H == doctest::Approx(36000 - 160).epsilon(1e-9));
}

TEST_CASE("async checkpoints: a snapshot counts only once durable, a save cut short is lost") {
  // Fixed 600 s interval, 10 s blocking, durable 60 s after the save starts: saves start at
  // 600 + 610 k (600, 1,210, ...), durable at 660, 1,270, ...
  Json j = small_scenario(3, 4);
  j["checkpoint"] = {{"interval", "fixed"},    {"interval_s", 600}, {"save_mode", "async"},
                     {"async_blocking_s", 10}, {"save_s", 60},      {"load_s", 300}};
  auto rolled_back = [&](double t) {
    return bucket(run_one_fault(j, "checkpoint_restart", t / 3600, 20.0), Bucket::WastedProgress) *
           H;
  };
  // After the second save's blocking part, before it is durable: back to the first (progress 600).
  CHECK(rolled_back(1230) == doctest::Approx(1230 - 20 - 600).epsilon(1e-9));
  // After it is durable: back to its snapshot at 1,210 s (progress 1,200).
  CHECK(rolled_back(1280) == doctest::Approx(1280 - 20 - 1200).epsilon(1e-9));
  // In the middle of the blocking part: that save is lost too.
  CHECK(rolled_back(1215) == doctest::Approx(1215 - 15 - 600).epsilon(1e-9));
  // dp_drop keeps its progress; interrupted in the middle of a save it loses no step either.
  const RunMetrics d = run_one_fault(j, "dp_drop", 1215.0 / 3600, 20.0);
  CHECK(bucket(d, Bucket::WastedProgress) == 0);
}

TEST_CASE("checkpoint_restart: a repair during detection does not cut detection short") {
  Json j = small_scenario(3, 3);  // no spare
  j["checkpoint"]["interval"] = "none";
  const RunMetrics m = run_one_fault(j, "checkpoint_restart", 10.0, 10.0 + 50.0 / 3600);
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H == doctest::Approx(100 + 200).epsilon(1e-9));
  CHECK(bucket(m, Bucket::WaitingForCapacity) == 0);
  CHECK(bucket(m, Bucket::CheckpointRestore) * H == doctest::Approx(300).epsilon(1e-9));
}

TEST_CASE("a stall's steps are paid in order, cut short by a fault, kept through others' events") {
  // Detection 100 s, restart 200 s, load 300 s. A second job fault 150 s in, during the restart:
  // detection paid in full, the restart for its 50 s, the load never; then a whole new stall.
  // A fault and its repair on the idle spare node (gpu/32) during the first stall change nothing.
  const RunPlan plan = make_plan(scenario_from(small_scenario(3, 5)));
  const Topology& topo = *plan.topology;
  const double t0 = 36000;
  for (bool idle_fault : {false, true}) {
    CAPTURE(idle_fault);
    FaultList faults = one_fault(topo, "gpu/0", t0 / 3600, 20.0);
    if (idle_fault)
      faults.faults.push_back(
          {from_seconds(t0 + 120), from_seconds(t0 + 130), *topo.resolve("gpu/32"), 0});
    faults.faults.push_back({from_seconds(t0 + 150), from_hours(20.0), *topo.resolve("gpu/8"), 0});
    const RunMetrics m = simulate(plan, faults, config_for(plan.scenario, "checkpoint_restart"));
    auto count = [&](Mechanism k) { return m.paid_count[static_cast<int>(k)]; };
    auto stalled_s = [&](Mechanism k) { return m.paid_stall_hours[static_cast<int>(k)] * 3600; };
    CHECK(m.interruptions == 2);  // a job fault interrupts a stall too (it starts over)
    CHECK(count(Mechanism::Detection) == 2);
    CHECK(count(Mechanism::JobRestart) == 2);
    CHECK(count(Mechanism::CheckpointLoad) == 1);
    CHECK(stalled_s(Mechanism::Detection) == doctest::Approx(200).epsilon(1e-9));
    CHECK(stalled_s(Mechanism::JobRestart) == doctest::Approx(50 + 200).epsilon(1e-9));
    CHECK(stalled_s(Mechanism::CheckpointLoad) == doctest::Approx(300).epsilon(1e-9));
    CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
          doctest::Approx(100 + 50 + 100 + 200).epsilon(1e-9));
    CHECK(bucket(m, Bucket::CheckpointRestore) * H == doctest::Approx(300).epsilon(1e-9));
  }

  // A stall under way at the horizon: the steps that ended by then (at it, too) are paid.
  for (double before_end_s : {150.0, 100.0}) {
    CAPTURE(before_end_s);
    const RunMetrics e =
        simulate(plan, one_fault(topo, "gpu/0", (H - before_end_s) / 3600, H / 3600),
                 config_for(plan.scenario, "checkpoint_restart"));
    CHECK(e.paid_count[static_cast<int>(Mechanism::Detection)] == 1);
    CHECK(e.paid_count[static_cast<int>(Mechanism::JobRestart)] == 0);
    CHECK(e.paid_stall_hours[static_cast<int>(Mechanism::Detection)] * 3600 ==
          doctest::Approx(100).epsilon(1e-9));
  }
}

TEST_CASE("the step in flight is counted from the end of the last checkpoint save") {
  // Blocking 60 s saves every 600 s of running: 600-660, 1,260-1,320, ... A 10 s step.
  Json j = small_scenario(3, 4);
  j["checkpoint"] = {{"interval", "fixed"}, {"interval_s", 600}, {"save_s", 60}, {"load_s", 300}};
  auto lost = [&](double t) {
    return bucket(run_one_fault(j, "dp_drop", t / 3600, 20.0), Bucket::WastedProgress) * H;
  };
  CHECK(lost(667) == doctest::Approx(7).epsilon(1e-9));   // 7 s after the first save ended
  CHECK(lost(1333) == doctest::Approx(3).epsilon(1e-9));  // 13 s after the second: 3 s into a step
  CHECK(lost(655) == 0);                                  // during a save: no step in flight
}

TEST_CASE("equal prices, equal results: hot_spares and ntp re-form in-domain at the same price") {
  // NVL32 domains of 32 GPUs hold 3 TP8 groups of the job (8 idle GPUs each): every single-GPU
  // fault is refilled in place by an idle GPU of its domain. Both strategies then pay detection,
  // state copy and communicator rebuild, and lose the step in flight: identical results.
  Json j = Json::parse(R"({
    "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "nvl32", "domains": 2},
    "job": {"tp": 8, "pp": 1, "dp": 3, "step_s": 10},
    "failures": {"preset": "none"},
    "recovery": {"detection_s": 100, "communicator_rebuild_s": 30, "state_copy_s": 45},
    "checkpoint": {"interval": "none"},
    "strategies": {"hot_spares": {"scope": "gpu"}, "ntp": {}}
  })");
  const RunPlan plan = make_plan(scenario_from(j));
  FaultList faults;
  faults.classes.push_back({"gpu", false});
  const Topology& topo = *plan.topology;
  for (int k = 0; k < 6; ++k)  // GPUs 1..6 of domain 0 (in the job), 10 h apart, each down 3 h
    faults.faults.push_back({from_hours(5.0 + 10 * k), from_hours(8.0 + 10 * k),
                             *topo.resolve("gpu/" + std::to_string(k + 1)), 0});
  const RunMetrics hs = simulate(plan, faults, config_for(plan.scenario, "hot_spares"));
  const RunMetrics ntp = simulate(plan, faults, config_for(plan.scenario, "ntp"));
  CHECK(hs.interruptions == 6);
  CHECK(hs.goodput == doctest::Approx(ntp.goodput).epsilon(1e-12));
  CHECK(hs.badput == ntp.badput);
  CHECK(hs.paid_count == ntp.paid_count);
  CHECK(hs.paid_count[static_cast<int>(Mechanism::StateCopy)] == 6);
  CHECK(hs.paid_count[static_cast<int>(Mechanism::SpareSwapIn)] == 0);
  CHECK(bucket(hs, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(6 * (100 + 45 + 30)).epsilon(1e-9));
}

TEST_CASE("each strategy checkpoints at its own Daly interval, from the rollbacks it suffers") {
  Json j = Json::parse(R"({
    "horizon_hours": 400, "seeds": 2, "seed": 3,
    "cluster": {"preset": "nvl32", "spare_domains": 1},
    "job": {"tp": 16, "pp": 2, "dp": 4, "step_s": 7},
    "failures": {"preset": "pessimistic", "rate_scale": 20},
    "checkpoint": {"interval": "daly", "save_s": 60},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "ntp": {"reconfig": "restart", "in_memory_recovery": false}}
  })");
  const RunPlan plan = make_plan(scenario_from(j));
  // The rollbacks of the first two runs without checkpoints, counted directly.
  Json none = j;
  none["checkpoint"]["interval"] = "none";
  const RunPlan bare = make_plan(scenario_from(none));
  for (const auto& sc : plan.scenario.strategies) {
    CAPTURE(sc.name);
    std::int64_t rollbacks = 0;
    for (int run = 0; run < 2; ++run)
      rollbacks += simulate(bare, faults_for(bare, run), sc).rollbacks;
    const auto& c = plan.checkpointing(sc.name);
    CHECK(c.rollbacks_per_hour ==
          doctest::Approx(static_cast<double>(rollbacks) / 800.0).epsilon(1e-12));
    const double mtbf_s =
        3600.0 * 800.0 / static_cast<double>(std::max<std::int64_t>(rollbacks, 1));
    CHECK(to_seconds(c.interval) == doctest::Approx(daly_interval_s(60, mtbf_s)).epsilon(1e-6));
  }
  // checkpoint_restart rolls back on every job fault; ntp with restart reconfiguration and no
  // in-memory state too; dp_drop only when no replica survives: it checkpoints far less often.
  const auto& cr = plan.checkpointing("checkpoint_restart");
  const auto& drop = plan.checkpointing("dp_drop");
  CHECK(cr.rollbacks_per_hour > 0);
  CHECK(drop.rollbacks_per_hour < cr.rollbacks_per_hour / 10);
  CHECK(drop.interval > 2 * cr.interval);
  CHECK(plan.checkpointing("ntp").rollbacks_per_hour > 0);
}

TEST_CASE("ntp at its own best: degrade in place unless spare hardware repays its swap-in") {
  // Two TP32 replicas in NVL32 domains (no idle GPU in a domain) and one spare domain.
  Json j = Json::parse(R"({
    "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "nvl32", "spare_domains": 1},
    "job": {"tp": 32, "pp": 1, "dp": 2, "step_s": 10},
    "failures": {"preset": "none"},
    "recovery": {"detection_s": 100, "communicator_rebuild_s": 60, "spare_swap_s": 180, "state_copy_s": 0},
    "checkpoint": {"interval": "none"},
    "strategies": {"ntp": {}, "ntp_boost": {}}
  })");
  auto swap_ins = [](const RunMetrics& m) {
    return m.paid_count[static_cast<int>(Mechanism::SpareSwapIn)];
  };
  // ntp_boost keeps the full batch at TP31 with more power: the spare would gain nothing, so it
  // stays in place and boosts until the repair. Its group goes 32 -> 31: detection, the reshard
  // (0 s: no model shape), the TP reconfiguration (/recovery/ntp_reconfig_s, 10 s by default,
  // paid per changed group since issue 27) and the rebuild.
  const RunMetrics boost = run_one_fault(j, "ntp_boost", 10.0, 20.0);
  CHECK(swap_ins(boost) == 0);
  CHECK(boost.boost_energy_gpu_hours > 0);
  CHECK(bucket(boost, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 10 + 60).epsilon(1e-9));
  // ntp would lose 1/32 of a replica for 10 h; with no further fault expected the spare domain
  // repays its 180 s swap-in: it moves the group there and runs whole.
  const RunMetrics ntp = run_one_fault(j, "ntp", 10.0, 20.0);
  CHECK(swap_ins(ntp) == 1);
  CHECK(bucket(ntp, Bucket::DegradedCapacity) == 0);
  CHECK(bucket(ntp, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 180 + 60).epsilon(1e-9));
}

TEST_CASE("peer_memory: rolls back to the last snapshot in peer memory and swaps a spare in") {
  Json j = small_scenario(3, 4);  // HGX-8: no idle GPU in a node, one spare node
  j["checkpoint"] = {{"interval", "fixed"}, {"interval_s", 600}, {"save_s", 60}, {"load_s", 300}};
  j["strategies"] = {{"peer_memory", {{"save_s", 5}}}};
  const RunPlan plan = make_plan(scenario_from(j));
  CHECK(plan.checkpointing("peer_memory").spec.save_s ==
        5);  // its own save cost, not /checkpoint's
  const RunMetrics m = simulate(plan, one_fault(*plan.topology, "gpu/0", 36003 / 3600.0, 20.0),
                                config_for(plan.scenario, "peer_memory"));
  // Snapshots start every 605 s (600 s of training + 5 s pause), the first at 600 s: the last
  // before the fault started at 35,690 s (progress 35,690 - 58 x 5 = 35,400 s). At the fault
  // progress is 36,003 - 59 x 5 = 35,708 s: 308 s roll back. The stall: detection 100 s, spare
  // swap-in 180 s, state copy 0 s (no model shape), communicator rebuild 60 s; no job restart,
  // no storage load.
  CHECK(m.interruptions == 1);
  CHECK(bucket(m, Bucket::WastedProgress) * H == doctest::Approx(308).epsilon(1e-9));
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 180 + 60).epsilon(1e-9));
  CHECK(bucket(m, Bucket::CheckpointRestore) == 0);
  CHECK(m.paid_count[static_cast<int>(Mechanism::JobRestart)] == 0);
  CHECK(m.paid_count[static_cast<int>(Mechanism::CheckpointLoad)] == 0);
  CHECK(m.paid_count[static_cast<int>(Mechanism::SpareSwapIn)] == 1);
  // Without a spare node the whole job restarts, restoring from peer memory (state copy).
  Json none = j;
  none["cluster"]["domains"] = 3;
  const RunMetrics w = run_one_fault(none, "peer_memory", 36003 / 3600.0, 20.0);
  CHECK(w.paid_count[static_cast<int>(Mechanism::JobRestart)] == 1);
  CHECK(w.paid_count[static_cast<int>(Mechanism::CheckpointLoad)] == 0);
  CHECK(w.paid_count[static_cast<int>(Mechanism::StateCopy)] == 1);
}

TEST_CASE(
    "fixed global batch: dp_drop pauses until the replica is back, and only hardware shortage is "
    "waiting") {
  Json j = small_scenario(3, 3);  // no spare
  j["checkpoint"]["interval"] = "none";
  j["job"]["batch"] = "fixed";
  j["recovery"]["state_copy_s"] = 40;
  const double t0 = 36003;
  const RunMetrics m = run_one_fault(j, "dp_drop", t0 / 3600, 20.0);
  // Detection + rebuild when the replica leaves; then paused without hardware until the repair
  // at 72,000 s (WAITING_FOR_CAPACITY); then paused while it is swapped in and gets its state
  // (180 + 40 s: recovery), and its rejoin's rebuild (60 s). Never fewer samples per step.
  CHECK(bucket(m, Bucket::WaitingForCapacity) * H ==
        doctest::Approx(72000 - (t0 + 160)).epsilon(1e-9));
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 60 + 220 + 60).epsilon(1e-9));
  CHECK(bucket(m, Bucket::DegradedCapacity) == 0);
  // accumulate keeps the global batch with more micro-batches: no pause, slower steps instead.
  j["strategies"]["dp_drop"]["batch_policy"] = "accumulate";
  const RunMetrics a = run_one_fault(j, "dp_drop", t0 / 3600, 20.0);
  CHECK(bucket(a, Bucket::WaitingForCapacity) == 0);
  CHECK(bucket(a, Bucket::DegradedCapacity) > 0);
  // ntp under a fixed batch: a TP31 replica would cut its batch, so with a spare domain it moves
  // there (spare swap-in) instead; ntp_boost keeps the batch with power and stays in place.
  Json n = Json::parse(R"({
    "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "nvl32", "spare_domains": 1},
    "job": {"tp": 32, "pp": 1, "dp": 2, "step_s": 10, "batch": "fixed"},
    "failures": {"preset": "none"},
    "recovery": {"state_copy_s": 0},
    "checkpoint": {"interval": "none"},
    "strategies": {"ntp": {}, "ntp_boost": {}}
  })");
  const RunMetrics ntp = run_one_fault(n, "ntp", 10.0, 20.0);
  CHECK(ntp.paid_count[static_cast<int>(Mechanism::SpareSwapIn)] == 1);
  CHECK(bucket(ntp, Bucket::WaitingForCapacity) == 0);
  CHECK(bucket(ntp, Bucket::DegradedCapacity) == 0);
  const RunMetrics boost = run_one_fault(n, "ntp_boost", 10.0, 20.0);
  CHECK(boost.paid_count[static_cast<int>(Mechanism::SpareSwapIn)] == 0);
  CHECK(bucket(boost, Bucket::WaitingForCapacity) == 0);
  // Without the spare ntp pauses until the repair.
  n["cluster"]["spare_domains"] = 0;
  const RunMetrics wait = run_one_fault(n, "ntp", 10.0, 20.0);
  CHECK(bucket(wait, Bucket::WaitingForCapacity) * H > 35000);
}
