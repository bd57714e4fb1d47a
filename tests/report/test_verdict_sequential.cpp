// The verdict analysis's cheaper evaluations (issue 32 item 2): sequential ends (each range end
// and switch value runs its first seeds, the rest only where they leave a lead's sign in doubt),
// prices a strategy never read (its runs are the base's), and own pilots reused across
// evaluations (a strategy's rules piloted once at the base's failures).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/strategies/price_list.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// A made-up Goodput per (strategy, seed) from the scenario's restart_s (x, in s): strategy 0
// leads strategy 1 by (1000 - x) / 1e4 on every seed, `jitter` more on seed 1 (so two seeds may
// leave the lead's sign within their 95% CI); strategy 2 trails far behind. Records each request.
struct Fake {
  double jitter = 0;
  std::vector<std::pair<double, EvaluationScope>> asked;
  std::vector<StrategyRuns> operator()(const Scenario& sc, const EvaluationScope& scope) {
    asked.emplace_back(sc.recovery.restart_s, scope);
    const double x = sc.recovery.restart_s;
    std::vector<StrategyRuns> out;
    for (std::size_t i = 0; i < sc.strategies.size(); ++i) {
      StrategyRuns r{sc.strategies[i].name, {}};
      const bool in = scope.runs(i);
      for (int seed = scope.first_run; in && seed < sc.seeds; ++seed) {
        RunMetrics m;
        const double noise = 0.001 * seed;
        if (i == 0) m.goodput = 0.8 + noise;
        if (i == 1) m.goodput = 0.8 + noise - (1000 - x) / 1e4 - (seed == 1 ? jitter : 0);
        if (i == 2) m.goodput = 0.3 + noise;
        m.wall_hours = 100;
        m.job_failures = 10;
        r.runs.push_back(m);
      }
      out.push_back(std::move(r));
    }
    return out;
  }
  ScopedEvaluate evaluator() {
    return [this](const Scenario& sc, const EvaluationScope& sp) { return (*this)(sc, sp); };
  }
};

SensitivityRequest restart_request(const Scenario& s, double lo, double hi, int first) {
  SensitivityRequest req;
  SensitivityParam p = param_with_default_range(s, "/recovery/restart_s");
  p.lo = lo;
  p.hi = hi;
  req.params = {p};
  req.first_seeds = first;
  return req;
}

}  // namespace

TEST_CASE("sequential ends: a settled end keeps its first seeds, the others run every seed") {
  const Scenario s = small_at({"/seeds=3", "/recovery/restart_s=500"});
  // restart_s 100: strategy 0 leads by 0.09 on every seed (settled on two); 1300: it trails by
  // 0.03 (a reversed sign: a crossing lies between 500 and 1300, searched from every seed).
  Fake seq, full;
  const ScopedEvaluate ask_seq = seq.evaluator(), ask_full = full.evaluator();
  const SensitivityReport a = run_sensitivity(s, restart_request(s, 100, 1300, 2), ask_seq);
  const SensitivityReport b = run_sensitivity(s, restart_request(s, 100, 1300, 0), ask_full);
  REQUIRE(a.params.size() == 1);
  CHECK(a.ends.first_seeds == 2);
  CHECK(a.ends.evaluated == 2);
  CHECK(a.ends.extended == 1);  // the high end only
  CHECK(b.ends.first_seeds == 0);
  const SensitivityResult &pa = a.params[0], &pb = b.params[0];
  // The low end: two seeds, each the full evaluation's.
  REQUIRE(pa.lo.per_seed[0].size() == 2);
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t r = 0; r < 2; ++r) CHECK(pa.lo.per_seed[k][r] == pb.lo.per_seed[k][r]);
  // The high end ran every seed: the same point and the same crossing as all at once.
  CHECK(pa.hi.per_seed == pb.hi.per_seed);
  REQUIRE(pa.crossings[1].size() == 1);
  REQUIRE(pb.crossings[1].size() == 1);
  CHECK(pa.crossings[1][0].value == pb.crossings[1][0].value);
  CHECK(pa.crossings[1][0].ahead_below == pb.crossings[1][0].ahead_below);
  // The second seed batch asked only for the high end's last seed.
  int extensions = 0;
  for (const auto& [x, scope] : seq.asked)
    if (scope.first_run == 2) {
      ++extensions;
      CHECK(x == 1300);
    }
  CHECK(extensions == 1);
}

TEST_CASE("sequential ends: a lead whose sign two seeds leave in doubt runs every seed") {
  const Scenario s = small_at({"/seeds=3", "/recovery/restart_s=500"});
  Fake f;
  f.jitter = 0.005;  // two-seed CI about 6.35 x 0.005 = 0.032
  const ScopedEvaluate ask = f.evaluator();
  // At 100 s the lead is 0.0925 on two seeds, beyond its CI; at 900 s 0.0125, within it.
  const SensitivityReport a = run_sensitivity(s, restart_request(s, 100, 900, 2), ask);
  CHECK(a.ends.extended == 1);
  CHECK(a.params[0].lo.per_seed[0].size() == 2);
  CHECK(a.params[0].hi.per_seed[0].size() == 3);
  CHECK(a.params[0].crossings[1].empty());
  // Two strategies with the same runs tie, whatever rounding says: nothing is settled.
  Fake same;
  const ScopedEvaluate twins = [&](const Scenario& sc, const EvaluationScope& sp) {
    std::vector<StrategyRuns> out = same(sc, sp);
    if (out[1].runs.size() == out[0].runs.size())
      for (std::size_t r = 0; r < out[1].runs.size(); ++r)
        out[1].runs[r].goodput = std::nextafter(out[0].runs[r].goodput, 0.0);  // one ulp
    return out;
  };
  const SensitivityReport t = run_sensitivity(s, restart_request(s, 100, 900, 2), twins);
  CHECK(t.ends.extended == 2);
  // Without the jitter both are settled on two seeds.
  f.jitter = 0;
  const SensitivityReport b = run_sensitivity(s, restart_request(s, 100, 900, 2), ask);
  CHECK(b.ends.extended == 0);
  CHECK(b.params[0].hi.per_seed[0].size() == 2);
}

TEST_CASE("sequential ends: a crossing between two ends starts from every seed of both") {
  // The scenario's value outside the range: a crossing is searched between the ends when they
  // disagree, so the end left at its first seeds runs the rest before the search.
  const Scenario s = small_at({"/seeds=3", "/recovery/restart_s=200"});
  Fake seq, full;
  const ScopedEvaluate ask_seq = seq.evaluator(), ask_full = full.evaluator();
  const SensitivityReport a = run_sensitivity(s, restart_request(s, 300, 1400, 2), ask_seq);
  const SensitivityReport b = run_sensitivity(s, restart_request(s, 300, 1400, 0), ask_full);
  CHECK(a.ends.extended == 2);
  CHECK(a.params[0].lo.per_seed == b.params[0].lo.per_seed);
  CHECK(a.params[0].hi.per_seed == b.params[0].hi.per_seed);
  REQUIRE(a.params[0].crossings[1].size() == 1);
  REQUIRE(b.params[0].crossings[1].size() == 1);
  CHECK(a.params[0].crossings[1][0].value == b.params[0].crossings[1][0].value);
  CHECK(std::abs(a.params[0].crossings[1][0].value - 1000) < 1);
}

// A price a strategy's runs never read leaves them as they were: checked by simulating both
// values, for the strategies the analysis leaves out, and the price must matter to another.
TEST_CASE("price readers: a strategy that never read a price keeps its runs when it moves") {
  const Scenario s =
      small_at({R"(/strategies={"checkpoint_restart":{},"dp_drop":{},"hot_spares":{}})", "/seeds=2",
                "/failures/rate_scale=40", "/checkpoint/interval=daly"});
  const auto base = run_monte_carlo(make_plan(s), 1);
  for (const char* ptr :
       {"/recovery/spare_swap_s", "/recovery/communicator_rebuild_s", "/checkpoint/load_s"}) {
    INFO(ptr);
    REQUIRE(price_only_mechanisms(s, ptr) != 0);
    const auto readers = readers_of_input(s, ptr, base);
    REQUIRE(readers);
    CHECK(readers->size() < s.strategies.size());  // someone never read it
    CHECK(!readers->empty());                      // and someone did
    const auto moved =
        run_monte_carlo(make_plan(scenario_with(s, {std::string(ptr) + "=1000"})), 1);
    bool reader_moved = false;
    for (std::size_t i = 0; i < s.strategies.size(); ++i) {
      const bool reads = std::find(readers->begin(), readers->end(), i) != readers->end();
      for (std::size_t k = 0; k < base[i].runs.size(); ++k) {
        if (reads) {
          reader_moved = reader_moved || moved[i].runs[k].goodput != base[i].runs[k].goodput;
          continue;
        }
        CHECK(moved[i].runs[k].goodput == base[i].runs[k].goodput);
        CHECK(moved[i].runs[k].events == base[i].runs[k].events);
      }
    }
    CHECK(reader_moved);
  }
  // Inputs read beyond the price list keep every strategy.
  CHECK(price_only_mechanisms(s, "/recovery/restart_s") == 0);  // the failures' restart repairs
  CHECK(price_only_mechanisms(s, "/checkpoint/save_s") == 0);   // every checkpoint
  CHECK(price_only_mechanisms(small_at({"/checkpoint/interval=availability_optimal"}),
                              "/checkpoint/load_s") == 0);  // the restart in the interval
  // Runs that say nothing of what they read (e.g. records read back) read everything.
  std::vector<StrategyRuns> unknown = base;
  for (auto& r : unknown)
    for (auto& m : r.runs) m.prices_read = ~0u;
  CHECK(!readers_of_input(s, "/recovery/spare_swap_s", unknown));
}

// A strategy's rules piloted once under Keep (the base's failures) are reused, scaled, by a later
// evaluation that moves the failures and flips the same rules: its plan is the one an estimate
// with that measured pilot gives.
TEST_CASE("own pilots: a strategy's rules piloted at the base's failures are reused, scaled") {
  const Scenario s =
      small_at({R"(/strategies={"checkpoint_restart":{},"dp_drop":{},"ntp":{}})", "/seeds=2",
                "/checkpoint/interval=young", "/failures/rate_scale=20"});
  const RunPlan base = make_plan(s);
  REQUIRE(base.pilot.runs > 0);
  const MonteCarloEvaluators ev = monte_carlo_evaluators(1, base.pilot, base.job_faults_per_hour);
  // ntp's rules, other than the scenario's (a restart that rolls back): its own pilot, Keep.
  const std::size_t ntp = 2;
  REQUIRE(s.strategies[ntp].name == "ntp");
  const Scenario rules =
      scenario_with(s, {R"(/strategies/ntp={"reconfig":"restart","in_memory_recovery":false})"});
  EvaluationScope keep{{ntp}, EvaluationScope::Pilot::Keep, {ntp}, 0};
  name_own_pilots(rules, keep);
  REQUIRE(keep.own_pilot_rules.size() == 1);
  (void)ev.one(rules, keep);
  // The world: the same rules, 3.5 times the failures.
  const Scenario world = scenario_with(rules, {"/failures/rate_scale=70"});
  EvaluationScope scale{{ntp}, EvaluationScope::Pilot::Scale, {ntp}, 0};
  name_own_pilots(world, scale);
  CHECK(scale.own_pilot_rules == keep.own_pilot_rules);
  const auto got = ev.one(world, scale);
  // Expected: the rules' pilot measured at the base's failures, scaled to the world's.
  Scenario only_rules = rules;
  only_rules.strategies = {rules.strategies[ntp]};
  PilotEstimate measure;
  measure.measured = {base.pilot.runs, {base.pilot.rollbacks[ntp]}};
  measure.simulate = {0};
  const RunPlan piloted = make_plan(only_rules, 1, nullptr, &measure);
  REQUIRE(piloted.simulated_rollbacks.size() == 1);
  CHECK(piloted.simulated_rollbacks[0] > 0);
  Scenario only_world = world;
  only_world.strategies = {world.strategies[ntp]};
  PilotEstimate reuse;
  reuse.measured = {base.pilot.runs, {piloted.simulated_rollbacks[0]}};
  reuse.base_job_faults_per_hour = base.job_faults_per_hour;
  const auto expected = run_monte_carlo(make_plan(only_world, 1, nullptr, &reuse), 1);
  REQUIRE(got[ntp].runs.size() == expected[0].runs.size());
  for (std::size_t k = 0; k < expected[0].runs.size(); ++k)
    CHECK(got[ntp].runs[k].goodput == expected[0].runs[k].goodput);
  // The world's own pilot, simulated, gives another interval (the reuse is not a no-op).
  PilotEstimate own = reuse;
  own.simulate = {0};
  CHECK(make_plan(only_world, 1, nullptr, &own).checkpoints[0].interval !=
        make_plan(only_world, 1, nullptr, &reuse).checkpoints[0].interval);
  // Other rules are not taken for these.
  EvaluationScope other = scale;
  name_own_pilots(s, other);
  CHECK(other.own_pilot_rules != keep.own_pilot_rules);
}
