// --seeds auto's stopping rule (sim/run/seed_rule.hpp) on synthetic runs whose statistics have a
// closed form: paired differences d + s, d - s, d + s, ... have mean d (an even count) and
// sample standard deviation s sqrt(n / (n - 1)), so their 95% CI half-width is
// t(n - 1) s / sqrt(n - 1).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/core/stats.hpp"
#include "sim/run/seed_rule.hpp"

using namespace goodput;

namespace {

// Run r of a leader at 0.9 + a (-1)^r and a rival `lead` below it, give or take s (-1)^r.
RunMetrics metrics(double goodput) {
  RunMetrics m;
  m.goodput = goodput;
  return m;
}

std::vector<StrategyRuns> synthetic(int from, int to, double a, double lead, double s) {
  std::vector<StrategyRuns> runs{{"leader", {}}, {"rival", {}}};
  for (int r = from; r < to; ++r) {
    const double sign = r % 2 == 0 ? 1.0 : -1.0;
    runs[0].runs.push_back(metrics(0.9 + a * sign));
    runs[1].runs.push_back(metrics(0.9 + a * sign - lead - s * sign));
  }
  return runs;
}

// The closed-form CI half-width of the paired differences above with n (even) seeds.
double paired_ci(int n, double s) {
  return student_t_975(static_cast<std::size_t>(n - 1)) * s / std::sqrt(n - 1.0);
}

struct Recorded {
  std::vector<std::pair<int, int>> calls;
  SeedsChosen chosen;
  std::vector<StrategyRuns> runs;
};

Recorded run_rule(const SeedRule& rule, double a, double lead, double s) {
  Recorded out;
  out.runs = run_until_settled(
      [&](int have, int n) {
        out.calls.push_back({have, n});
        return synthetic(have, n, a, lead, s);
      },
      rule, &out.chosen);
  return out;
}

}  // namespace

TEST_CASE("seed rule: the closed-form CI matches summarize_difference") {
  const auto runs = synthetic(0, 8, 0.0, 0.01, 0.004);
  const Summary d =
      summarize_difference(std::vector<double>{0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9}, [&] {
        std::vector<double> v;
        for (const auto& m : runs[1].runs) v.push_back(m.goodput);
        return v;
      }());
  CHECK(d.mean == doctest::Approx(0.01));
  CHECK(d.ci95 == doctest::Approx(paired_ci(8, 0.004)));
}

TEST_CASE("seed rule: a lead is settled at the first batch count whose CI excludes 0") {
  // lead 1 pp, spread 3 pp: not significant at 8 seeds (CI ~2.7 pp), so seeds are added.
  const double lead = 0.01, s = 0.03;
  const SeedRule rule{1.0, 0.0, 1000};  // no precision target, no tie margin
  CHECK(paired_ci(8, s) >= lead);
  const Recorded r = run_rule(rule, 0.0, lead, s);
  REQUIRE(r.chosen.settled);
  const int n = r.chosen.seeds;
  CHECK(static_cast<int>(r.runs[0].runs.size()) == n);
  CHECK(paired_ci(n, s) < lead);  // settled where the closed form says it is
  // ...and not at any count asked before it.
  REQUIRE(r.calls.size() >= 2);
  for (std::size_t i = 0; i + 1 < r.calls.size(); ++i)
    CHECK(paired_ci(r.calls[i].second, s) >= lead);
  // Deterministic batches: contiguous ranges from 0, the first of kAutoSeedBatch, whole batches.
  CHECK(r.calls.front() == std::pair<int, int>{0, kAutoSeedBatch});
  for (std::size_t i = 1; i < r.calls.size(); ++i) {
    CHECK(r.calls[i].first == r.calls[i - 1].second);
    CHECK(r.calls[i].second % kAutoSeedBatch == 0);
    CHECK(r.calls[i].second <= 4 * r.calls[i].first);
  }
  CHECK(r.chosen.reason.find("leader leads rival beyond the 95% CI") != std::string::npos);
}

TEST_CASE("seed rule: no lead is a tie once the whole CI fits in the margin") {
  const double s = 0.004, margin = 0.001;
  const SeedRule rule{1.0, margin, 1000};
  const Recorded r = run_rule(rule, 0.0, 0.0, s);
  REQUIRE(r.chosen.settled);
  CHECK(paired_ci(r.chosen.seeds, s) <= margin);
  for (std::size_t i = 0; i + 1 < r.calls.size(); ++i)
    CHECK(paired_ci(r.calls[i].second, s) > margin);
  CHECK(r.chosen.reason.find(" is tied with ") != std::string::npos);
}

TEST_CASE("seed rule: the CI target holds every strategy's Goodput to it") {
  // A lead far beyond its CI (no spread), but each Goodput spreads by a = 2 pp.
  const double a = 0.02, target = 0.005;
  const SeedRule rule{target, 0.0, 1000};
  const Recorded r = run_rule(rule, a, 0.05, 0.0);
  REQUIRE(r.chosen.settled);
  // Each strategy's values alternate 0.9 +- a: their CI is the closed form with s = a.
  CHECK(paired_ci(r.chosen.seeds, a) <= target);
  CHECK(paired_ci(r.calls[r.calls.size() - 2].second, a) > target);
}

TEST_CASE("seed rule: an undecidable difference stops at the cap, unsettled, and says so") {
  const SeedRule rule{1.0, 0.0001, 30};  // a tie margin the spread never fits
  const Recorded r = run_rule(rule, 0.0, 0.0, 0.05);
  CHECK_FALSE(r.chosen.settled);
  CHECK(r.chosen.seeds == 30);
  CHECK(r.calls.back().second == 30);
  CHECK(r.chosen.reason.find("stopped at the cap of 30 seeds") != std::string::npos);
  // A cap below one batch: one call of that many seeds.
  const Recorded one = run_rule({1.0, 0.0001, 3}, 0.0, 0.0, 0.05);
  CHECK(one.calls.size() == 1);
  CHECK(one.chosen.seeds == 3);
}

TEST_CASE("seed rule: next_seed_count grows by whole batches, at most 4x, never past the cap") {
  const SeedRule rule{0.01, 0.001, 100};
  SeedCheck c;
  c.needed = 9;  // below one more batch: one more batch
  CHECK(next_seed_count(8, c, rule) == 16);
  c.needed = 1000;  // far beyond: 4x
  CHECK(next_seed_count(8, c, rule) == 32);
  c.needed = 41;  // rounded up to whole batches
  CHECK(next_seed_count(16, c, rule) == 48);
  CHECK(next_seed_count(96, c, rule) == 100);  // the cap
  // One seed or none gives no CI at all.
  CHECK_FALSE(check_seeds(synthetic(0, 1, 0.0, 0.01, 0.0), rule).settled);
  CHECK_FALSE(check_seeds({}, rule).settled);
}
