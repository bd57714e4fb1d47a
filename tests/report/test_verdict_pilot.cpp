// What makes the verdict analysis cheap without changing what it says. Its checkpoint pilot
// (EvaluationScope::Pilot, PilotEstimate): which inputs keep, scale or simulate it, that a kept
// or scaled pilot is the closed form it claims, that a strategy whose own rules moved is piloted
// exactly as a full pilot would, and that a scaled estimate stays close to the pilot it replaces.
// Its sequential robustness worlds (RobustnessSpec::first_seeds, EvaluationScope::first_run).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/report/plausible.hpp"
#include "sim/report/robustness.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

using Pilot = EvaluationScope::Pilot;

// The small scenario with an adaptive interval, so every plan has a pilot.
Scenario adaptive(std::vector<std::string> sets = {}) {
  sets.insert(sets.begin(), "/checkpoint/interval=young");
  return small_at(sets);
}

PilotEstimate estimate_from(const RunPlan& base, bool scale, std::vector<std::size_t> simulate) {
  PilotEstimate e;
  e.measured = base.pilot;
  e.base_job_faults_per_hour = scale ? base.job_faults_per_hour : 0;
  e.simulate = std::move(simulate);
  return e;
}

}  // namespace

TEST_CASE("verdict pilot: each input keeps, scales or simulates the pilot") {
  CHECK(pilot_rule("/recovery/restart_s") == Pilot::Keep);
  CHECK(pilot_rule("/recovery/ntp_reshard_s") == Pilot::Keep);
  // Evicting or tolerating slow components changes which faults stop (and roll back) the job.
  CHECK(pilot_rule("/recovery/slow_response") == Pilot::Simulate);
  CHECK(pilot_rule("/checkpoint/save_s") == Pilot::Keep);
  CHECK(pilot_rule("/failures/rate_scale") == Pilot::Scale);
  CHECK(pilot_rule("/failures/classes/0/repair/hours") == Pilot::Scale);
  CHECK(pilot_rule("/job/virtual_stages") == Pilot::Scale);
  CHECK(pilot_rule("/cost/curve_extension") == Pilot::Scale);
  CHECK(pilot_rule("/cost/local_batch") == Pilot::Scale);
  CHECK(pilot_rule("/strategies/ntp_boost/max_power") == Pilot::Scale);
  // `goodput sensitivity` measures every pilot a price does not keep.
  CHECK(pilot_rule("/failures/rate_scale", false) == Pilot::Simulate);
  CHECK(pilot_rule("/recovery/restart_s", false) == Pilot::Keep);
  // Inputs that decide which faults roll the job back, and anything not known to be safe.
  CHECK(pilot_rule("/strategies/ntp/reconfig") == Pilot::Simulate);
  CHECK(pilot_rule("/job/tp") == Pilot::Simulate);
  CHECK(pilot_rule("/cluster/spare_domains") == Pilot::Simulate);
  // Every plausible input has a rule, and the table's prices all keep it (the switch
  // /recovery/slow_response is no price).
  for (const PlausibleRow& row : plausible_table())
    if (row.pointer.rfind("/recovery/", 0) == 0 && row.kind != PlausibleRow::Kind::Values)
      CHECK(pilot_rule(row.pointer) == Pilot::Keep);
}

TEST_CASE("verdict pilot: a kept pilot gives the plan the measured pilot gives") {
  const Scenario s = adaptive();
  const RunPlan base = make_plan(s);
  REQUIRE(base.pilot.runs == 2);
  const Scenario priced = adaptive({"/checkpoint/save_s=200"});
  const RunPlan known = make_plan(priced, 1, &base.pilot);
  const PilotEstimate kept = estimate_from(base, false, {});
  const RunPlan estimated = make_plan(priced, 1, nullptr, &kept);
  REQUIRE(known.checkpoints.size() == estimated.checkpoints.size());
  for (std::size_t i = 0; i < known.checkpoints.size(); ++i) {
    CHECK(known.checkpoints[i].interval == estimated.checkpoints[i].interval);
    CHECK(known.checkpoints[i].rollbacks_per_hour == estimated.checkpoints[i].rollbacks_per_hour);
  }
  CHECK(estimated.pilot.runs == 0);  // it measured nothing of its own
}

TEST_CASE("verdict pilot: a scaled pilot is the base's rollbacks times the ratio of job faults") {
  const Scenario s = adaptive();
  const RunPlan base = make_plan(s);
  const Scenario more = adaptive({"/failures/rate_scale=17"});
  const PilotEstimate scaled = estimate_from(base, true, {});
  const RunPlan est = make_plan(more, 1, nullptr, &scaled);
  REQUIRE(base.job_faults_per_hour > 0);
  const double ratio = est.job_faults_per_hour / base.job_faults_per_hour;
  CHECK(ratio == doctest::Approx(1.7).epsilon(1e-9));  // every class's rate, 10x -> 17x
  const double hours = 2 * s.horizon_hours;
  for (std::size_t i = 0; i < est.checkpoints.size(); ++i) {
    INFO(s.strategies[i].name);
    CHECK(est.checkpoints[i].rollbacks_per_hour ==
          doctest::Approx(static_cast<double>(base.pilot.rollbacks[i]) * ratio / hours));
    CHECK(est.checkpoints[i].reason.find("x 1.7") != std::string::npos);
  }
}

// What the estimate costs in accuracy, where it is worst: a small job whose spare domain runs out
// (dp_drop's rollbacks grow 7-fold when the rate grows 1.7-fold, hot_spares' 2-fold). An
// interval near its optimum costs only to second order in the error of its rollback rate, so
// each strategy's Goodput under the scaled pilot stays within 0.3 pp of the simulated pilot's,
// while the intervals themselves differ by up to 2x.
TEST_CASE("verdict pilot: a scaled pilot costs little Goodput where the scaling is worst") {
  const std::vector<std::string> at = {"/horizon_hours=2000", "/seeds=2"};
  auto with = [&](const char* rate) {
    std::vector<std::string> sets = at;
    sets.push_back(std::string("/failures/rate_scale=") + rate);
    return adaptive(sets);
  };
  const ScopedEvaluate mc = monte_carlo_evaluator(2);
  (void)mc(with("40"), {});  // the base: its pilot and rate are kept
  const Scenario more = with("68");
  const auto scaled = mc(more, {{}, Pilot::Scale, {}});
  const auto simulated = mc(more, {});
  const RunPlan base_plan = make_plan(with("40"));
  const RunPlan sim_plan = make_plan(more);
  double widest = 1;
  for (std::size_t i = 0; i < simulated.size(); ++i) {
    double a = 0, b = 0;
    for (const auto& m : scaled[i].runs)
      a += m.goodput / static_cast<double>(scaled[i].runs.size());
    for (const auto& m : simulated[i].runs)
      b += m.goodput / static_cast<double>(simulated[i].runs.size());
    const double ratio = sim_plan.checkpoints[i].rollbacks_per_hour /
                         std::max(1e-12, base_plan.checkpoints[i].rollbacks_per_hour * 1.7);
    widest = std::max({widest, ratio, 1 / std::max(ratio, 1e-12)});
    INFO(simulated[i].strategy << ": Goodput " << a << " (scaled pilot) vs " << b
                               << " (simulated); counted / estimated rollbacks " << ratio);
    CHECK(std::abs(a - b) < 0.003);
  }
  CHECK(widest > 1.5);  // the case is the hard one it claims to be
}

TEST_CASE("verdict pilot: a strategy whose own rules moved is piloted as a full pilot would") {
  const Scenario s = adaptive();
  const RunPlan base = make_plan(s);
  const Scenario more = adaptive({"/failures/rate_scale=17"});
  const RunPlan full = make_plan(more);
  const PilotEstimate partly = estimate_from(base, true, {1});
  const RunPlan est = make_plan(more, 1, nullptr, &partly);
  CHECK(est.checkpoints[1].rollbacks_per_hour == full.checkpoints[1].rollbacks_per_hour);
  CHECK(est.checkpoints[1].interval == full.checkpoints[1].interval);
  CHECK(est.checkpoints[1].reason == full.checkpoints[1].reason);
  CHECK(est.checkpoints[0].reason.find("x 1.7") != std::string::npos);
}

// A robustness world asks for the most demanding rule among the inputs it moves: a price alone
// keeps the pilot, a failure rate scales it, a strategy's rules pilot that strategy alone, and
// an input no rule knows simulates every strategy's.
TEST_CASE("verdict pilot: a robustness world's scope") {
  const Scenario s = small_at({R"(/strategies={"dp_drop":{},"ntp":{}})"});
  const SensitivityParam price = parse_param(s, "/recovery/restart_s=300:1800");
  const SensitivityParam rate = parse_param(s, "/failures/rate_scale=5:20");
  const SensitivityParam spares = parse_param(s, "/cluster/spare_domains=0:2");
  SwitchInput rules;
  rules.pointer = "/strategies/ntp/reconfig";
  rules.base = "inplace";
  rules.values = {"restart"};
  const std::size_t ntp = s.strategies[0].name == "ntp" ? 0 : 1;

  EvaluationScope a = world_scope(s, {price}, {}, {0.3});
  CHECK(a.pilot == Pilot::Keep);
  CHECK(a.own_pilot.empty());
  CHECK(a.strategies.empty());
  EvaluationScope b = world_scope(s, {price, rate}, {rules}, {0.3, 0.8, 0.2});  // the base value
  CHECK(b.pilot == Pilot::Scale);
  CHECK(b.own_pilot.empty());
  EvaluationScope c = world_scope(s, {price, rate}, {rules}, {0.3, 0.8, 0.9});  // "restart"
  CHECK(c.pilot == Pilot::Scale);
  REQUIRE(c.own_pilot.size() == 1);
  CHECK(c.own_pilot[0] == ntp);
  EvaluationScope d = world_scope(s, {price, spares}, {rules}, {0.3, 0.9, 0.9});
  CHECK(d.pilot == Pilot::Simulate);
  CHECK(d.own_pilot.empty());  // every strategy's is simulated anyway
  CHECK(world_scope(s, {price, rate}, {rules}, {0.3, 0.8, 0.2}, false).pilot == Pilot::Simulate);
}

// The cost model's inputs scale the pilot on the claim that strategies see them only as
// throughputs, so they do not decide which faults roll a job back: every local batch rule gives
// each strategy the pilot's rollbacks of the base, with ntp degraded replicas among them.
TEST_CASE("verdict pilot: the local batch does not move a pilot's rollbacks") {
  const std::vector<std::string> base = {
      R"(/strategies={"checkpoint_restart":{},"dp_drop":{},"ntp":{}})", "/job/microbatches=4",
      "/failures/rate_scale=40", "/horizon_hours=1000"};
  auto pilot_at = [&](const char* rule) {
    std::vector<std::string> sets = base;
    sets.push_back(std::string("/cost/local_batch=\"") + rule + "\"");
    return make_plan(adaptive(sets)).pilot;
  };
  const RunPlan::Pilot whole = pilot_at("whole_samples");
  REQUIRE(whole.runs == 2);
  std::int64_t any = 0;
  for (auto r : whole.rollbacks) any += r;
  CHECK(any > 0);
  for (const char* rule : {"whole_microbatches", "fractional"}) {
    INFO(rule);
    CHECK(pilot_at(rule).rollbacks == whole.rollbacks);
  }
}

// The sequential robustness test: each world runs its first seeds, and the rest of its seeds
// (first_run > 0) only where the first leave the leader within its 95% CI. Synthetic runs: the
// first strategy leads the second by g = restart_s / 10^4 with per-seed noise +-0.01 (seeds 0
// and 1) and -0.003 (seed 2), so two seeds separate them only when g exceeds their CI, 12.71 x
// 0.01414 / sqrt 2 = 0.127, and three seeds whenever g exceeds 0.025.
TEST_CASE("verdict pilot: a robustness world runs its last seed only where its first two tie") {
  const Scenario s = small_at({"/seeds=3"});
  const std::vector<SensitivityParam> params = {parse_param(s, "/recovery/restart_s=60:3000")};
  struct Call {
    double g;
    int seeds, first_run;
    std::vector<std::size_t> strategies;
  };
  std::vector<Call> calls;
  const ScopedEvaluate fake = [&](const Scenario& sc, const EvaluationScope& scope) {
    const double g = sc.recovery.restart_s / 1e4;
    calls.push_back({g, sc.seeds, scope.first_run, scope.strategies});
    const double noise[] = {0.01, -0.01, -0.003};
    std::vector<StrategyRuns> out;
    for (std::size_t i = 0; i < sc.strategies.size(); ++i) {
      StrategyRuns r{sc.strategies[i].name, {}};
      for (int seed = scope.first_run; seed < sc.seeds && scope.runs(i); ++seed) {
        RunMetrics m;
        m.goodput = i == 0 ? 0.9 : i == 1 ? 0.9 - g + noise[seed] : 0.5;
        r.runs.push_back(m);
      }
      out.push_back(std::move(r));
    }
    return out;
  };
  const int points = 12;
  const Robustness rb = run_robustness(s, params, {}, {points, 3, 2, false}, 0, fake);
  REQUIRE(rb.points == points);
  CHECK(rb.first_seeds == 2);
  // Every world's first two seeds are asked for first, then the extensions (a world is known by
  // its restart price).
  std::vector<double> extended_g;
  for (const Call& k : calls)
    if (k.first_run == 2) extended_g.push_back(k.g);
  int extended = 0, settled_early = 0, tied = 0;
  bool extensions_begun = false;
  for (const Call& k : calls) {
    if (k.first_run == 0) {
      CHECK(!extensions_begun);
      CHECK(k.seeds == 2);
      const bool again = std::count(extended_g.begin(), extended_g.end(), k.g) == 1;
      INFO("g = " << k.g);
      if (k.g > 0.13) CHECK(!again);  // beyond the two-seed CI
      if (k.g < 0.12) CHECK(again);
      settled_early += again ? 0 : 1;
      tied += (again && k.g < 0.024) ? 1 : 0;
    } else {
      extensions_begun = true;
      CHECK(k.first_run == 2);
      CHECK(k.seeds == 3);
      // The third strategy trails by 0.4 on both first seeds: only the two contenders run on.
      CHECK(k.strategies == std::vector<std::size_t>{0, 1});
      ++extended;
    }
  }
  CHECK(extended == rb.extended);
  CHECK(extended + settled_early == points);
  CHECK(extended > 0);
  CHECK(settled_early > 0);
  CHECK(rb.tied == tied);
  CHECK(rb.wins[0] == points - tied);
}

// A world's contenders: its leader and every rival whose paired lead from it is within the 95% CI
// or below the rounding floor; a rival behind on every seed by the same amount (CI 0) is out.
TEST_CASE("verdict pilot: a world's last seeds run for the rivals within the leader's CI") {
  SensitivityPoint pt;
  pt.per_seed = {{0.91, 0.91}, {0.81, 0.81}, {0.96, 0.84}, {0.91, 0.91}, {0.9, 0.9}};
  for (const auto& g : pt.per_seed) pt.goodput.push_back(summarize(g));
  REQUIRE(leader(pt) == 0);
  CHECK(contenders(pt, 0) == std::vector<std::size_t>{0, 2, 3});
  // Seen from a strategy that is not the leader, every rival ahead of it stays in.
  CHECK(contenders(pt, 4) == std::vector<std::size_t>{0, 2, 3, 4});
}

// An evaluation from first_run gives those runs of the whole evaluation, whether its plan is
// built again or is the evaluator's last one (the same inputs but the seed count).
TEST_CASE("verdict pilot: an evaluation from a later run gives the whole evaluation's runs") {
  const Scenario three = adaptive({"/seeds=3", "/failures/rate_scale=14"});
  const Scenario two = adaptive({"/seeds=2", "/failures/rate_scale=14"});
  const ScopedEvaluate mc = monte_carlo_evaluator(2);
  (void)mc(adaptive({"/seeds=3"}), {});  // the base pilot
  const EvaluationScope scaled{{}, Pilot::Scale, {}, 0};
  EvaluationScope rest = scaled;
  rest.first_run = 2;
  const auto whole = mc(three, scaled);
  const auto first = mc(two, scaled);
  const auto last = mc(three, rest);  // the plan of `two`, kept
  const auto fresh = monte_carlo_evaluator(2)(three, {{}, Pilot::Simulate, {}, 2});
  for (std::size_t i = 0; i < whole.size(); ++i) {
    INFO(whole[i].strategy);
    REQUIRE(whole[i].runs.size() == 3);
    REQUIRE(first[i].runs.size() == 2);
    REQUIRE(last[i].runs.size() == 1);
    for (int k = 0; k < 2; ++k) CHECK(first[i].runs[k].goodput == whole[i].runs[k].goodput);
    CHECK(last[i].runs[0].goodput == whole[i].runs[2].goodput);
    CHECK(last[i].runs[0].rollbacks == whole[i].runs[2].rollbacks);
    REQUIRE(fresh[i].runs.size() == 1);
  }
}

// The NTP prices are read only by strategies that run TP groups below the job's tp: moving them
// leaves every other strategy's runs as they were (simulated here to check the claim), so the
// analysis runs only ntp's evaluations and takes the others' from the base.
TEST_CASE("verdict pilot: the NTP prices are read by degraded-TP strategies alone") {
  const Scenario s =
      small_at({R"(/strategies={"checkpoint_restart":{},"dp_drop":{},"hot_spares":{},"ntp":{}})",
                "/seeds=2", "/failures/rate_scale=40"});
  std::size_t ntp = 0;
  for (std::size_t i = 0; i < s.strategies.size(); ++i)
    if (s.strategies[i].name == "ntp") ntp = i;
  for (const char* ptr : {"/recovery/ntp_reshard_s", "/recovery/ntp_reconfig_s"}) {
    INFO(ptr);
    const auto readers = readers_of_input(s, ptr);
    REQUIRE(readers);
    CHECK(*readers == std::vector<std::size_t>{ntp});
    const auto base = run_monte_carlo(make_plan(s), 1);
    const auto moved = run_monte_carlo(make_plan(scenario_with(s, {std::string(ptr) + "=90"})), 1);
    bool ntp_moved = false;
    for (std::size_t i = 0; i < s.strategies.size(); ++i)
      for (std::size_t k = 0; k < base[i].runs.size(); ++k) {
        if (i == ntp) {
          ntp_moved = ntp_moved || moved[i].runs[k].goodput != base[i].runs[k].goodput;
          continue;
        }
        CHECK(moved[i].runs[k].goodput == base[i].runs[k].goodput);
        CHECK(moved[i].runs[k].events == base[i].runs[k].events);
      }
    CHECK(ntp_moved);  // the claim is about a price that matters
  }
  CHECK(!readers_of_input(s, "/recovery/restart_s"));
  CHECK(readers_of_input(s, "/strategies/ntp/min_tp") == std::vector<std::size_t>{ntp});
}
