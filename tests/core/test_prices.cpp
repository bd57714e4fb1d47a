// Every action priced where it happens (issue 27, item 1 and 6), on hand-written fault lists:
// ntp pays a reshard and a TP reconfiguration per TP group whose degree changes; a rejoin has
// its own price, a stall under way is extended so that a full rebuild runs after the replica is
// attached (Goodput continuous in spare_swap_s); a rejoin that does not repay its stall waits,
// attached, for the next stall; ntp's move to spare hardware weighs the gain until the sooner
// of the next expected fault and the expected repair.
#include <doctest/doctest.h>

#include <cmath>

#include "models/strategies/ntp_strategy.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

constexpr double H = 100 * 3600.0;  // the scenarios' horizon, s

double bucket(const RunMetrics& m, Bucket b) {
  return m.badput[static_cast<int>(b)];
}
std::int64_t paid(const RunMetrics& m, Mechanism k) {
  return m.paid_count[static_cast<int>(k)];
}
double stalled_s(const RunMetrics& m, Mechanism k) {
  return m.paid_stall_hours[static_cast<int>(k)] * 3600;
}

// Faults by hand: (component, start h, end h), class 0.
FaultList faults(const Topology& topo,
                 std::initializer_list<std::tuple<const char*, double, double>> list) {
  FaultList f;
  f.classes.push_back({"test", false});
  for (const auto& [c, s, e] : list)
    f.faults.push_back({from_hours(s), from_hours(e), *topo.resolve(c), 0});
  return f;
}

// Two TP32 replicas on NVL32 domains (no idle GPU in a domain), fixed reshard and
// reconfiguration prices so that each is visible. The closed forms take the fractional local
// batch (a TP31 replica trains 31/32 of its samples; under whole samples TP31 and TP30 both
// train 7 of 8 and the repair upgrades differ).
Json nvl32(int spares = 0) {
  Json j = Json::parse(R"({
    "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "nvl32"},
    "job": {"tp": 32, "pp": 1, "dp": 2, "step_s": 10},
    "cost": {"local_batch": "fractional"},
    "failures": {"preset": "none"},
    "recovery": {"detection_s": 100, "communicator_rebuild_s": 60, "spare_swap_s": 180,
                 "state_copy_s": 0, "ntp_reshard_s": 20, "ntp_reconfig_s": 10},
    "checkpoint": {"interval": "none"},
    "strategies": {"ntp": {}, "ntp_boost": {}}
  })");
  j["cluster"]["spare_domains"] = spares;
  return j;
}

}  // namespace

TEST_CASE("ntp pays a reshard and a TP reconfiguration per group degree change (closed form)") {
  const RunPlan plan = make_plan(scenario_from(nvl32()));
  const StrategyConfig ntp = config_for(plan.scenario, "ntp");
  SUBCASE("one fault, one repair: the group goes 32 -> 31 -> 32") {
    const RunMetrics m = simulate(plan, faults(*plan.topology, {{"gpu/0", 10, 20}}), ntp);
    CHECK(paid(m, Mechanism::NtpReshard) == 2);
    CHECK(paid(m, Mechanism::NtpReconfig) == 2);
    CHECK(paid(m, Mechanism::CommunicatorRebuild) == 2);
    // The fault: detection + reshard + reconfiguration + rebuild (state copy free); the
    // upgrade at the repair is planned: reshard + reconfiguration + rebuild.
    CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
          doctest::Approx(100 + 20 + 10 + 60 + 20 + 10 + 60).epsilon(1e-9));
    CHECK(stalled_s(m, Mechanism::NtpReshard) == doctest::Approx(40));
    CHECK(stalled_s(m, Mechanism::NtpReconfig) == doctest::Approx(20));
  }
  SUBCASE("two faults in two domains: the job's lowest degree changes once, two groups twice") {
    const RunMetrics m =
        simulate(plan, faults(*plan.topology, {{"gpu/0", 10, 20}, {"gpu/32", 11, 21}}), ntp);
    // 32 -> 31 in domain 0, then in domain 1 (the job's lowest degree stays 31), then each back.
    CHECK(paid(m, Mechanism::NtpReshard) == 4);
    CHECK(paid(m, Mechanism::NtpReconfig) == 4);
    CHECK(paid(m, Mechanism::Detection) == 2);
    CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
          doctest::Approx(2 * (100 + 20 + 10 + 60) + 2 * (20 + 10 + 60)).epsilon(1e-9));
  }
  SUBCASE("two GPUs of one domain, one after the other: 32 -> 31 -> 30, then back") {
    const RunMetrics m =
        simulate(plan, faults(*plan.topology, {{"gpu/0", 10, 20}, {"gpu/1", 11, 21}}), ntp);
    CHECK(paid(m, Mechanism::NtpReshard) == 4);
    CHECK(paid(m, Mechanism::NtpReconfig) == 4);
  }
}

TEST_CASE("ntp's changed groups reshard in parallel: one stall, one payment per group") {
  // Two domains lose a GPU in the same instant: the second fault cuts the first's
  // reconfiguration short at its start, which starts over with both groups: one stall of
  // detection + reshard + reconfiguration + rebuild, two reshards and two reconfigurations
  // paid. Each group comes back with its own repair (20 h, 21 h).
  const RunPlan plan = make_plan(scenario_from(nvl32()));
  const RunMetrics m =
      simulate(plan, faults(*plan.topology, {{"gpu/0", 10, 20}, {"gpu/32", 10, 21}}),
               config_for(plan.scenario, "ntp"));
  CHECK(paid(m, Mechanism::NtpReshard) == 4);
  CHECK(paid(m, Mechanism::NtpReconfig) == 4);
  CHECK(stalled_s(m, Mechanism::NtpReshard) == doctest::Approx(20 + 2 * 20));
  CHECK(bucket(m, Bucket::InfrastructureRecovery) * H ==
        doctest::Approx(100 + 20 + 10 + 60 + 2 * (20 + 10 + 60)).epsilon(1e-9));
}

TEST_CASE("dp_drop: a rejoin has its own price, and a stall under way is extended for it") {
  Json j = small_scenario(3, 4);  // one spare node
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["state_copy_s"] = 0;
  j["recovery"]["rejoin_s"] = 60;
  const double t0 = 36003;  // 3 s into a 10 s step
  SUBCASE("swap-in shorter than the rebuild: the rebuild runs again, in full, after the attach") {
    j["recovery"]["spare_swap_s"] = 30;
    const RunPlan plan = make_plan(scenario_from(j));
    const RunMetrics m = simulate(plan, faults(*plan.topology, {{"gpu/0", t0 / 3600, 20}}),
                                  config_for(plan.scenario, "dp_drop"));
    // Detection 100 s, the rebuild from 100 s; the replica is attached at 130 s, so the stall
    // ends at 130 + 60 = 190 s: 30 s more, paid as the rejoin.
    CHECK(bucket(m, Bucket::InfrastructureRecovery) * H == doctest::Approx(190).epsilon(1e-9));
    CHECK(bucket(m, Bucket::DegradedCapacity) == 0);
    CHECK(paid(m, Mechanism::Rejoin) == 1);
    CHECK(stalled_s(m, Mechanism::Rejoin) == doctest::Approx(30));
    CHECK(paid(m, Mechanism::CommunicatorRebuild) == 1);
    CHECK(paid(m, Mechanism::SpareSwapIn) == 1);
    CHECK(paid(m, Mechanism::StateCopy) == 1);
    CHECK(paid(m, Mechanism::Detection) == 1);
  }
  SUBCASE("its own price: rejoin_s, not the communicator rebuild's") {
    j["recovery"]["rejoin_s"] = 45;
    const RunPlan plan = make_plan(scenario_from(j));
    const RunMetrics m = simulate(plan, faults(*plan.topology, {{"gpu/0", t0 / 3600, 20}}),
                                  config_for(plan.scenario, "dp_drop"));
    // Attached at 100 + 180 s, after the stall (160 s): a planned stall of 45 s.
    CHECK(bucket(m, Bucket::InfrastructureRecovery) * H == doctest::Approx(160 + 45).epsilon(1e-9));
    CHECK(stalled_s(m, Mechanism::Rejoin) == doctest::Approx(45));
  }
}

TEST_CASE("dp_drop's Goodput is continuous in spare_swap_s across the rebuild time (closed form)") {
  // One fault, one spare node, rebuild 60 s. Attached at 100 + s: for s <= 60 the stall runs to
  // 100 + s + 60 (loss 160 + s); for s > 60 the job runs 2 of 3 replicas from 160 to 100 + s,
  // then stalls 60 s for the rejoin (loss 220 + (s - 60) / 3). Both give 220 at s = 60; the
  // slope is at most 1 s of loss per s: successive grid points differ by at most step / H.
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["state_copy_s"] = 0;
  const double t0 = 36003, step = 0.5;
  double last = -1;
  for (double s = 40; s <= 80 + 1e-9; s += step) {
    CAPTURE(s);
    j["recovery"]["spare_swap_s"] = s;
    const RunPlan plan = make_plan(scenario_from(j));
    const RunMetrics m = simulate(plan, faults(*plan.topology, {{"gpu/0", t0 / 3600, 20}}),
                                  config_for(plan.scenario, "dp_drop"));
    const double loss = 3 + (s <= 60 ? 160 + s : 220 + (s - 60) / 3);  // + the step in flight
    CHECK(m.goodput * H == doctest::Approx(H - loss).epsilon(1e-9));
    if (last >= 0) CHECK(std::abs(m.goodput - last) <= step / H * (1 + 1e-6));
    last = m.goodput;
  }
}

TEST_CASE("a rejoin that does not repay its stall waits, attached, and joins the next stall free") {
  Json j = small_scenario(3, 4);
  j["checkpoint"]["interval"] = "none";
  j["recovery"]["state_copy_s"] = 0;
  RunPlan plan = make_plan(scenario_from(j));
  // 100 job faults per hour expected: a rejoin gains 1/3 of the rate for 36 s, 12 s of work,
  // less than its 60 s stall: it waits for the next stall.
  plan.job_faults_per_hour = 100;
  const double t0 = 36003;
  const StrategyConfig drop = config_for(plan.scenario, "dp_drop");
  const RunMetrics one = simulate(plan, faults(*plan.topology, {{"gpu/0", t0 / 3600, 20}}), drop);
  CHECK(paid(one, Mechanism::Rejoin) == 0);
  CHECK(bucket(one, Bucket::InfrastructureRecovery) * H == doctest::Approx(160).epsilon(1e-9));
  CHECK(bucket(one, Bucket::DegradedCapacity) * H ==
        doctest::Approx((H - (t0 + 160)) / 3).epsilon(1e-9));
  // A second fault (another node, at 30 h): its rebuild starts after the waiting replica was
  // attached: the replica joins it, paid once, for no stall of its own.
  const RunMetrics two =
      simulate(plan, faults(*plan.topology, {{"gpu/0", t0 / 3600, 20}, {"gpu/8", 30, 40}}), drop);
  CHECK(paid(two, Mechanism::Rejoin) == 1);
  CHECK(stalled_s(two, Mechanism::Rejoin) == 0);
  CHECK(paid(two, Mechanism::CommunicatorRebuild) == 2);
  CHECK(bucket(two, Bucket::InfrastructureRecovery) * H == doctest::Approx(320).epsilon(1e-9));
}

TEST_CASE("ntp's spare rule weighs the gain until the sooner of the next fault and the repair") {
  // The rule itself: gain 0.01 of the rate, a 180 s swap-in.
  CHECK(ntp_spare_repays(1.0, 0.99, 0.1, 0, 180));      // 36,000 s to the next fault: 360 s
  CHECK(!ntp_spare_repays(1.0, 0.99, 0.1, 7200, 180));  // repaired in 2 h: 72 s
  CHECK(ntp_spare_repays(1.0, 0.99, 0, 72000, 180));    // no fault expected, 20 h repair
  CHECK(ntp_spare_repays(1.0, 0.0, 0.1, 7200, 180));    // keeps the job running
  CHECK(!ntp_spare_repays(0.99, 0.99, 0.1, 7200, 180));

  // End to end: the fault's class repairs in 2 h; ntp would lose 1/64 of the job's rate, 112 s
  // of work in 2 h, less than the 180 s swap-in: with a spare domain it still stays in place,
  // and the spare does not lower its Goodput. With 20 h repairs it moves to the spare.
  auto with_repair = [](int spares, double hours) {
    Json j = nvl32(spares);
    j["failures"] = Json::parse(R"({"classes": [{"name": "g", "scope": "gpu", "mtbf_hours": 1e12,
                                     "repair": {"kind": "fixed", "hours": 1}}]})");
    j["failures"]["classes"][0]["repair"]["hours"] = hours;
    const RunPlan plan = make_plan(scenario_from(j));
    REQUIRE(plan.expected_repair_s.size() == 1);
    CHECK(plan.expected_repair_s[0] == doctest::Approx(hours * 3600));
    return simulate(plan, faults(*plan.topology, {{"gpu/0", 10, 10 + hours}}),
                    config_for(plan.scenario, "ntp"));
  };
  const RunMetrics none = with_repair(0, 2), spare = with_repair(1, 2);
  CHECK(paid(spare, Mechanism::SpareSwapIn) == 0);
  CHECK(spare.goodput == doctest::Approx(none.goodput).epsilon(1e-12));
  CHECK(paid(with_repair(1, 20), Mechanism::SpareSwapIn) == 1);
}

TEST_CASE("mechanism counts match their causes under random failures") {
  Json j = Json::parse(R"({
    "horizon_hours": 500, "seeds": 1,
    "cluster": {"preset": "nvl32", "spare_domains": 2},
    "job": {"tp": 16, "pp": 4, "dp": 6, "step_s": 7},
    "failures": {"preset": "pessimistic", "rate_scale": 40},
    "recovery": {"ntp_reshard_s": 5},
    "strategies": {"dp_drop": {}, "hot_spares": {"fallback": "dp_drop"}, "ntp": {"min_tp": 8},
                   "ntp_boost": {"min_tp": 12}}
  })");
  for (int seed = 0; seed < 3; ++seed) {
    j["seed"] = seed;
    const RunPlan plan = make_plan(scenario_from(j));
    const FaultList list = faults_for(plan, 0);
    for (const auto& sc : plan.scenario.strategies) {
      CAPTURE(sc.name);
      const RunMetrics m = simulate(plan, list, sc);
      // Every changed TP group pays both, in the same stall.
      CHECK(paid(m, Mechanism::NtpReconfig) == paid(m, Mechanism::NtpReshard));
      CHECK(stalled_s(m, Mechanism::NtpReconfig) <=
            10 * static_cast<double>(paid(m, Mechanism::NtpReconfig)) + 1e-6);
      // A replica rejoins only once attached (swap-in and state copy, in the background).
      CHECK(paid(m, Mechanism::Rejoin) <= paid(m, Mechanism::SpareSwapIn));
      if (sc.name == "ntp" || sc.name == "ntp_boost") {
        CHECK(paid(m, Mechanism::NtpReshard) > 0);
        CHECK(paid(m, Mechanism::Rejoin) == 0);  // ntp re-forms in place, it never drops
      } else {
        CHECK(paid(m, Mechanism::NtpReshard) == 0);
      }
      if (sc.name == "dp_drop") CHECK(paid(m, Mechanism::Rejoin) > 0);
    }
  }
}
