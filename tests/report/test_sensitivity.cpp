// Sensitivity: the break-even bisection against closed-form crossings, the default inputs and
// ranges, --param errors, and one end-to-end case whose crossing is checked by evaluating the
// scenario directly on both sides of it.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

const SensitivityParam* find_param(const std::vector<SensitivityParam>& ps,
                                   const std::string& ptr) {
  for (const auto& p : ps)
    if (p.pointer == ptr) return &p;
  return nullptr;
}

// A direct bisection for comparison: the same rule written out, on its own.
double direct_bisection(const std::function<double(double)>& f, double lo, double hi, int iters) {
  const bool positive_at_lo = f(lo) > 0;
  for (int i = 0; i < iters; ++i) {
    const double mid = (lo + hi) / 2;
    if ((f(mid) > 0) == positive_at_lo)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace

TEST_CASE("sensitivity: break_even finds a closed-form crossing within the bracket") {
  int calls = 0;
  auto falling = [&](double x) {
    ++calls;
    return 225.0 - x;  // ahead below 225
  };
  const double x = break_even(falling, 15, 960, 12);
  CHECK(std::abs(x - 225) <= (960.0 - 15) / 8192);
  CHECK(calls == 2 + 12);
  CHECK(x == direct_bisection([](double v) { return 225.0 - v; }, 15, 960, 12));
  // Rising, non-linear: (x/100)^3 - 2 crosses at 100 * cbrt(2).
  auto rising = [](double v) { return std::pow(v / 100, 3) - 2; };
  CHECK(std::abs(break_even(rising, 0, 400, 20) - 100 * std::cbrt(2.0)) <= 400.0 / (1 << 21));
  CHECK(break_even(rising, 0, 400, 12) == direct_bisection(rising, 0, 400, 12));
  // No sign change: NaN.
  CHECK(std::isnan(break_even([](double v) { return v + 1; }, 0, 10, 12)));
  CHECK(std::isnan(break_even([](double v) { return -v; }, 0, 10, 12)));  // 0 counts as not ahead
}

TEST_CASE("sensitivity: break_even_integer returns the first whole number past the crossing") {
  CHECK(*break_even_integer([](long k) { return 7.5 - static_cast<double>(k); }, 0, 20) == 8);
  CHECK(*break_even_integer([](long k) { return static_cast<double>(k) - 3; }, 1, 64) ==
        4);  // 3 is not ahead
  CHECK(*break_even_integer([](long k) { return 4.0 - static_cast<double>(k); }, 0, 1000) == 4);
  CHECK(!break_even_integer([](long k) { return static_cast<double>(k) + 1; }, 0, 9));
  for (long c = 1; c <= 16; ++c)
    CHECK(*break_even_integer([c](long k) { return static_cast<double>(c - k) - 0.5; }, 0, 16) ==
          c);
}

TEST_CASE("sensitivity: default inputs and their documented ranges") {
  const Scenario s = small_at({});
  const auto ps = default_params(s);
  for (const char* ptr : {"/recovery/detection_s", "/recovery/restart_s",
                          "/recovery/communicator_rebuild_s", "/recovery/spare_swap_s",
                          "/checkpoint/load_s", "/checkpoint/save_s", "/failures/rate_scale"})
    CHECK_MESSAGE(find_param(ps, ptr), ptr);
  CHECK(!find_param(ps, "/recovery/state_copy_s"));  // derived unless the scenario sets it
  CHECK(!find_param(ps, "/recovery/ntp_reshard_s"));
  const SensitivityParam* restart = find_param(ps, "/recovery/restart_s");
  REQUIRE(restart);
  CHECK(restart->base == 600);
  CHECK(restart->lo == 150);
  CHECK(restart->hi == 2400);
  CHECK(restart->unit == "s");
  const SensitivityParam* rate = find_param(ps, "/failures/rate_scale");
  REQUIRE(rate);
  CHECK(rate->lo == 5);
  CHECK(rate->hi == 20);

  const Scenario set = small_at({"/recovery/state_copy_s=0", "/recovery/ntp_reshard_s=20"});
  const auto ps2 = default_params(set);
  const SensitivityParam* copy = find_param(ps2, "/recovery/state_copy_s");
  REQUIRE(copy);
  CHECK(copy->lo == 0);
  CHECK(copy->hi == 60);  // a zero price: 0..60 s
  REQUIRE(find_param(ps2, "/recovery/ntp_reshard_s"));
  CHECK(find_param(ps2, "/recovery/ntp_reshard_s")->hi == 80);

  // Explicit classes with a fixed repair: its hours are an input.
  const Scenario cls = small_at(
      {R"(/failures/classes=[{"name":"gpu","mtbf_hours":50000,"repair":{"kind":"fixed","hours":2}}])"});
  const auto cls_params = default_params(cls);  // find_param points into it
  const SensitivityParam* repair = find_param(cls_params, "/failures/classes/0/repair/hours");
  REQUIRE(repair);
  CHECK(repair->unit == "h");
  CHECK(repair->lo == 0.5);
  CHECK(repair->hi == 8);
}

TEST_CASE("sensitivity: --param: given ranges, integer keys, clamping and errors naming --param") {
  const Scenario s = small_at({});
  const SensitivityParam p = parse_param(s, "/recovery/spare_swap_s=0:900");
  CHECK(p.lo == 0);
  CHECK(p.hi == 900);
  CHECK(p.range == "given");
  const SensitivityParam spares = parse_param(s, "/cluster/spare_domains");
  CHECK(spares.integer);
  CHECK(spares.lo == 0);  // floor(0.25)
  CHECK(spares.hi == 4);
  const SensitivityParam idle = parse_param(s, "/failures/idle_rate_scale");
  CHECK(idle.hi == 1);  // 4x clamped to the declared maximum
  for (const char* bad :
       {"/recovery/detection", "/recovery/detection_s=5", "/recovery/detection_s=9:1",
        "/recovery/detection_s=a:b", "/name", "/cluster/spare_domains=0:2.5", "recovery"}) {
    try {
      (void)parse_param(s, bad);
      FAIL("accepted " << bad);
    } catch (const InputError& e) {
      CHECK_MESSAGE(std::string(e.what()).rfind("--param", 0) == 0, e.what());
    }
  }
  // A value the scenario refuses is an error naming --param and the assignment.
  const SensitivityParam neg = parse_param(s, "/recovery/detection_s=-5:10");
  try {
    (void)scenario_at(s, neg, neg.lo);
    FAIL("accepted a negative price");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("--param: /recovery/detection_s=-5") == 0);
  }
  CHECK_THROWS_AS(run_sensitivity(s, {neg},
                                  [](const Scenario&) -> std::vector<StrategyRuns> {
                                    FAIL("ran before validating");
                                    return {};
                                  }),
                  InputError);
  // scenario_at changes that one value only.
  const Scenario at = scenario_at(s, p, 450);
  CHECK(at.recovery.spare_swap_s == 450);
  CHECK(at.recovery.restart_s == s.recovery.restart_s);
  CHECK(at.seeds == s.seeds);
}

// hot_spares (a spare domain: the job stalls for the swap-in, no rollback) against
// checkpoint_restart (restarts on spares: restart + load + the rolled-back work, no swap-in): a
// dearer swap-in favours checkpoint_restart. (dp_drop is no candidate here: with spares it rejoins
// in the background and ties hot_spares at a free swap-in.) The crossing found by `sensitivity`
// must lie where direct Monte Carlo runs of the scenario say the lead changes sign.
TEST_CASE(
    "sensitivity: end to end: the break-even of the spare swap-in matches direct evaluations") {
  const std::vector<std::string> sets = {R"(/strategies={"checkpoint_restart":{},"hot_spares":{}})",
                                         "/cluster/spare_domains=4", "/seeds=4"};
  const Scenario s = small_at(sets);
  const SensitivityParam p = parse_param(s, "/recovery/spare_swap_s=0:20000");
  const SensitivityReport r = run_sensitivity(s, {p}, monte_carlo_evaluator(2));
  REQUIRE(r.params.size() == 1);
  const SensitivityResult& res = r.params[0];
  const std::string winner = r.strategies[r.winner];
  INFO("winner " << winner << ", lead at lo " << res.lo.lead[r.runner_up].mean << ", at hi "
                 << res.hi.lead[r.runner_up].mean);
  CHECK(winner == "hot_spares");
  // hot_spares leads at 0 s and at the scenario's 180 s, not at 20000 s: one crossing above 180 s.
  REQUIRE(res.crossings[r.runner_up].size() == 1);
  const Crossing& c = res.crossings[r.runner_up][0];
  CHECK(c.ahead_below);
  // Regula falsi with a probe: at most as many evaluations as the 12 bisection halvings took.
  CHECK(res.evaluations <= 2 + kBreakEvenIterations);

  // The lead straight from run_monte_carlo on the scenario loaded with --set.
  auto lead_at = [&](double v) {
    auto o = sets;
    o.push_back("/recovery/spare_swap_s=" + Json(v).dump());
    const auto runs = run_monte_carlo(make_plan(small_at(o)), 2);
    double sum = 0;
    for (std::size_t k = 0; k < runs[r.winner].runs.size(); ++k)
      sum += runs[r.winner].runs[k].goodput - runs[r.runner_up].runs[k].goodput;
    return sum / static_cast<double>(runs[r.winner].runs.size());
  };
  CHECK(c.resolution <= (p.hi - p.base) / 8192);
  CHECK(c.bracket_lo <= c.value);
  CHECK(c.value <= c.bracket_hi);
  CHECK(lead_at(c.bracket_lo) > 0);
  CHECK(lead_at(c.bracket_hi) <= 0);
  // The same crossing as a direct bisection, to both brackets' half-widths.
  CHECK(std::abs(c.value - direct_bisection(lead_at, p.base, p.hi, kBreakEvenIterations)) <=
        c.resolution + (p.hi - p.base) / 8192);
  const std::string sentence = break_even_sentence(r, res);
  CHECK(sentence.find(
            "hot_spares stays ahead of checkpoint_restart while /recovery/spare_swap_s < ~") == 0);
}

// A synthetic evaluator whose lead has a closed form: two strategies, three seeds, the winner's
// lead (x - 100)(400 - x) / 1e6 in /recovery/communicator_rebuild_s = x, positive only between
// 100 and 400. With the scenario at 200 s both crossings are found, one on each side.
TEST_CASE("sensitivity: a lead held only inside the range gives two crossings at the closed form") {
  const Scenario s = small_at({"/recovery/communicator_rebuild_s=200"});
  auto lead = [](double x) { return (x - 100) * (400 - x) / 1e6; };
  int calls = 0;
  const Evaluate fake = [&](const Scenario& sc) {
    ++calls;
    const double x = sc.recovery.communicator_rebuild_s;
    std::vector<StrategyRuns> runs{{"a", {}}, {"b", {}}};
    for (int seed = 0; seed < 3; ++seed) {
      RunMetrics m;
      m.goodput = 0.9 + 0.01 * seed;
      runs[0].runs.push_back(m);
      m.goodput -= lead(x);
      runs[1].runs.push_back(m);
    }
    return runs;
  };
  const SensitivityParam p = parse_param(s, "/recovery/communicator_rebuild_s=0:1000");
  const SensitivityReport r = run_sensitivity(s, {p}, fake);
  CHECK(r.strategies[r.winner] == "a");
  CHECK(r.strategies[r.runner_up] == "b");
  const SensitivityResult& res = r.params[0];
  const auto& cr = res.crossings[r.runner_up];
  REQUIRE(cr.size() == 2);
  CHECK(!cr[0].ahead_below);
  CHECK(std::abs(cr[0].value - 100) <= 200.0 / 8192);
  CHECK(cr[1].ahead_below);
  CHECK(std::abs(cr[1].value - 400) <= 800.0 / 8192);
  CHECK(res.evaluations <= 2 + 2 * kBreakEvenIterations);
  CHECK(calls == 1 + res.evaluations);  // the base once, each value once
  CHECK(break_even_sentence(r, res) ==
        "a stays ahead of b while ~100 s < /recovery/communicator_rebuild_s < ~400 s");

  // Outside the range the scenario's value cannot help: ends of one sign give no crossing.
  const SensitivityParam right = parse_param(s, "/recovery/communicator_rebuild_s=500:900");
  const SensitivityReport r2 = run_sensitivity(s, {right}, fake);
  const SensitivityResult& none = r2.params[0];
  CHECK(none.crossings[r2.runner_up].empty());
  CHECK(break_even_sentence(r, none).find("b is ahead of a at both ends") == 0);
  // ... and ends of different signs give the one crossing between them.
  const SensitivityParam across = parse_param(s, "/recovery/communicator_rebuild_s=250:900");
  const SensitivityReport r3 = run_sensitivity(s, {across}, fake);
  REQUIRE(r3.params[0].crossings[r3.runner_up].size() == 1);
  CHECK(std::abs(r3.params[0].crossings[r3.runner_up][0].value - 400) <= 650.0 / 8192);
  // An integer key: whole-number crossings, the first value on the far side.
  const Scenario si = small_at({"/cluster/spare_domains=5"});
  const Evaluate by_spares = [&](const Scenario& sc) {
    const double k = static_cast<double>(sc.cluster.domains - 4);  // the job needs 4 domains
    std::vector<StrategyRuns> runs{{"a", {}}, {"b", {}}};
    for (int seed = 0; seed < 3; ++seed) {
      RunMetrics m;
      m.goodput = 0.9;
      runs[0].runs.push_back(m);
      m.goodput -= (k - 2.5) * (9.5 - k) / 100;  // a leads for 3..9 spares
      runs[1].runs.push_back(m);
    }
    return runs;
  };
  const SensitivityParam spares = parse_param(si, "/cluster/spare_domains=0:20");
  const SensitivityReport r4 = run_sensitivity(si, {spares}, by_spares);
  const SensitivityResult& ri = r4.params[0];
  REQUIRE(ri.crossings[r4.runner_up].size() == 2);
  CHECK(ri.crossings[r4.runner_up][0].value == 3);
  CHECK(ri.crossings[r4.runner_up][1].value == 10);
}

TEST_CASE("sensitivity: the files do not depend on the thread count") {
  const Scenario s = small_at({"/seeds=3"});
  const std::vector<SensitivityParam> ps = {parse_param(s, "/recovery/spare_swap_s"),
                                            parse_param(s, "/failures/rate_scale")};
  const SensitivityReport one = run_sensitivity(s, ps, monte_carlo_evaluator(1));
  const SensitivityReport three = run_sensitivity(s, ps, monte_carlo_evaluator(3));
  CHECK(sensitivity_json(one).dump() == sensitivity_json(three).dump());
  CHECK(sensitivity_markdown(one) == sensitivity_markdown(three));
  // The base point is the scenario itself: the same Goodput as a plain Monte Carlo run.
  const auto runs = run_monte_carlo(make_plan(s), 2);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    double sum = 0;
    for (const auto& m : runs[i].runs) sum += m.goodput;
    CHECK(one.base.goodput[i].mean ==
          doctest::Approx(sum / static_cast<double>(runs[i].runs.size())));
  }
  const std::string dir = scratch("sensitivity-files");
  write_sensitivity_files(one, dir);
  const Json j = Json::parse(slurp(std::filesystem::path(dir) / "sensitivity.json"));
  CHECK(j["schema_version"] == kSensitivitySchemaVersion);
  CHECK(j["params"].size() == 2);
  CHECK(j["params"][0].contains("break_even"));
  CHECK(slurp(std::filesystem::path(dir) / "sensitivity.md").find("## Tornado") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}
