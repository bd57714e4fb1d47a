// The fixed global batch's spare question (issue 27, item 3): spare domains host extra
// replicas that train the samples degraded replicas lose, so ntp's need for spares is set by
// the sample shortfall, not by the number of damaged domains. Hand-computable cases with free
// prices: NVL32 domains (one TP32 group each), TP32 x PP2 x DP4, 8 one-sample micro-batches per
// replica (32 samples per step, 8 per replica), the proportional cost model.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

TEST_CASE("fixed batch: without spares the old behaviour holds, and ntp_boost needs none") {
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

namespace {

// The layout ntp should take right after a fault it reconfigures for, from scratch: its own
// domains', spare groups in place of damaged ones (any), or the own layout plus extra replicas
// on the first spare groups (best_candidate's rule with no fault rate or repair time known).
// Per domain: {full groups, partial degree}; *extra_replicas: how many extra replicas it holds.
std::vector<std::pair<std::uint32_t, std::uint32_t>> expected_layout(const ClusterHealth& health,
                                                                     const Scenario& s,
                                                                     const NtpOptions& o,
                                                                     const CostModel& cost,
                                                                     int* extra_replicas) {
  const JobSpec& j = s.job;
  const std::uint32_t all = health.topology().domains();
  const auto limit = all - static_cast<std::uint32_t>(s.spare_domains);
  const auto tp = static_cast<std::uint32_t>(j.tp);
  const std::int64_t needed = static_cast<std::int64_t>(j.dp) * j.pp;
  std::int64_t own_full = 0;
  for (std::uint32_t d = 0; d < limit; ++d) own_full += health.healthy_in_domain(d) / tp;
  const NtpConfig own = ntp_config(health, j.tp, j.pp, j.dp, o, cost, limit);
  const NtpConfig any = ntp_config(health, j.tp, j.pp, j.dp, o, cost);
  auto rate = [&](const NtpConfig& c) {
    return keeps_global_batch(c.throughput, j) ? c.throughput * (1 - c.reshard) : 0.0;
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> want(all, {0, 0});
  auto put = [&](const NtpConfig& c) {
    for (const NtpDomainUse& u : c.use) want[u.domain] = {u.full, u.partial};
  };
  const double own_rate = own_full >= needed ? 1.0 : rate(own);
  double spare_rate = rate(any);
  int extra = 0;
  if (own_full < needed && own_rate <= 0) {
    const int e = extra_replicas_for_batch(own.throughput, j);
    std::int64_t spare_groups = 0;
    for (std::uint32_t d = limit; d < all; ++d) spare_groups += health.healthy_in_domain(d) / tp;
    const double extra_rate = extra_throughput(own.throughput, e, j) * (1 - own.reshard);
    if (spare_groups >= static_cast<std::int64_t>(e) * j.pp && extra_rate > spare_rate) {
      extra = e;
      spare_rate = extra_rate;
    }
  }
  *extra_replicas = 0;
  if (own_full >= needed || spare_rate <= own_rate) {
    put(own);
  } else if (extra == 0) {
    put(any);
  } else {
    put(own);
    *extra_replicas = extra;
    std::int64_t left = static_cast<std::int64_t>(extra) * j.pp;
    for (std::uint32_t d = limit; d < all && left > 0; ++d) {
      const auto take = std::min<std::int64_t>(left, health.healthy_in_domain(d) / tp);
      want[d].first = static_cast<std::uint32_t>(take);
      left -= take;
    }
  }
  return want;
}

}  // namespace

TEST_CASE("fixed batch: ntp's layout after each fault is its best candidate, extra replicas too") {
  // Random GPU and node faults and repairs (free prices: every stall ends at once); after each
  // fault that ntp reconfigures for (no idle GPU of a hit domain could stand in), its layout,
  // kept up to date incrementally, equals the candidate recomputed from scratch.
  struct Setting {
    int tp, pp, dp, spares, min_tp;
  };
  std::mt19937_64 rng(27);
  int checked = 0, with_extra = 0;
  for (const Setting st : {Setting{32, 2, 4, 3, 16}, Setting{32, 1, 8, 2, 24},
                           Setting{16, 2, 8, 2, 8}, Setting{32, 3, 3, 4, 20}}) {
    for (const bool boost : {false, true}) {
      CAPTURE(st.tp);
      CAPTURE(st.pp);
      CAPTURE(boost);
      Json j = fixed_job(st.spares);
      j["job"]["tp"] = st.tp;
      j["job"]["pp"] = st.pp;
      j["job"]["dp"] = st.dp;
      j["cluster"].erase("gpu_max_power_w");  // the B200's own 1.2x: some replicas stay short
      j["strategies"]["ntp"]["min_tp"] = st.min_tp;
      j["strategies"]["ntp_boost"]["min_tp"] = st.min_tp;
      const std::string name = boost ? "ntp_boost" : "ntp";
      const RunPlan plan = make_plan(scenario_from(j));
      const Scenario& s = plan.scenario;
      const Topology& topo = *plan.topology;
      const NtpOptions o = read_ntp_options(s, s.strategy(name)->params, boost).layout;
      Simulator sim;
      ClusterHealth health(topo);
      JobLayout layout(health, st.tp);
      JobSignals signals;
      JobContext ctx;
      ctx.sim = &sim;
      ctx.scenario = &s;
      ctx.health = &health;
      ctx.layout = &layout;
      ctx.signals = &signals;
      ctx.cost = plan.cost.get();
      const auto job = make_ntp_job(s, s.strategy(name)->params, boost);
      job->start(ctx);
      std::vector<std::uint32_t> active, gpus, hit_domains;
      std::vector<GroupHit> hits;
      for (int step = 0; step < 400; ++step) {
        gpus.clear();
        if (active.empty() || (active.size() < 7 && rng() % 100 < 55)) {
          const auto kind = rng() % 4 ? ComponentKind::Gpu : ComponentKind::Node;
          active.push_back(topo.id(kind, static_cast<std::uint32_t>(rng() % topo.count(kind))));
          health.fail(active.back(), &gpus);
          hits.clear();
          layout.release_down(gpus, &hits);
          // Would an idle GPU of a hit domain stand in (the layout then stays as it was)?
          bool refill = false;
          for (const GroupHit& h : hits)
            for (std::uint32_t g : topo.domain_gpus(h.domain))
              refill = refill || (health.up(g) && !layout.in_use(g));
          FaultImpact impact;
          impact.newly_down = gpus;
          impact.hits = hits;
          job->on_fault(impact);
          if (hits.empty() || refill) continue;
          int extra = 0;
          const auto want = expected_layout(health, s, o, *plan.cost, &extra);
          for (std::uint32_t d = 0; d < topo.domains(); ++d) {
            CAPTURE(d);
            REQUIRE(layout.assigned(d) == want[d].first);
            REQUIRE(layout.partial(d) == want[d].second);
          }
          ++checked;
          with_extra += extra > 0;
        } else {
          const auto k = rng() % active.size();
          health.repair(active[k], &gpus);
          active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
          hit_domains.clear();
          for (std::uint32_t g : gpus) hit_domains.push_back(topo.domain_of_gpu(g));
          std::sort(hit_domains.begin(), hit_domains.end());
          hit_domains.erase(std::unique(hit_domains.begin(), hit_domains.end()), hit_domains.end());
          RepairImpact impact;
          impact.newly_up = gpus;
          impact.domains = hit_domains;
          job->on_repair(impact);
        }
      }
    }
  }
  MESSAGE("checked ", checked, ", with extra replicas ", with_extra);
  CHECK(checked > 300);
  CHECK(with_extra > 50);
}
