// Correlated failures above the node (issue 29 item 2): a rack fault takes out exactly its rack's
// GPUs, a row fault its racks', a fleet outage every GPU, so it stops every strategy for its
// duration; the llama3-correlated preset draws them; a goal seek met at its minimum says why.
#include <doctest/doctest.h>

#include "models/failures/failure_generator.hpp"
#include "models/failures/failure_presets.hpp"
#include "sim/run/fault_reach.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;

namespace {

// 16 HGX-8 nodes, 2 per rack, 2 racks per row (4 rows); a TP8 x DP15 job and one spare node.
Json racks_scenario() {
  Json j = test::small_scenario(15, 16);
  j["cluster"]["nodes_per_rack"] = 2;
  j["cluster"]["racks_per_row"] = 2;
  j["cluster"]["nodes_per_leaf"] = 16;
  return j;
}

}  // namespace

TEST_CASE("a rack fault takes out exactly its rack's GPUs, a row fault its racks'") {
  const RunPlan plan = make_plan(test::scenario_from(racks_scenario()));
  const Topology& t = *plan.topology;
  REQUIRE(t.count(ComponentKind::Rack) == 8);
  REQUIRE(t.count(ComponentKind::Row) == 4);
  const StrategyConfig dp_drop = *plan.scenario.strategy("dp_drop");
  struct Case {
    const char* component;
    std::uint32_t gpus, first;
  };
  for (const Case c : {Case{"rack/3", 16, 48}, Case{"row/1", 32, 32}, Case{"node/5", 8, 40}}) {
    CAPTURE(std::string(c.component));
    const GpuRange r = t.blast_radius(*t.resolve(c.component));
    CHECK(r.size() == c.gpus);
    CHECK(r.front() == c.first);
    const RunMetrics m = simulate(plan, test::one_fault(t, c.component, 10, 30), dp_drop);
    CHECK(m.peak_failed_gpus == c.gpus);
    CHECK(m.gpu_hours_down == doctest::Approx(20.0 * c.gpus));
    CHECK(m.failures == 1);
  }
}

TEST_CASE("a statistical row or fleet class draws faults on its own components") {
  const Scenario s = test::scenario_from(racks_scenario());
  const Topology t(s.cluster);
  FailureSpec spec;
  RepairSpec fixed;
  fixed.modes = {{1, 2, 0}};
  spec.classes = {{"row", ComponentKind::Row, 50.0, fixed},
                  {"fleet", ComponentKind::Fleet, 100.0, fixed}};
  const FaultList f = generate_faults(spec, t, from_hours(10000), 600, 7, 0);
  int rows = 0, fleets = 0;
  for (const Fault& x : f.faults) {
    const ComponentKind k = t.kind(x.component);
    CHECK((k == ComponentKind::Row || k == ComponentKind::Fleet));
    rows += k == ComponentKind::Row ? 1 : 0;
    fleets += k == ComponentKind::Fleet ? 1 : 0;
  }
  // 4 rows at 1 / 50 h and one fleet at 1 / 100 h over 10,000 h: 800 and 100 expected.
  CHECK(rows == doctest::Approx(800).epsilon(0.15));
  CHECK(fleets == doctest::Approx(100).epsilon(0.3));
  CHECK(class_rate_per_hour(spec, spec.classes[1], t) == doctest::Approx(0.01));
}

TEST_CASE("llama3-correlated adds rack, row and fleet classes to llama3's") {
  const auto base = failure_preset("llama3");
  const auto more = failure_preset("llama3-correlated");
  REQUIRE(more.size() > base.size());
  for (std::size_t i = 0; i < base.size(); ++i) CHECK(more[i].name == base[i].name);
  bool rack = false, row = false, fleet = false;
  for (const auto& c : more) {
    rack = rack || c.scope == ComponentKind::Rack;
    row = row || c.scope == ComponentKind::Row;
    fleet = fleet || c.scope == ComponentKind::Fleet;
    CHECK(c.mtbf_hours > 0);
  }
  CHECK((rack && row && fleet));
  CHECK(failure_preset_doc("llama3-correlated").find("assumption") != std::string::npos);
}

TEST_CASE("a fleet outage stops every strategy for its duration, then each pays its restart") {
  // 4 HGX-8 nodes, TP8 x DP3 and a spare, 10 s steps, no checkpoints: a fleet outage from 10 h to
  // 14 h takes every GPU, spares included. Every strategy waits out the 4 h (detection runs inside
  // it), restarts (200 s) and restores (checkpoint load 300 s; peer_memory copies its state from
  // peer memory, 40 s: its declared whole-job restore), and with no checkpoint rolls back the 10 h
  // done before (3,600 whole steps: nothing in flight). Loss = (10 h + 4 h + restart + restore) /
  // H.
  Json j = test::small_scenario();
  j["recovery"] = {{"detection_s", 100},
                   {"restart_s", 200},
                   {"communicator_rebuild_s", 60},
                   {"spare_swap_s", 180},
                   {"state_copy_s", 40}};
  j["checkpoint"] = {{"interval", "none"}, {"load_s", 300}};
  j["strategies"] = {{"checkpoint_restart", Json::object()}, {"dp_drop", Json::object()},
                     {"hot_spares", {{"scope", "node"}}},    {"ntp", Json::object()},
                     {"ntp_boost", Json::object()},          {"peer_memory", Json::object()}};
  const RunPlan plan = make_plan(test::scenario_from(j));
  const FaultList outage = test::one_fault(*plan.topology, "fleet/0", 10, 14);
  const auto runs = simulate_all(plan, outage, plan.scenario.strategies);
  REQUIRE(runs.size() == 6);
  const double horizon_s = 100 * 3600.0, outage_s = 4 * 3600.0, done_s = 10 * 3600.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& name = plan.scenario.strategies[i].name;
    CAPTURE(name);
    const RunMetrics& m = runs[i];
    const double restore_s = name == "peer_memory" ? 40 : 300;
    CHECK(1 - m.goodput == doctest::Approx((done_s + outage_s + 200 + restore_s) / horizon_s));
    // The job stands still for the whole outage: waiting for capacity, detection inside it.
    const double waiting = m.badput[static_cast<int>(Bucket::WaitingForCapacity)] * horizon_s;
    const double detection = m.paid_stall_hours[static_cast<int>(Mechanism::Detection)] * 3600.0;
    CHECK(waiting + detection == doctest::Approx(outage_s));
    CHECK(m.peak_failed_gpus == plan.topology->gpus());
  }
}

TEST_CASE("a seek met at its minimum says why: the widest fault against the idle GPUs") {
  // GB200 NVL72 racks hold one TP64 group and 8 idle GPUs: GPU and node faults fit in them.
  Json j = Json::parse(R"({
    "name": "nvl72", "horizon_hours": 10, "seeds": 1,
    "cluster": {"preset": "gb200-nvl72", "spare_domains": 1},
    "job": {"tp": 64, "pp": 1, "dp": 2, "step_s": 10},
    "failures": {"preset": "llama3"},
    "strategies": {"hot_spares": {}}
  })");
  const RunPlan inside = make_plan(test::scenario_from(j));
  const FaultReach r = fault_reach(inside);
  CHECK(r.idle_per_domain == 8);
  CHECK(r.largest_gpus == 4);  // a node (tray) of 4 GPUs
  CHECK(r.scope == ComponentKind::Node);
  const std::string why = already_met_reason(inside);
  CHECK(why.find("no failure in this scenario takes out more than the in-domain idle GPUs") == 0);
  CHECK(why.find("4 GPUs") != std::string::npos);
  CHECK(why.find("8 idle GPUs") != std::string::npos);
  // With rack-scale classes the widest fault is the fleet's: every GPU (one rack per row, so
  // the row class is not as wide).
  j["failures"]["preset"] = "llama3-correlated";
  j["cluster"]["racks_per_row"] = 1;
  const RunPlan wider = make_plan(test::scenario_from(j));
  const FaultReach w = fault_reach(wider);
  CHECK(w.largest_gpus == wider.topology->gpus());
  CHECK(w.largest_class == "fleet-outage");
  CHECK(already_met_reason(wider).find("more than the 8 idle GPUs") != std::string::npos);
  // No failures at all.
  j["failures"]["preset"] = "none";
  CHECK(already_met_reason(make_plan(test::scenario_from(j))).find("no failures") !=
        std::string::npos);
}
