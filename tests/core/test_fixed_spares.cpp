// The fixed global batch's spare question (issue 27, item 3): spare domains host extra
// replicas that train the samples degraded replicas lose, so ntp's need for spares is set by
// the sample shortfall, not by the number of damaged domains. Hand-computable cases with free
// prices: NVL32 domains (one TP32 group each), TP32 x PP2 x DP4, 8 one-sample micro-batches per
// replica (32 samples per step, 8 per replica), the proportional cost model.
#include <doctest/doctest.h>

#include <numeric>
#include <string>

#include "models/strategies/ntp_config.hpp"
#include "models/strategies/ntp_strategy.hpp"
#include "sim/run/single_run.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

constexpr double kHorizonH = 40;

Json fixed_job(int spares) {
  Json j = Json::parse(R"({
    "horizon_hours": 40, "seeds": 1,
    "cluster": {"preset": "nvl32", "gpu_max_power_w": 2000},
    "job": {"tp": 32, "pp": 2, "dp": 4, "step_s": 10, "microbatches": 8, "micro_batch": 1,
            "batch": "fixed"},
    "failures": {"preset": "none"},
    "cost": {"model": "proportional"},
    "recovery": {"detection_s": 0, "restart_s": 0, "communicator_rebuild_s": 0,
                 "spare_swap_s": 0, "state_copy_s": 0, "ntp_reshard_s": 0,
                 "ntp_reconfig_s": 0, "rejoin_s": 0},
    "checkpoint": {"interval": "none"},
    "strategies": {"dp_drop": {}, "ntp": {"min_tp": 16},
                   "ntp_boost": {"min_tp": 16, "max_power": 2.0}}
  })");
  j["cluster"]["spare_domains"] = spares;
  return j;
}

// At 10 h, `lost` GPUs of each of the job's 8 domains fail; all are back at 20 h.
FaultList damage(const RunPlan& plan, int lost) {
  FaultList f;
  f.classes.push_back({"gpu", false});
  for (std::uint32_t d = 0; d < 8; ++d)
    for (std::uint32_t g = 0; g < static_cast<std::uint32_t>(lost); ++g)
      f.faults.push_back(
          {from_hours(10), from_hours(20), plan.topology->id(ComponentKind::Gpu, d * 32 + g), 0});
  return f;
}

RunMetrics run(int spares, int lost, const std::string& strategy) {
  const RunPlan plan = make_plan(scenario_from(fixed_job(spares)));
  const RunMetrics m = simulate(plan, damage(plan, lost), config_for(plan.scenario, strategy));
  // Invariants of every run: Goodput in [0, 1]; Goodput and the badput buckets cover wall time.
  CHECK(m.goodput >= 0);
  CHECK(m.goodput <= 1);
  CHECK(m.goodput + std::accumulate(m.badput.begin(), m.badput.end(), 0.0) ==
        doctest::Approx(1).epsilon(1e-12));
  return m;
}

double waiting(const RunMetrics& m) {
  return m.badput[static_cast<int>(Bucket::WaitingForCapacity)];
}
std::int64_t paid(const RunMetrics& m, Mechanism k) {
  return m.paid_count[static_cast<int>(k)];
}

// The fewest spare domains in [0, 8] with which `strategy` never pauses for capacity.
long spare_need(int lost, const std::string& strategy) {
  const SeekResult r = bisect_smallest(
      0, 8, [&](long spares) { return waiting(run(int(spares), lost, strategy)) == 0; });
  REQUIRE(r.answer);
  return *r.answer;
}

}  // namespace

TEST_CASE("extra replicas: the fewest that make up a sample shortfall") {
  JobSpec j;
  j.dp = 4;
  j.microbatches = 8;
  j.micro_batch = 1;  // 32 samples, 8 per replica
  CHECK(extra_replicas_for_batch(1.0, j) == 0);
  CHECK(extra_replicas_for_batch(1 - 0.5 / 32, j) == 0);  // half a sample short: none
  CHECK(extra_replicas_for_batch(31.0 / 32, j) == 1);
  CHECK(extra_replicas_for_batch(24.0 / 32, j) == 1);  // 8 short: one whole extra replica
  CHECK(extra_replicas_for_batch(23.0 / 32, j) == 2);  // 9 short
  CHECK(extra_replicas_for_batch(20.0 / 32, j) == 2);
  CHECK(extra_replicas_for_batch(0.0, j) == 4);
  CHECK(extra_throughput(28.0 / 32, 1, j) == 1.0);  // never more than the batch
  CHECK(extra_throughput(20.0 / 32, 1, j) == 28.0 / 32);
}

TEST_CASE("fixed batch: ntp's spare need is the sample shortfall, dp_drop's the damaged domains") {
  // One GPU out of each of the 8 job domains: 8 TP31 stages, packed into the 4 replicas. Each
  // keeps floor(8 x 31/32) = 7 of its 8 samples: 4 samples short, one extra replica (up to 8
  // samples) of pp = 2 full groups = 2 spare domains. dp_drop loses a group in every domain: it
  // needs a spare domain for each of the 8.
  CHECK(spare_need(1, "ntp") == 2);
  CHECK(spare_need(1, "dp_drop") == 8);
  // Nine GPUs out of each: TP23 stages keep floor(8 x 23/32) = 5 samples, 12 short: two extra
  // replicas (16 samples), 4 spare domains.
  CHECK(spare_need(9, "ntp") == 4);
  CHECK(spare_need(9, "dp_drop") == 8);
}

TEST_CASE("fixed batch: extra replicas are paid, keep the batch, and go back at the repair") {
  const RunMetrics m = run(2, 1, "ntp");
  CHECK(waiting(m) == 0);
  CHECK(m.badput[static_cast<int>(Bucket::DegradedCapacity)] == 0);  // the batch is whole
  // Faults 1 and 2 move their groups to the two spare domains (a swap-in each); fault 3 can no
  // longer be covered so: the job goes back to domains 0 and 1 as TP31 groups (hardware it had
  // left: a swap-in) and the spare domains become one extra replica (its state copied from a
  // DP peer, joining in the rebuild), held while the other faults land.
  CHECK(paid(m, Mechanism::SpareSwapIn) == 3);
  CHECK(paid(m, Mechanism::StateCopy) == 8 + 1);  // each fault's lost shard, the extra replica
  CHECK(paid(m, Mechanism::Rejoin) == 1);
  // Released when the last repair removes the shortfall (20 h): the spare domains' 64 GPUs are
  // idle before 10 h and after 20 h, and every healthy GPU is in use in between.
  CHECK(m.spare_gpu_hours == doctest::Approx(64 * 10 + 64 * (kHorizonH - 20)).epsilon(1e-12));
}

TEST_CASE("fixed batch: without spares the old behaviour holds; ntp_boost needs none") {
  // No spare: ntp pauses from the faults to the repairs, exactly; nothing extra is attached.
  const RunMetrics ntp = run(0, 1, "ntp");
  CHECK(waiting(ntp) * kHorizonH == doctest::Approx(10).epsilon(1e-12));
  CHECK(paid(ntp, Mechanism::Rejoin) == 0);
  CHECK(paid(ntp, Mechanism::StateCopy) == 8);
  // With enough power every degraded replica keeps its batch: no pause, no spare needed.
  for (int lost : {1, 9}) {
    const RunMetrics boost = run(0, lost, "ntp_boost");
    CHECK(waiting(boost) == 0);
    CHECK(paid(boost, Mechanism::Rejoin) == 0);
  }
}

TEST_CASE("fixed batch snapshot: extra replicas on spare domains keep the batch") {
  // The same damage as a snapshot: one GPU out of each job domain, 4 samples short. Two spare
  // domains hold the extra replica (the batch kept, at full rate); one does not.
  for (int spares : {1, 2}) {
    const RunPlan plan = make_plan(scenario_from(fixed_job(spares)));
    ClusterHealth health(*plan.topology);
    for (std::uint32_t d = 0; d < 8; ++d)
      health.fail(plan.topology->id(ComponentKind::Gpu, d * 32), nullptr);
    const SnapshotInput in{&plan.scenario, &health, plan.cost.get(),
                           plan.scenario.strategy("ntp")->params};
    const Phase p = snapshot_ntp_job(in, false);
    if (spares == 2)
      CHECK(p.rate == 1.0);
    else
      CHECK(p.loss[static_cast<int>(Bucket::WaitingForCapacity)] == 1.0);
  }
}
