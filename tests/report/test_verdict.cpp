// A verdict robust to what we don't know (issue 27, item 4): the plausible table, the root
// finder, the Latin hypercube and rank correlation against closed forms; the break-even against
// a rival that is not the runner-up against a direct bisection; the robustness share against
// the same sampler points evaluated directly; switches; and thread-count invariance.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "sim/report/plausible.hpp"
#include "sim/report/robustness.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// Synthetic runs: strategy i's Goodput per seed is mean[i] + 0.001 * seed * noise[i].
std::vector<StrategyRuns> synthetic(const std::vector<std::string>& names,
                                    const std::vector<double>& mean, double noise = 0) {
  std::vector<StrategyRuns> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    StrategyRuns r{names[i], {}};
    for (int seed = 0; seed < 4; ++seed) {
      RunMetrics m;
      m.goodput = mean[i] + noise * ((seed % 2) ? 1 : -1) * static_cast<double>(i);
      m.job_failures = 100;
      m.wall_hours = 200;
      r.runs.push_back(m);
    }
    out.push_back(std::move(r));
  }
  return out;
}

double mean_lead(const std::vector<StrategyRuns>& runs, std::size_t a, std::size_t b) {
  double sum = 0;
  for (std::size_t k = 0; k < runs[a].runs.size(); ++k)
    sum += runs[a].runs[k].goodput - runs[b].runs[k].goodput;
  return sum / static_cast<double>(runs[a].runs.size());
}

}  // namespace

TEST_CASE("verdict: the plausible table applies by scenario, derived prices and switches") {
  const Scenario d =
      load_scenario(std::string(GOODPUT_REPORT_TEST_DATA) + "/../../../scenarios/default.json");
  const PlausibleInputs in = plausible_inputs(d);
  auto number = [&](const std::string& ptr) -> const SensitivityParam* {
    for (const auto& p : in.numbers)
      if (p.pointer == ptr) return &p;
    return nullptr;
  };
  REQUIRE(number("/recovery/state_copy_s"));
  CHECK(number("/recovery/state_copy_s")->derived);  // the default scenario leaves it derived
  CHECK(std::isnan(number("/recovery/state_copy_s")->base));
  REQUIRE(number("/recovery/detection_s"));
  CHECK(number("/recovery/detection_s")->lo == 30);
  CHECK(number("/recovery/detection_s")->hi == 600);
  CHECK(!number("/recovery/detection_s")->source.empty());
  REQUIRE(number("/strategies/ntp_boost/max_power"));
  REQUIRE(number("/failures/rate_scale"));
  CHECK(number("/failures/rate_scale")->lo == doctest::Approx(2.34 / 3.8));
  bool stages = false;
  for (const auto& sw : in.switches)
    if (sw.pointer == "/job/virtual_stages") {
      stages = true;
      CHECK(sw.base == 1);
      CHECK(sw.values == std::vector<Json>{2, 4});  // the base excluded
    }
  CHECK(stages);
  // A scenario without ntp strategies has no ntp rows; a relative row follows its value.
  const Scenario s = small_at({});
  for (const auto& p : plausible_inputs(s).numbers) {
    CHECK(p.pointer.find("/strategies/ntp") == std::string::npos);
    if (p.pointer == "/failures/rate_scale") CHECK(p.lo == doctest::Approx(10 * 2.34 / 3.8));
  }
  for (const auto& sw : plausible_inputs(s).switches)
    CHECK(sw.pointer.find("/strategies/ntp") == std::string::npos);
  CHECK(plausible_table_markdown().find("`/recovery/detection_s`") != std::string::npos);
  // What is done about slow components is a switch only where a failure class is slow.
  for (const auto& sw : in.switches) CHECK(sw.pointer != "/recovery/slow_response");
  const Scenario slow =
      load_scenario(std::string(GOODPUT_REPORT_TEST_DATA) + "/../../../scenarios/fail-slow.json");
  bool response = false;
  for (const auto& sw : plausible_inputs(slow).switches)
    if (sw.pointer == "/recovery/slow_response") {
      response = true;
      CHECK(sw.base == "declared");
      CHECK(sw.values == std::vector<Json>{"tolerate", "evict"});
    }
  CHECK(response);
}

TEST_CASE("verdict: regula falsi with a probe brackets a linear crossing in two evaluations") {
  int calls = 0;
  auto linear = [&](double x) {
    ++calls;
    return 225.0 - x;
  };
  const double width = (960.0 - 15) / 4096;
  const Bracket b = break_even_secant(linear, 15, 960, linear(15), linear(960), width, 24);
  CHECK(b.evaluations == calls - 2);
  CHECK(b.evaluations <= 2);
  CHECK(b.hi - b.lo <= width);
  CHECK(b.lo < 225);
  CHECK(b.hi >= 225);  // the lead is 0 at 225: not ahead
  // Non-linear, steep near one end: still bracketed, within the cap.
  auto cubic = [](double v) { return std::pow(v / 100, 3) - 2; };
  const Bracket c = break_even_secant(cubic, 0, 400, cubic(0), cubic(400), 400.0 / 4096, 24);
  CHECK(c.evaluations <= 24);
  CHECK(c.hi - c.lo <= 400.0 / 4096);
  CHECK(cubic(c.lo) <= 0);
  CHECK(cubic(c.hi) > 0);
  // A step (what a Monte Carlo difference can look like): bisection steps keep it converging.
  auto step = [](double v) { return v < 123.4 ? 1.0 : -1.0; };
  const Bracket st = break_even_secant(step, 0, 1000, 1, -1, 1000.0 / 4096, 40);
  CHECK(st.hi - st.lo <= 1000.0 / 4096);
  CHECK(st.lo < 123.4);
  CHECK(st.hi >= 123.4);
  // The cap stops it with a valid, coarser bracket.
  const Bracket capped = break_even_secant(step, 0, 1000, 1, -1, 1e-9, 3);
  CHECK(capped.evaluations == 3);
  CHECK(capped.lo < 123.4);
  CHECK(capped.hi >= 123.4);
}

TEST_CASE("verdict: the Latin hypercube stratifies every axis and depends only on the seed") {
  const auto u = latin_hypercube(10, 3, 7);
  REQUIRE(u.size() == 10);
  for (int d = 0; d < 3; ++d) {
    std::set<int> cells;
    for (const auto& p : u) cells.insert(static_cast<int>(p[static_cast<std::size_t>(d)] * 10));
    CHECK(cells.size() == 10);  // one point per cell
  }
  CHECK(latin_hypercube(10, 3, 7) == u);
  CHECK(latin_hypercube(10, 3, 8) != u);
  SensitivityParam p;
  p.lo = 10;
  p.hi = 1000;
  CHECK(plausible_value(p, 0.5) == doctest::Approx(100));  // log-uniform: the geometric middle
  p.lo = 0;
  CHECK(plausible_value(p, 0.5) == doctest::Approx(500));
  SwitchInput sw{"/x", 1, {2, 4}, ""};
  CHECK(switch_index(sw, 0.1) == 0);
  CHECK(switch_index(sw, 0.5) == 1);
  CHECK(switch_index(sw, 0.99) == 2);
}

// ntp's and ntp_boost's reconfig describe one framework: a plausible world moves them together
// (the later switch reads the earlier one's coordinate), unless the scenario sets them apart.
TEST_CASE("verdict: one setting of two strategies moves together in every plausible world") {
  const std::vector<SensitivityParam> two(2);
  const std::vector<SwitchInput> switches = {
      {"/job/virtual_stages", 1, {2, 4}, ""},
      {"/strategies/ntp/reconfig", "inplace", {"restart"}, ""},
      {"/strategies/ntp_boost/reconfig", "inplace", {"restart"}, ""},
      {"/strategies/other/reconfig", "restart", {"inplace"}, ""},
      {"/strategies/ntp_boost/mode", "inplace", {"restart"}, ""}};
  CHECK(switch_coordinates(two, switches) == std::vector<std::size_t>{2, 3, 3, 5, 6});
  // ntp_boost's own coordinate (0.9) would say "restart"; it reads ntp's (0.2): "inplace".
  const std::vector<double> u = {0.5, 0.5, 0.1, 0.2, 0.9, 0.9, 0.9};
  SensitivityParam a, b;
  a.pointer = "/recovery/detection_s";
  a.lo = 30;
  a.hi = 600;
  b.pointer = "/recovery/restart_s";
  b.lo = 300;
  b.hi = 1800;
  const auto at = world_assignments({a, b}, switches, u);
  REQUIRE(at.size() == 7);
  CHECK(at[3] == "/strategies/ntp/reconfig=\"inplace\"");
  CHECK(at[4] == "/strategies/ntp_boost/reconfig=\"inplace\"");
  CHECK(at[5] == "/strategies/other/reconfig=\"inplace\"");  // set apart: its own coordinate
  CHECK(at[6] == "/strategies/ntp_boost/mode=\"restart\"");  // another setting
  // The default scenario's worlds: ntp and ntp_boost reconfigure alike in each, and both ways
  // occur; a scenario that sets them apart samples them apart.
  const std::string dir = std::string(GOODPUT_REPORT_TEST_DATA) + "/../../../scenarios/";
  for (const bool apart : {false, true}) {
    const Scenario d =
        apart ? load_scenario(dir + "default.json", {"/strategies/ntp_boost/reconfig=\"restart\""})
              : load_scenario(dir + "default.json");
    const PlausibleInputs in = plausible_inputs(d);
    const auto points =
        latin_hypercube(16, static_cast<int>(in.numbers.size() + in.switches.size()), d.seed);
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& p : points) {
      std::string ntp, boost;
      for (const auto& x : world_assignments(in.numbers, in.switches, p)) {
        if (x.rfind("/strategies/ntp/reconfig=", 0) == 0) ntp = x.substr(x.find('='));
        if (x.rfind("/strategies/ntp_boost/reconfig=", 0) == 0) boost = x.substr(x.find('='));
      }
      REQUIRE(!ntp.empty());
      REQUIRE(!boost.empty());
      seen.insert({ntp, boost});
    }
    if (apart) {
      CHECK(seen.size() > 2);  // the two switches independent: mixed worlds occur
    } else {
      CHECK(seen == std::set<std::pair<std::string, std::string>>{
                        {"=\"inplace\"", "=\"inplace\""}, {"=\"restart\"", "=\"restart\""}});
    }
  }
}

// The deciding input names the switches sampled with it (they have its values, so its rank
// correlation); an input moved alone is named alone.
TEST_CASE("verdict: a deciding switch moved with another strategy's is named with it") {
  SensitivityReport r;
  r.strategies = {"dp_drop", "ntp", "ntp_boost"};
  r.winner = 0;
  Robustness& rb = r.robustness;
  rb.points = 16;
  rb.seeds = 2;
  rb.wins = {14, 0, 2};
  rb.inputs = {"/recovery/detection_s", "/strategies/ntp/reconfig",
               "/strategies/ntp_boost/reconfig"};
  rb.moves_with = {0, 1, 1};
  rb.rank_correlation = {0.2, -0.87, -0.87};
  rb.deciding_input = "/strategies/ntp/reconfig";
  CHECK(robustness_sentence(r).find(
            "the deciding input is /strategies/ntp/reconfig (moved with "
            "/strategies/ntp_boost/reconfig; rank correlation -0.87 with dp_drop's gap") !=
        std::string::npos);
  rb.rank_correlation = {0.9, -0.87, -0.87};
  rb.deciding_input = "/recovery/detection_s";
  CHECK(robustness_sentence(r).find("the deciding input is /recovery/detection_s (rank "
                                    "correlation +0.90") != std::string::npos);
}

TEST_CASE("verdict: Spearman's rank correlation against closed forms") {
  CHECK(spearman({1, 2, 3, 4}, {10, 20, 30, 1000}) == doctest::Approx(1));
  CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == doctest::Approx(-1));
  CHECK(spearman({1, 1, 1}, {1, 2, 3}) == 0);
  // Ranks 1,2,3,4,5 against 2,1,4,3,5: 1 - 6 * 4 / (5 * 24) = 0.8.
  CHECK(spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}) == doctest::Approx(0.8));
}

// Three strategies; the lead of a over c (not the runner-up, b) changes sign at x = 300 in
// /recovery/communicator_rebuild_s, that over b never: the crossing against c is found, the
// one against b is not, and the evaluations are shared.
TEST_CASE("verdict: break-evens against every rival share evaluations (synthetic closed form)") {
  const Scenario s = small_at({"/recovery/communicator_rebuild_s=100"});
  int calls = 0;
  const Evaluate fake = [&](const Scenario& sc) {
    ++calls;
    const double x = sc.recovery.communicator_rebuild_s;
    return synthetic({"a", "b", "c"}, {0.95, 0.90, 0.94 + (x - 100) * 0.01 / 200});
  };
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/communicator_rebuild_s=0:1000")};
  const SensitivityReport r = run_sensitivity(s, req, fake);
  REQUIRE(r.strategies[r.winner] == "a");
  CHECK(r.strategies[r.runner_up] == "c");
  const SensitivityResult& res = r.params[0];
  CHECK(res.crossings[1].empty());  // b: never
  REQUIRE(res.crossings[2].size() == 1);
  CHECK(std::abs(res.crossings[2][0].value - 300) <= res.crossings[2][0].resolution + 1e-9);
  CHECK(res.crossings[2][0].resolution <= 900.0 / 8192);
  CHECK(calls == 1 + res.evaluations);  // each value once, for both rivals
  CHECK(break_even_sentence(r, res, 2) ==
        "a stays ahead of c while /recovery/communicator_rebuild_s < ~300 s");
  // Seconds of stall per fault: the 0.05 pp lead over b x 200 h / 100 faults = 360 s.
  CHECK(stall_per_fault_s(r.base, 1) == doctest::Approx(0.05 * 200 * 3600 / 100));
}

// The Monte Carlo: on the small scenario with spares, hot_spares against every rival over the
// spare swap-in. Each crossing against a rival other than the runner-up lies where direct runs
// of the scenario (loaded with --set) change sign, and matches a direct bisection.
TEST_CASE(
    "verdict: a break-even against a rival other than the runner-up matches a direct "
    "bisection") {
  const std::vector<std::string> sets = {"/cluster/spare_domains=4", "/seeds=4"};
  const Scenario s = small_at(sets);
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/spare_swap_s=0:20000")};
  const SensitivityReport r = run_sensitivity(s, req, monte_carlo_evaluator(2));
  const SensitivityResult& res = r.params[0];
  auto lead_at = [&](std::size_t k, double v) {
    auto o = sets;
    o.push_back("/recovery/spare_swap_s=" + Json(v).dump());
    return mean_lead(run_monte_carlo(make_plan(small_at(o)), 2), r.winner, k);
  };
  int checked = 0;
  for (std::size_t k = 0; k < r.strategies.size(); ++k) {
    if (k == r.winner || k == r.runner_up) continue;
    for (const Crossing& c : res.crossings[k]) {
      INFO(r.strategies[r.winner] << " against " << r.strategies[k] << " at " << c.value);
      CHECK((lead_at(k, c.value - c.resolution) > 0) != (lead_at(k, c.value + c.resolution) > 0));
      const double a = c.ahead_below ? res.param.base : res.param.lo;
      const double b = c.ahead_below ? res.param.hi : res.param.base;
      // The direct bisection: 12 halvings of the same bracket, on direct runs.
      double lo = a, hi = b;
      const bool pos_lo = lead_at(k, lo) > 0;
      for (int i = 0; i < kBreakEvenIterations; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((lead_at(k, mid) > 0) == pos_lo ? lo : hi) = mid;
      }
      CHECK(std::abs(c.value - 0.5 * (lo + hi)) <= c.resolution + 0.5 * (hi - lo) + 1e-9);
      ++checked;
    }
  }
  CHECK_MESSAGE(checked > 0, "no crossing against a rival other than the runner-up: "
                                 << r.strategies[r.winner] << " leads "
                                 << r.strategies[r.runner_up]);
}

// The robustness share: the same Latin hypercube points loaded with --set and run directly,
// the leader and tie rule written out again here, give the same counts and deciding input.
TEST_CASE("verdict: the robustness share equals the sampler's points evaluated directly") {
  const Scenario s = small_at({"/cluster/spare_domains=2", "/seeds=4"});
  const std::vector<SensitivityParam> params = {parse_param(s, "/recovery/spare_swap_s=0:4000"),
                                                parse_param(s, "/recovery/restart_s=60:3000"),
                                                parse_param(s, "/cluster/spare_domains=0:3")};
  const int points = 8, seeds = 3;
  const Robustness rb =
      run_robustness(s, params, {}, {points, seeds, 0, true}, 0, monte_carlo_evaluator(2));
  CHECK(rb.points + rb.refused == points);
  CHECK(rb.seeds == seeds);
  std::vector<int> wins(s.strategies.size(), 0);
  int tied = 0;
  std::vector<std::vector<double>> axis(params.size());
  std::vector<double> gap;
  for (const auto& u : latin_hypercube(points, static_cast<int>(params.size()), s.seed)) {
    std::vector<std::string> o = {"/cluster/spare_domains=2", "/seeds=" + std::to_string(seeds)};
    for (std::size_t j = 0; j < params.size(); ++j) {
      const double v = plausible_value(params[j], u[j]);
      o.push_back(assignment(params[j], v));
      axis[j].push_back(v);
    }
    const auto runs = run_monte_carlo(make_plan(small_at(o)), 1);
    std::vector<double> mean;
    for (const auto& r : runs) {
      double sum = 0;
      for (const auto& m : r.runs) sum += m.goodput;
      mean.push_back(sum / static_cast<double>(r.runs.size()));
    }
    std::size_t lead = 0, second = 1;
    for (std::size_t k = 0; k < mean.size(); ++k)
      if (mean[k] > mean[lead]) lead = k;
    second = lead == 0 ? 1 : 0;
    for (std::size_t k = 0; k < mean.size(); ++k)
      if (k != lead && mean[k] > mean[second]) second = k;
    std::vector<double> a, b;
    for (std::size_t n = 0; n < runs[lead].runs.size(); ++n) {
      a.push_back(runs[lead].runs[n].goodput);
      b.push_back(runs[second].runs[n].goodput);
    }
    const Summary d = summarize_difference(a, b);
    if (d.mean > d.ci95)
      ++wins[lead];
    else
      ++tied;
    double best_other = -1;
    for (std::size_t k = 1; k < mean.size(); ++k) best_other = std::max(best_other, mean[k]);
    gap.push_back(mean[0] - best_other);
  }
  CHECK(rb.wins == wins);
  CHECK(rb.tied == tied);
  std::size_t best = 0;
  for (std::size_t j = 0; j < params.size(); ++j) {
    CHECK(rb.rank_correlation[j] == doctest::Approx(spearman(axis[j], gap)));
    if (std::abs(spearman(axis[j], gap)) > std::abs(spearman(axis[best], gap))) best = j;
  }
  CHECK(rb.deciding_input == params[best].pointer);
}

TEST_CASE("verdict: a switch that changes the winner says so and a tie is called a tie") {
  const Scenario s = small_at({});
  const Evaluate fake = [&](const Scenario& sc) {
    // local_batch fractional: b leads clearly; the base (whole samples): a leads clearly.
    return sc.cost.local_batch == CostSpec::LocalBatch::WholeSamples
               ? synthetic({"a", "b", "c"}, {0.95, 0.90, 0.80})
               : synthetic({"a", "b", "c"}, {0.90, 0.95, 0.80});
  };
  SensitivityRequest req;
  req.switches = {{"/cost/local_batch", "whole_samples", {"fractional"}, "test"}};
  const SensitivityReport r = run_sensitivity(s, req, fake);
  REQUIRE(r.switches.size() == 1);
  CHECK(switch_sentence(r, r.switches[0])
            .find("\"fractional\" → b wins — flipping it changes the winner") != std::string::npos);
  // Noise as large as the gap: tied, not a win.
  const Evaluate noisy = [&](const Scenario&) {
    return synthetic({"a", "b"}, {0.95, 0.9499}, 0.01);
  };
  SensitivityRequest req2;
  req2.switches = {{"/cost/local_batch", "whole_samples", {"fractional"}, "test"}};
  const SensitivityReport r2 = run_sensitivity(s, req2, noisy);
  CHECK(switch_sentence(r2, r2.switches[0]).find("tied") != std::string::npos);
}

TEST_CASE(
    "verdict: break-evens, switches and the robustness line do not depend on the thread "
    "count") {
  const Scenario s = small_at({"/seeds=3", "/cluster/spare_domains=2"});
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/spare_swap_s=0:4000"),
                parse_param(s, "/recovery/restart_s")};
  req.switches = {{"/checkpoint/save_mode", "blocking", {"async"}, "test"}};
  req.robustness_points = 5;
  req.robustness_seeds = 2;
  const SensitivityReport one = run_sensitivity(s, req, monte_carlo_evaluator(1));
  const SensitivityReport three = run_sensitivity(s, req, monte_carlo_evaluator(3));
  CHECK(sensitivity_json(one).dump() == sensitivity_json(three).dump());
  CHECK(sensitivity_markdown(one) == sensitivity_markdown(three));
  CHECK(sensitivity_html(one) == sensitivity_html(three));
  CHECK(one.robustness.points + one.robustness.refused == 5);
  CHECK(!robustness_sentence(one).empty());
  CHECK(robustness_sentence(one).find("significan") == std::string::npos);
}

// A derived price (the scenario leaves /recovery/state_copy_s unset): no point of the axis is
// the scenario's, so the crossing is searched between the plausible ends, and report.json says
// base null.
TEST_CASE("verdict: a derived price is searched between its plausible ends") {
  const Scenario s = small_at({});
  const SensitivityParam* copy = nullptr;
  const PlausibleInputs in = plausible_inputs(s);
  for (const auto& p : in.numbers)
    if (p.pointer == "/recovery/state_copy_s") copy = &p;
  REQUIRE(copy);
  REQUIRE(copy->derived);
  int calls = 0;
  const Evaluate fake = [&](const Scenario& sc) {
    ++calls;
    const double x = std::max(0.0, sc.recovery.state_copy_s);  // derived: < 0
    return synthetic({"a", "b"}, {0.95, 0.95 - (100 - x) / 1e4});
  };
  SensitivityRequest req;
  req.params = {*copy};
  const SensitivityReport r = run_sensitivity(s, req, fake);
  const auto& c = r.params[0].crossings[1];
  REQUIRE(c.size() == 1);
  CHECK(c[0].ahead_below);
  CHECK(std::abs(c[0].value - 100) <= c[0].resolution + 1e-9);
  CHECK(calls == 1 + r.params[0].evaluations);
  const Json j = verdict_dependencies_json(r);
  CHECK(j["inputs"][0]["base"].is_null());
  CHECK(j["rivals"][0]["inputs"][0]["crossings"].size() == 1);
}

// The cheap path of issue 32 item 2. A subset of the strategies evaluates to exactly the runs the
// whole list gives them (each strategy replays the same faults on its own), the others left
// empty under their names.
TEST_CASE("verdict: a subset of the strategies evaluates to the same runs as the whole list") {
  const Scenario s = small_at({"/checkpoint/interval=young", "/seeds=3"});
  const ScopedEvaluate mc = monte_carlo_evaluator(2);
  const auto whole = mc(s, {});
  const auto part = mc(s, {{0, 2}, EvaluationScope::Pilot::Simulate, {}});
  REQUIRE(whole.size() == 3);
  REQUIRE(part.size() == 3);
  CHECK(part[1].strategy == whole[1].strategy);
  CHECK(part[1].runs.empty());
  for (std::size_t i : {std::size_t{0}, std::size_t{2}}) {
    CHECK(part[i].strategy == whole[i].strategy);
    REQUIRE(part[i].runs.size() == whole[i].runs.size());
    for (std::size_t k = 0; k < whole[i].runs.size(); ++k) {
      CHECK(part[i].runs[k].goodput == whole[i].runs[k].goodput);
      CHECK(part[i].runs[k].wall_hours == whole[i].runs[k].wall_hours);
      CHECK(part[i].runs[k].rollbacks == whole[i].runs[k].rollbacks);
    }
  }
  // Keep or Scale on the unmodified scenario: the base's rollbacks are what the pilot would count
  // (times 1: the same expected faults), so the runs are the same again.
  const auto kept = mc(s, {{1}, EvaluationScope::Pilot::Keep, {}});
  const auto scaled = mc(s, {{1}, EvaluationScope::Pilot::Scale, {}});
  REQUIRE(scaled[1].runs.size() == whole[1].runs.size());
  for (std::size_t k = 0; k < whole[1].runs.size(); ++k)
    CHECK(scaled[1].runs[k].goodput == whole[1].runs[k].goodput);
  REQUIRE(kept[1].runs.size() == whole[1].runs.size());
  for (std::size_t k = 0; k < whole[1].runs.size(); ++k)
    CHECK(kept[1].runs[k].goodput == whole[1].runs[k].goodput);
}

// What each evaluation asks for: a price keeps the pilot, a power cap scales it; a root search runs
// the winner and one rival; an input of one strategy runs that strategy alone and takes the others
// from the base. And the break-even the cheap path finds (subsets, the pilot kept, stopping at the
// sampling precision) lies within both brackets of the full search (every strategy, its own pilot,
// 12 halvings).
TEST_CASE("verdict: the cheap path asks for what it needs and finds the full search's break-even") {
  const std::vector<std::string> sets = {"/cluster/spare_domains=4", "/seeds=4",
                                         "/checkpoint/interval=young"};
  const Scenario s = small_at(sets);
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/spare_swap_s=0:20000")};
  std::vector<EvaluationScope> scopes;
  const ScopedEvaluate mc = monte_carlo_evaluator(2);
  const ScopedEvaluate recording = [&](const Scenario& sc, const EvaluationScope& scope) {
    scopes.push_back(scope);
    return mc(sc, scope);
  };
  SensitivityRequest cheap_req = req;
  cheap_req.sampling_precision = true;
  const SensitivityReport cheap = run_sensitivity(s, cheap_req, recording);
  REQUIRE(scopes.size() >= 3);
  CHECK(scopes[0].strategies.empty());  // the base: every strategy, its own pilot
  CHECK(scopes[0].pilot == EvaluationScope::Pilot::Simulate);
  for (std::size_t i = 1; i < scopes.size(); ++i) {
    CHECK(scopes[i].pilot == EvaluationScope::Pilot::Keep);  // a price
    CHECK((scopes[i].strategies.empty() || scopes[i].strategies.size() == 3 ||
           scopes[i].strategies.size() <= 2));
  }
  int pairs = 0;
  for (std::size_t i = 3; i < scopes.size(); ++i) pairs += scopes[i].strategies.size() <= 2;
  const Evaluate full_mc = [](const Scenario& sc) { return run_monte_carlo(make_plan(sc), 2); };
  const SensitivityReport full = run_sensitivity(s, req, full_mc);
  REQUIRE(full.winner == cheap.winner);
  int compared = 0;
  for (std::size_t k = 0; k < full.strategies.size(); ++k) {
    const auto& f = full.params[0].crossings[k];
    const auto& c = cheap.params[0].crossings[k];
    REQUIRE(f.size() == c.size());
    for (std::size_t j = 0; j < f.size(); ++j) {
      INFO(cheap.strategies[k] << ": cheap " << c[j].value << " +- " << c[j].resolution << ", full "
                               << f[j].value << " +- " << f[j].resolution);
      CHECK(c[j].ahead_below == f[j].ahead_below);
      CHECK(std::abs(c[j].value - f[j].value) <= c[j].resolution + f[j].resolution + 1e-9);
      ++compared;
    }
  }
  CHECK(compared > 0);
  CHECK(pairs > 0);  // root searches ran two strategies, not three
  CHECK(cheap.params[0].evaluations <= full.params[0].evaluations);

  // An input of one strategy: only that strategy runs; the others' runs are the base's.
  const Scenario b = small_at(
      {R"(/strategies={"dp_drop":{},"ntp_boost":{}})", "/seeds=3", "/cluster/spare_domains=0"});
  SensitivityRequest one;
  one.params = {parse_param(b, "/strategies/ntp_boost/max_power=1.1:1.3")};
  one.scale_pilots = true;  // as `goodput run`
  scopes.clear();
  const SensitivityReport rb = run_sensitivity(b, one, recording);
  REQUIRE(scopes.size() >= 2);  // the base and at least the end that is not the scenario's value
  for (std::size_t i = 1; i < scopes.size(); ++i) {
    CHECK(scopes[i].pilot == EvaluationScope::Pilot::Scale);  // how fast it trains, not its rules
    REQUIRE(scopes[i].strategies.size() == 1);
    CHECK(b.strategies[scopes[i].strategies[0]].name == "ntp_boost");
  }
  const std::size_t dp = b.strategies[0].name == "dp_drop" ? 0 : 1;
  CHECK(rb.params[0].lo.goodput[dp].mean == rb.base.goodput[dp].mean);
  CHECK(rb.params[0].hi.goodput[dp].mean == rb.base.goodput[dp].mean);
}

// Plans that differ in a price share the topology and the cost model (built once per process);
// a different job shape gets its own, and a plan built from a scenario without its resolved
// sections builds its own cost model.
TEST_CASE("verdict: plans that differ in a price share the topology and the cost model") {
  const RunPlan a = make_plan(small_at({"/recovery/restart_s=600"}));
  const RunPlan b = make_plan(small_at({"/recovery/restart_s=1200"}));
  CHECK(a.topology == b.topology);
  CHECK(a.cost == b.cost);
  CHECK(a.cost_info.healthy_step_s == b.cost_info.healthy_step_s);
  const RunPlan c = make_plan(small_at({"/job/step_s=20"}));
  CHECK(c.topology == a.topology);
  CHECK(c.cost != a.cost);
  CHECK(c.cost->healthy_step_s() == doctest::Approx(20));
  const RunPlan d = make_plan(small_at({"/cluster/spare_domains=2"}));
  CHECK(d.topology != a.topology);
  CHECK(d.topology->domains() == a.topology->domains() + 1);
  Scenario bare = small_at({});
  bare.resolved = Json();
  CHECK(make_plan(bare).cost != a.cost);
}
