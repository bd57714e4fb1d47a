// The verdict analysis's batches (SensitivityRequest::batch, monte_carlo_evaluators): the
// evaluations known in advance run side by side, and nothing the analysis says changes: a batch's
// outcomes are the one-at-a-time evaluations' (errors included), each batched evaluation is
// served once in the analysis's own order, and the reports are byte-identical with or without
// batches at any thread count.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/report/robustness.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

using Pilot = EvaluationScope::Pilot;

// Bit-for-bit equality of two runs' metrics (every field of RunMetrics is a number).
bool same_runs(const std::vector<StrategyRuns>& a, const std::vector<StrategyRuns>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].strategy != b[i].strategy || a[i].runs.size() != b[i].runs.size()) return false;
    for (std::size_t r = 0; r < a[i].runs.size(); ++r) {
      const RunMetrics &x = a[i].runs[r], &y = b[i].runs[r];
      if (x.goodput != y.goodput || x.events != y.events || x.failures != y.failures ||
          x.rollbacks != y.rollbacks || x.ettr != y.ettr ||
          std::memcmp(x.badput.data(), y.badput.data(), sizeof x.badput) != 0)
        return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("verdict batch: a batch's outcomes are the evaluations one at a time, errors included") {
  const std::vector<std::string> base = {"/checkpoint/interval=young", "/seeds=3"};
  auto at = [&](std::vector<std::string> sets) {
    sets.insert(sets.begin(), base.begin(), base.end());
    return small_at(sets);
  };
  std::vector<EvaluationRequest> requests;
  requests.push_back({at({}), {}});  // the base: every strategy, its own pilot
  requests.push_back({at({"/recovery/restart_s=900"}), {{0, 2}, Pilot::Keep, {}, 0}});
  requests.push_back({at({"/failures/rate_scale=3"}), {{}, Pilot::Scale, {}, 0}});
  requests.push_back({at({"/failures/rate_scale=3"}), {{}, Pilot::Scale, {}, 1}});
  requests.push_back({at({"/recovery/restart_s=900"}), {{99}, Pilot::Keep, {}, 0}});  // throws
  requests.push_back({at({"/recovery/detection_s=5"}), {{1}, Pilot::Keep, {}, 2}});
  for (const int threads : {1, 3}) {
    CAPTURE(threads);
    const MonteCarloEvaluators batched = monte_carlo_evaluators(threads);
    std::vector<int> told(requests.size(), 0);
    const std::vector<EvaluationOutcome> got =
        batched.many(requests, [&](std::size_t i) { ++told.at(i); });
    CHECK(std::count(told.begin(), told.end(), 1) == static_cast<long>(told.size()));
    const ScopedEvaluate one = monte_carlo_evaluator(1);
    REQUIRE(got.size() == requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      CAPTURE(i);
      std::vector<StrategyRuns> expected;
      bool threw = false;
      try {
        expected = one(requests[i].scenario, requests[i].scope);
      } catch (const std::logic_error&) {
        threw = true;
      }
      CHECK(static_cast<bool>(got[i].error) == threw);
      if (threw) {
        CHECK_THROWS_AS(std::rethrow_exception(got[i].error), std::logic_error);
        continue;
      }
      CHECK(same_runs(got[i].runs, expected));
      // Those in scope have the runs asked for; the others none.
      const auto& scope = requests[i].scope;
      for (std::size_t k = 0; k < got[i].runs.size(); ++k) {
        const bool in = scope.runs(k);
        CHECK(got[i].runs[k].runs.size() ==
              (in ? static_cast<std::size_t>(requests[i].scenario.seeds - scope.first_run) : 0u));
      }
    }
  }
}

TEST_CASE("verdict batch: every batched evaluation is served once, in the analysis's order") {
  const Scenario s = small_at({"/seeds=3"});
  // A made-up Goodput: the first strategy loses restart_s / 1e5 per run; detection above 500 s
  // is refused (an InputError, as a scenario the model cannot build).
  std::vector<std::string> asked;
  const ScopedEvaluate fake = [&](const Scenario& sc, const EvaluationScope& scope) {
    asked.push_back(sc.resolved.dump() + std::to_string(scope.first_run));
    if (sc.recovery.detection_s > 500)
      throw InputError(sc.file, "/recovery/detection_s", "refused here");
    std::vector<StrategyRuns> out;
    for (std::size_t i = 0; i < sc.strategies.size(); ++i) {
      StrategyRuns r{sc.strategies[i].name, {}};
      const bool in = scope.runs(i);
      for (int seed = scope.first_run; in && seed < sc.seeds; ++seed) {
        RunMetrics m;
        m.goodput = 0.9 - (i == 0 ? sc.recovery.restart_s / 1e5 : 0.01 * static_cast<double>(i)) +
                    0.001 * seed;
        r.runs.push_back(m);
      }
      out.push_back(std::move(r));
    }
    return out;
  };
  struct Outcome {
    std::string json, error;
    std::vector<std::string> asked;  // sorted
    int batches = 0;
    int told = 0;  // progress calls
  };
  auto analyse = [&](const std::string& detection, bool batched) {
    SensitivityRequest req;
    req.params = {parse_param(s, "/recovery/restart_s=60:3000"),
                  parse_param(s, "/recovery/detection_s=" + detection)};
    req.switches = {{"/checkpoint/save_mode", "blocking", {"async"}, "test"}};
    req.robustness_points = 6;
    req.robustness_first_seeds = 2;
    Outcome o;
    if (batched)
      req.batch = [&](const std::vector<EvaluationRequest>& r, const BatchDone& done) {
        ++o.batches;
        return evaluate_each(fake, r, done);
      };
    asked.clear();
    try {
      o.json = sensitivity_json(run_sensitivity(s, req, fake, [&](const std::string&, double) {
                 ++o.told;
               })).dump();
    } catch (const InputError& e) {
      o.error = e.what();
    }
    o.asked = asked;
    std::sort(o.asked.begin(), o.asked.end());
    return o;
  };
  // Every evaluation once, the same ones: the batched ones are not asked for again.
  const Outcome plain = analyse("0:400", false), batched = analyse("0:400", true);
  CHECK(plain.error.empty());
  CHECK(batched.json == plain.json);
  CHECK(batched.asked == plain.asked);
  CHECK(batched.batches == 3);  // the ends and switches, the worlds, their extensions
  // Progress is told as often: once per evaluation (a world once, the base once).
  CHECK(batched.told == plain.told);
  CHECK(plain.told >= 1 + 2 + 2 + 1 + 6);
  // A refused end stops the analysis where it would have, with the same words (the batch may have
  // run evaluations the analysis never reached, each once).
  const Outcome plain_refused = analyse("0:600", false), refused = analyse("0:600", true);
  CHECK(!plain_refused.error.empty());
  CHECK(refused.error == plain_refused.error);
  CHECK(std::adjacent_find(refused.asked.begin(), refused.asked.end()) == refused.asked.end());
  CHECK(std::includes(refused.asked.begin(), refused.asked.end(), plain_refused.asked.begin(),
                      plain_refused.asked.end()));
}

TEST_CASE("verdict batch: the analysis's reports are the same with batches at 1 and 3 threads") {
  const Scenario s =
      small_at({"/checkpoint/interval=young", "/seeds=3", "/cluster/spare_domains=2"});
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/spare_swap_s=0:4000"),
                parse_param(s, "/failures/rate_scale")};
  req.switches = {{"/checkpoint/save_mode", "blocking", {"async"}, "test"}};
  req.robustness_points = 5;
  req.robustness_first_seeds = 2;
  req.scale_pilots = true;
  req.sampling_precision = true;
  const SensitivityReport plain = run_sensitivity(s, req, monte_carlo_evaluator(1));
  for (const int threads : {1, 3}) {
    CAPTURE(threads);
    const MonteCarloEvaluators e = monte_carlo_evaluators(threads);
    SensitivityRequest with = req;
    with.batch = e.many;
    const SensitivityReport r = run_sensitivity(s, with, e.one);
    CHECK(sensitivity_json(r).dump() == sensitivity_json(plain).dump());
    CHECK(sensitivity_markdown(r) == sensitivity_markdown(plain));
    CHECK(r.robustness.points + r.robustness.refused == 5);
  }
}
