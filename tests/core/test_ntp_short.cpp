// Property test of NTP's short path (ntp_partial_index.hpp): while the cluster is short of full
// TP groups, ntp_short_config over the capacity and partial indexes gives the full ntp_config
// scan's layout (domain uses, tie order among equal partial groups) and figures (replicas,
// degraded replicas, min degree, throughput, reshard, boost power), bit for bit, on random
// fault/repair sequences over small NVL32 clusters: packing on/off, boost on/off, several
// tp / min_tp / allowed settings, both cost models, own domains and all domains.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/strategies/ntp_config.hpp"
#include "models/strategies/ntp_partial_index.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

struct Setting {
  int tp, pp, dp, domains, spares;
  bool iteration;  // the iteration cost model (shipped B200 profile) instead of proportional
  int min_tp;
  std::vector<int> allowed;
};

RunPlan plan_for(const Setting& s) {
  if (s.iteration) {
    const std::string at = "/strategies/ntp/";
    return make_plan(load_scenario(
        std::string(GOODPUT_SOURCE_DIR) + "/scenarios/ntp-paper-nvl32.json",
        {"/mode=snapshot", "/seeds=1", "/job/tp=" + std::to_string(s.tp),
         "/job/pp=" + std::to_string(s.pp), "/job/dp=" + std::to_string(s.dp),
         "/job/stage_layers=[]", "/job/model/layers=" + std::to_string(12 * s.pp),
         "/cluster/domains=" + std::to_string(s.domains), at + "min_tp=" + std::to_string(s.min_tp),
         "/strategies/ntp_boost/min_tp=" + std::to_string(s.min_tp)}));
  }
  Json j = Json::parse(R"({
    "mode": "snapshot", "seeds": 1,
    "cluster": {"preset": "nvl32"},
    "job": {"tp": 32, "pp": 1, "dp": 4},
    "failures": {"preset": "none"},
    "cost": {"model": "proportional"},
    "strategies": {"ntp": {}}
  })");
  j["cluster"]["domains"] = s.domains;
  j["job"]["tp"] = s.tp;
  j["job"]["pp"] = s.pp;
  j["job"]["dp"] = s.dp;
  j["strategies"]["ntp"]["min_tp"] = s.min_tp;
  return make_plan(scenario_from(j));
}

// ntp_config's `use` rebuilt from the short path's answer: every full group below the limit and
// the chosen partial groups.
std::vector<NtpDomainUse> short_use(const CapacityIndex& caps, std::uint32_t limit,
                                    const std::vector<NtpPartial>& partials) {
  std::vector<NtpDomainUse> use;
  for (std::uint32_t d = 0; d < limit; ++d) {
    std::uint32_t partial = 0;
    for (const NtpPartial& p : partials)
      if (p.domain == d) partial = static_cast<std::uint32_t>(p.degree);
    if (caps.cap(d) || partial) use.push_back({d, caps.cap(d), partial});
  }
  return use;
}

// ntp_replica_figures as first written: every replica's stage vector spelled out and costed one
// by one (the run-length version costs identical replicas once and multiplies: equal up to
// rounding).
NtpConfig reference_figures(std::int64_t full_used, const std::vector<NtpPartial>& partials, int tp,
                            int pp, int dp, const NtpOptions& o, const CostModel& cost) {
  NtpConfig c;
  double total = 0;
  int min_degree = tp;
  std::vector<double> powers;
  std::vector<double> caps, base;
  const double useful = cost.power_curve().useful_power();
  auto add_degraded_replica = [&](std::span<const int> degrees) {
    powers.assign(degrees.size(), 1.0);
    caps.assign(degrees.size(), 1.0);
    for (std::size_t i = 0; i < degrees.size(); ++i) {
      const int deg = degrees[i];
      if (deg >= tp) continue;
      caps[i] = o.boost ? std::min(o.boost_cap(deg, tp), useful) : 1.0;
      powers[i] = o.boost ? cost.boost_power(deg, caps[i]) : 1.0;
      min_degree = std::min(min_degree, deg);
    }
    double r = cost.replica_throughput(degrees, powers);
    if (o.boost && r < 1) {  // raise the stages together toward their caps
      base = powers;
      auto at = [&](double share) {
        for (std::size_t i = 0; i < degrees.size(); ++i)
          if (degrees[i] < tp) powers[i] = base[i] + share * (caps[i] - base[i]);
        return cost.replica_throughput(degrees, powers);
      };
      if (base != caps && at(1.0) >= 1.0) {
        double lo = 0, hi = 1;
        for (int k = 0; k < 50 && hi - lo > 1e-9; ++k) {
          const double mid = (lo + hi) / 2;
          (at(mid) >= 1.0 ? hi : lo) = mid;
        }
        r = at(hi);
      } else {
        r = at(1.0);
      }
      // Then each degree, highest first, down to the least power that still keeps r.
      const std::set<int, std::greater<>> lowered(degrees.begin(), degrees.end());
      for (const int deg : lowered) {
        if (deg >= tp) continue;
        auto keeps = [&](double p) {
          for (std::size_t i = 0; i < degrees.size(); ++i)
            if (degrees[i] == deg) powers[i] = p;
          return cost.replica_throughput(degrees, powers) >= r;
        };
        const double now = powers[static_cast<std::size_t>(
            std::find(degrees.begin(), degrees.end(), deg) - degrees.begin())];
        double lo = 1.0, hi = now;
        if (keeps(lo)) continue;
        while (hi - lo > 1e-9) {
          const double mid = (lo + hi) / 2;
          (keeps(mid) ? hi : lo) = mid;
        }
        keeps(hi);
      }
    }
    for (std::size_t i = 0; i < degrees.size(); ++i)
      if (degrees[i] < tp && powers[i] > 1) {
        c.extra_power_gpus += (powers[i] - 1) * degrees[i];
        ++c.boosted_domains;
      }
    total += r;
    ++c.degraded_replicas;
  };
  const auto groups = full_used + static_cast<std::int64_t>(partials.size());
  if (o.packing) {
    c.replicas = static_cast<int>(std::min<std::int64_t>(dp, groups / pp));
    const auto full_replicas = static_cast<int>(std::min<std::int64_t>(c.replicas, full_used / pp));
    total += full_replicas;
    std::vector<int> degrees(
        static_cast<std::size_t>(full_used - static_cast<std::int64_t>(full_replicas) * pp), tp);
    for (const NtpPartial& p : partials) degrees.push_back(p.degree);
    for (int r = full_replicas; r < c.replicas; ++r)
      add_degraded_replica(std::span<const int>(degrees).subspan(
          static_cast<std::size_t>(r - full_replicas) * pp, static_cast<std::size_t>(pp)));
  } else {
    std::int64_t full_left = full_used;
    std::vector<int> degrees(static_cast<std::size_t>(pp), tp);
    for (const NtpPartial& p : partials) {
      if (full_left < pp - 1 || c.replicas >= dp) break;
      full_left -= pp - 1;
      degrees.back() = p.degree;
      add_degraded_replica(degrees);
      ++c.replicas;
    }
    const int healthy = static_cast<int>(std::min<std::int64_t>(dp - c.replicas, full_left / pp));
    c.replicas += healthy;
    total += healthy;
  }
  c.min_degree = min_degree;
  c.throughput = total / dp;
  c.reshard = c.degraded_replicas > 0 ? cost.reshard_overhead(min_degree) : 0.0;
  return c;
}

void check_same(const NtpConfig& got, const std::vector<NtpDomainUse>& got_use,
                const NtpConfig& want) {
  REQUIRE(got_use.size() == want.use.size());
  for (std::size_t i = 0; i < got_use.size(); ++i) {
    REQUIRE(got_use[i].domain == want.use[i].domain);
    REQUIRE(got_use[i].full == want.use[i].full);
    REQUIRE(got_use[i].partial == want.use[i].partial);
  }
  // Same code on the same inputs in the same order: equal to the last bit.
  REQUIRE(got.replicas == want.replicas);
  REQUIRE(got.degraded_replicas == want.degraded_replicas);
  REQUIRE(got.min_degree == want.min_degree);
  REQUIRE(got.throughput == want.throughput);
  REQUIRE(got.reshard == want.reshard);
  REQUIRE(got.extra_power_gpus == want.extra_power_gpus);
  REQUIRE(got.boosted_domains == want.boosted_domains);
  REQUIRE(got.capped_domains == want.capped_domains);
  REQUIRE(got.max_power == want.max_power);
}

}  // namespace

TEST_CASE("NTP short path: the indexes give ntp_config's layout and figures on random faults") {
  // domains x (32 / tp) full groups when healthy; dp x pp a little below that, so that a few
  // faults leave the cluster short of full groups.
  const std::vector<Setting> settings = {
      {32, 2, 5, 12, 2, false, 24, {}},           {32, 1, 9, 10, 1, false, 28, {}},
      {32, 3, 3, 11, 2, false, 24, {24, 28, 30}}, {12, 2, 9, 10, 1, false, 6, {}},
      {12, 1, 18, 10, 1, false, 9, {}},           {8, 4, 8, 9, 1, false, 5, {6}},
      {12, 3, 5, 9, 1, false, 1, {2, 8, 11}},     {32, 2, 5, 12, 2, true, 24, {}},
  };
  std::mt19937_64 rng(14);
  int short_cases = 0, with_partials = 0, ties = 0, copies = 0, recalled = 0;
  std::size_t figured = 0, windows_costed = 0;
  for (const Setting& s : settings) {
    const RunPlan plan = plan_for(s);
    const Topology& topo = *plan.topology;
    REQUIRE(topo.domains() == static_cast<std::uint32_t>(s.domains));
    for (const bool packing : {true, false}) {
      for (const bool boost : {false, true}) {
        CAPTURE(s.tp);
        CAPTURE(s.pp);
        CAPTURE(s.dp);
        CAPTURE(s.min_tp);
        CAPTURE(packing);
        CAPTURE(boost);
        NtpOptions o;
        o.min_tp = s.min_tp;
        o.allowed = s.allowed;
        o.packing = packing;
        o.boost = boost;
        ClusterHealth health(topo);
        CapacityIndex caps(health, s.tp);
        NtpPartialIndex index(health, s.tp, o);
        CostMemo memo(*plan.cost);
        NtpFigures figures(s.tp, s.pp, s.dp, o, memo);  // remembered: repeats are answered from it
        int asked = 0;
        std::vector<std::uint32_t> active;
        std::vector<NtpPartial> partials;
        NtpPartialChoice choice;
        const std::int64_t needed = static_cast<std::int64_t>(s.dp) * s.pp;
        for (int step = 0; step < 600; ++step) {
          // Mostly single GPUs, sometimes a whole node; repairs keep the faults few.
          if (active.empty() || rng() % 100 < (active.size() < 6 ? 60u : 35u)) {
            const auto kind = rng() % 4 ? ComponentKind::Gpu : ComponentKind::Node;
            active.push_back(topo.id(kind, static_cast<std::uint32_t>(rng() % topo.count(kind))));
            health.fail(active.back(), nullptr);
          } else {
            const auto k = rng() % active.size();
            health.repair(active[k], nullptr);
            active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
          }
          if (step % 97 == 50) health.reset(), active.clear();  // the indexes must rebuild
          if (rng() % 3 == 0) continue;  // let changes pile up between syncs too
          caps.sync();
          index.sync();
          for (const std::uint32_t limit :
               {topo.domains(), topo.domains() - static_cast<std::uint32_t>(s.spares)}) {
            if (caps.prefix(limit) >= needed) continue;  // covering: the fast path's case
            ++short_cases;
            ++asked;
            const NtpConfig got = ntp_short_config(caps, index, limit, figures, &choice);
            const NtpConfig want = ntp_config(health, s.tp, s.pp, s.dp, o, *plan.cost, limit);
            // The threshold takes exactly the listed choice, with the same runs.
            partials.clear();
            index.best(limit, needed - caps.prefix(limit), &partials);
            const auto runs = degree_runs(partials);
            REQUIRE(runs.size() == choice.runs.size());
            for (std::size_t i = 0; i < runs.size(); ++i) {
              REQUIRE(runs[i].degree == choice.runs[i].degree);
              REQUIRE(runs[i].count == choice.runs[i].count);
            }
            for (std::uint32_t d = 0; d < limit; ++d)
              REQUIRE(index.taken(choice, d) ==
                      std::any_of(partials.begin(), partials.end(),
                                  [&](const NtpPartial& p) { return p.domain == d; }));
            check_same(got, short_use(caps, limit, partials), want);
            // And the run-length figures equal costing every replica one by one.
            NtpConfig ref =
                reference_figures(caps.prefix(limit), partials, s.tp, s.pp, s.dp, o, *plan.cost);
            CHECK(got.replicas == ref.replicas);
            CHECK(got.degraded_replicas == ref.degraded_replicas);
            CHECK(got.min_degree == ref.min_degree);
            CHECK(got.throughput == doctest::Approx(ref.throughput).epsilon(1e-12));
            CHECK(got.reshard == ref.reshard);
            CHECK(got.extra_power_gpus == doctest::Approx(ref.extra_power_gpus).epsilon(1e-12));
            CHECK(got.boosted_domains == ref.boosted_domains);
            copies += static_cast<int>(!runs.empty() && runs.front().count >= 2 * s.pp);
            with_partials += !partials.empty();
            for (std::size_t i = 1; i < partials.size(); ++i) {
              // Rank order: degree falling, then domain rising.
              REQUIRE(partials[i - 1].degree >= partials[i].degree);
              if (partials[i - 1].degree == partials[i].degree) {
                REQUIRE(partials[i - 1].domain < partials[i].domain);
                ++ties;
              }
            }
          }
        }
        recalled += asked - static_cast<int>(figures.remembered());
        figured += figures.remembered();
        windows_costed += figures.windows_remembered();
      }
    }
  }
  // The sequences reach the cases that matter.
  CHECK(short_cases > 2000);
  CHECK(with_partials > 1000);
  CHECK(ties > 100);
  CHECK(copies > 100);     // identical replicas costed once
  CHECK(recalled > 1000);  // figures answered from NtpFigures' memory, compared all the same
  // Layouts it had not seen, whose degraded replicas it had costed: far fewer stage vectors
  // costed than layouts figured (each of those with a partial group degrades a replica).
  CAPTURE(figured);
  CAPTURE(windows_costed);
  CHECK(windows_costed * 4 < figured);
}

TEST_CASE("NTP partial index: a domain's degree follows healthy % tp and the allowed degrees") {
  Setting s{12, 1, 2, 3, 0, false, 6, {7, 9}};
  const RunPlan plan = plan_for(s);
  const Topology& topo = *plan.topology;
  NtpOptions o;
  o.min_tp = 6;
  o.allowed = {7, 9};
  ClusterHealth health(topo);
  NtpPartialIndex index(health, 12, o);
  CHECK(index.degree(0) == 7);  // 32 = 2 x 12 + 8: TP7 is the highest allowed <= 8
  for (std::uint32_t g = 0; g < 3; ++g) health.fail(topo.id(ComponentKind::Gpu, g), nullptr);
  index.sync();
  CHECK(index.degree(0) == 0);  // 29 = 2 x 12 + 5: below min_tp
  CHECK(index.degree(1) == 7);
  for (std::uint32_t g = 32; g < 35; ++g) health.fail(topo.id(ComponentKind::Gpu, g), nullptr);
  for (std::uint32_t g = 64; g < 74; ++g) health.fail(topo.id(ComponentKind::Gpu, g), nullptr);
  index.sync();
  CHECK(index.degree(1) == 0);  // 29
  CHECK(index.degree(2) == 9);  // 22 = 12 + 10: TP9
  std::vector<NtpPartial> best;
  index.best(3, 5, &best);
  REQUIRE(best.size() == 1);
  CHECK(best[0].domain == 2);
  health.reset();
  index.sync();
  best.clear();
  index.best(2, 5, &best);  // rebuilt: domains 0 and 1 at TP7, domain 2 beyond the limit
  REQUIRE(best.size() == 2);
  CHECK(best[0].domain == 0);
  CHECK(best[1].domain == 1);
}
