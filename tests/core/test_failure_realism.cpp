// The failure-realism switches (issue 10, item 7), each checked against its definition: idle
// hardware thinned to idle_rate_scale, lemons cured by a repair, repairs redone, repairs scaled. At
// their defaults the fault list is the plain model's, fault for fault.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "models/failures/failure_generator.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

namespace {

using Key = std::tuple<Time, Time, std::uint32_t>;

std::set<Key> keys(const FaultList& f) {
  std::set<Key> out;
  for (const auto& x : f.faults) out.insert({x.start, x.end, x.component});
  return out;
}

FailureSpec gpu_and_node_classes(double repair_hours) {
  FailureSpec spec;
  RepairSpec fixed;
  fixed.modes = {{1, repair_hours, 0}};
  spec.classes = {{"gpu", ComponentKind::Gpu, 4000.0, fixed},
                  {"host", ComponentKind::Node, 2000.0, fixed}};
  return spec;
}

}  // namespace

TEST_CASE("idle_rate_scale: busy faults are untouched, idle faults are thinned to the scale") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 64});
  const FailureSpec plain = gpu_and_node_classes(2);
  // The second half of the domains is idle (spares): every GPU and node there.
  std::vector<std::uint8_t> idle(topo.components(), 0);
  for (std::uint32_t g = topo.gpus() / 2; g < topo.gpus(); ++g)
    idle[topo.id(ComponentKind::Gpu, g)] = 1;
  for (std::uint32_t n = 32; n < 64; ++n) idle[topo.id(ComponentKind::Node, n)] = 1;
  const Time horizon = from_hours(2000);
  double idle_plain = 0, idle_half = 0;
  for (int run = 0; run < 60; ++run) {
    FailureSpec half = plain;
    half.idle_rate_scale = 0.5;
    const FaultList a = generate_faults(plain, topo, horizon, 600, 3, run, idle);
    const FaultList b = generate_faults(half, topo, horizon, 600, 3, run, idle);
    FailureSpec zero = plain;
    zero.idle_rate_scale = 0;
    const FaultList z = generate_faults(zero, topo, horizon, 600, 3, run, idle);
    std::set<Key> busy_a, busy_b, busy_z;
    for (const auto& f : a.faults) {
      if (idle[f.component])
        idle_plain += 1;
      else
        busy_a.insert({f.start, f.end, f.component});
    }
    for (const auto& f : b.faults) {
      if (idle[f.component])
        idle_half += 1;
      else
        busy_b.insert({f.start, f.end, f.component});
    }
    for (const auto& f : z.faults) {
      CHECK(!idle[f.component]);  // scale 0: idle hardware never fails
      busy_z.insert({f.start, f.end, f.component});
    }
    CHECK(busy_a == busy_b);  // the busy hardware sees exactly the plain model's faults
    CHECK(busy_a == busy_z);
    const auto kb = keys(b), ka = keys(a);
    CHECK(std::includes(ka.begin(), ka.end(), kb.begin(), kb.end()));  // thinning only removes
  }
  REQUIRE(idle_plain > 1000);
  // Binomial thinning: idle_half ~ Bin(idle_plain, 0.5); allow 4 standard deviations.
  CHECK(std::abs(idle_half - 0.5 * idle_plain) < 4 * std::sqrt(0.25 * idle_plain));
}

TEST_CASE(
    "lemon_heal_probability: 0 changes nothing, 1 brings a lemon to the normal rate after its "
    "first repair") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 100});
  FailureSpec plain;
  RepairSpec fixed;
  fixed.modes = {{1, 1.0, 0}};
  plain.classes = {{"host", ComponentKind::Node, 2000.0, fixed}};
  plain.lemon_fraction = 0.1;
  plain.lemon_rate_multiplier = 10;
  const Time horizon = from_hours(20000);
  double lemon_after_plain = 0, lemon_after_healed = 0;
  for (int run = 0; run < 20; ++run) {
    FailureSpec none = plain;
    none.lemon_heal_probability = 0;
    CHECK(keys(generate_faults(none, topo, horizon, 600, 9, run)) ==
          keys(generate_faults(plain, topo, horizon, 600, 9, run)));
    FailureSpec cure = plain;
    cure.lemon_heal_probability = 1;
    const FaultList a = generate_faults(plain, topo, horizon, 600, 9, run);
    const FaultList b = generate_faults(cure, topo, horizon, 600, 9, run);
    const auto ka = keys(a), kb = keys(b);
    CHECK(std::includes(ka.begin(), ka.end(), kb.begin(), kb.end()));
    // Per node: faults after the end of the node's first fault. A lemon (many faults in the
    // plain list) keeps about 1 in 10 of them once cured; normal nodes keep all.
    std::map<std::uint32_t, Time> first_end;
    for (const auto& f : a.faults)
      if (!first_end.count(f.component)) first_end[f.component] = f.end;
    std::map<std::uint32_t, int> count_a;
    for (const auto& f : a.faults) ++count_a[f.component];
    for (const auto& [node, end] : first_end) {
      int after_a = 0, after_b = 0;
      for (const auto& f : a.faults) after_a += f.component == node && f.start >= end;
      for (const auto& f : b.faults) after_b += f.component == node && f.start >= end;
      if (count_a[node] >= 50) {  // a lemon: expected 10 x 20000 / 2000 = 100 faults
        lemon_after_plain += after_a;
        lemon_after_healed += after_b;
      } else {
        CHECK(after_a == after_b);
      }
    }
  }
  REQUIRE(lemon_after_plain > 10000);
  const double p = 0.1;  // kept with probability 1 / multiplier
  CHECK(std::abs(lemon_after_healed - p * lemon_after_plain) <
        4 * std::sqrt(p * (1 - p) * lemon_after_plain));
}

TEST_CASE("repair_failure_probability: repairs are redone a geometric number of times") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 64});
  const FailureSpec plain = gpu_and_node_classes(2);
  FailureSpec redo = plain;
  redo.repair_failure_probability = 0.25;
  double repairs = 0, faults = 0;
  for (int run = 0; run < 30; ++run) {
    const FaultList a = generate_faults(plain, topo, from_hours(3000), 600, 4, run);
    const FaultList b = generate_faults(redo, topo, from_hours(3000), 600, 4, run);
    REQUIRE(a.faults.size() == b.faults.size());
    for (std::size_t i = 0; i < a.faults.size(); ++i) {
      CHECK(a.faults[i].start == b.faults[i].start);
      CHECK(a.faults[i].component == b.faults[i].component);
      CHECK(a.faults[i].end - a.faults[i].start == from_hours(2));
      const Time d = b.faults[i].end - b.faults[i].start;
      CHECK(d % from_hours(2) == 0);  // whole repairs of 2 h each
      repairs += static_cast<double>(d / from_hours(2));
      faults += 1;
    }
  }
  REQUIRE(faults > 3000);
  // Mean repairs per fault = 1 / (1 - q) = 4/3; the count is 1 + Geometric: variance q / (1-q)^2.
  const double mean = repairs / faults, sd = std::sqrt(0.25 / (0.75 * 0.75) / faults);
  CHECK(std::abs(mean - 4.0 / 3.0) < 4 * sd);
}

TEST_CASE("repair_scale: every repair time is scaled, starts and components unchanged") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 64});
  const FailureSpec plain = gpu_and_node_classes(2);
  FailureSpec scaled = plain;
  scaled.repair_scale = 3.5;
  for (int run = 0; run < 5; ++run) {
    const FaultList a = generate_faults(plain, topo, from_hours(3000), 600, 4, run);
    const FaultList b = generate_faults(scaled, topo, from_hours(3000), 600, 4, run);
    REQUIRE(a.faults.size() == b.faults.size());
    for (std::size_t i = 0; i < a.faults.size(); ++i) {
      CHECK(a.faults[i].start == b.faults[i].start);
      CHECK(a.faults[i].component == b.faults[i].component);
      CHECK(b.faults[i].end - b.faults[i].start == from_hours(7));  // 3.5 x 2 h
    }
  }
}

TEST_CASE(
    "the switches load from a scenario and idle hardware is the job's failure-free complement") {
  Json j = test::small_scenario(3, 4);  // 3 of 4 HGX domains busy
  j["failures"] = Json::parse(R"({"classes": [{"name": "g", "scope": "gpu", "mtbf_hours": 100,
                                   "repair": {"kind": "fixed", "hours": 1}}], "idle_rate_scale": 0})");
  const RunPlan plan = make_plan(test::scenario_from(j));
  REQUIRE(plan.idle_components);
  int idle_gpus = 0;
  for (std::uint32_t g = 0; g < plan.topology->gpus(); ++g) idle_gpus += (*plan.idle_components)[g];
  CHECK(idle_gpus == 8);  // the spare domain
  for (int run = 0; run < 5; ++run)
    for (const auto& f : faults_for(plan, run).faults) CHECK(!(*plan.idle_components)[f.component]);
  j["failures"]["repair_failure_probability"] = 1.0;
  CHECK_THROWS_AS(test::scenario_from(j), InputError);
}
