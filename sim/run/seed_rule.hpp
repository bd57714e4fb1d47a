// How many seeds answer the question (`--seeds auto`, `goodput run` and `goodput sweep`): seeds
// are added in deterministic batches until the answer is settled or a cap is reached. Settled
// means both
//  - the verdict: the leader (highest mean Goodput, the report's winner) against every rival,
//    its paired difference (same seeds, so the same failures) is significant at 95% (the CI of
//    the difference excludes 0) or tied within the margin (the whole CI inside +-margin); and
//  - the precision: every strategy's Goodput CI half-width is at most the CI target.
// The first batch is kAutoSeedBatch seeds (fewer with a lower cap); each later one grows the count
// to what the spread observed so far says is needed (a CI half-width shrinks as 1/sqrt(n)), at
// least one batch more and at most 4x, rounded up to whole batches, never above the cap. Run r's
// results depend on r alone, so the same inputs stop at the same count and give the same runs
// whatever the thread or rank count.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

// kAutoSeedBatch (models/scenario/scenario.hpp): seeds per batch.

struct SeedRule {
  double ci_target = 0.01;    // every strategy's Goodput CI half-width at most this (a fraction)
  double tie_margin = 0.001;  // a rival whose whole paired CI lies within +-this is tied (fraction)
  int max_seeds = 1000;       // the cap
};

// Where a set of runs stands against the rule.
struct SeedCheck {
  bool settled = false;
  int needed = 0;      // seeds the observed spread says would settle it (>= the runs held)
  std::string reason;  // for people: why it stops, or what is still open
};

// `runs`: every strategy, the same seeds each (at least one). With one seed nothing is settled.
SeedCheck check_seeds(const std::vector<StrategyRuns>& runs, const SeedRule& rule);

// The seed count after `have` when `check` is not settled: check.needed rounded up to whole
// batches, at least one batch more than `have`, at most 4 x `have`, capped at rule.max_seeds.
int next_seed_count(int have, const SeedCheck& check, const SeedRule& rule);

// Sets the scenario's seed count, its resolved copy and its input too (what report.json and point
// records show, and what scenarios derived from it by --set-style assignments run): a plan's
// scenario between batches, or a copy whose work is estimated. seeds_auto is left as it was.
void set_seeds(Scenario& scenario, int seeds);

// What a seed count choice ended with (report.json "seeds_auto", report.md's set-up).
struct SeedsChosen {
  bool automatic = false;  // --seeds auto
  SeedRule rule;
  int seeds = 0;
  int batches = 0;
  bool settled = false;  // false: stopped at the cap
  std::string reason;
};

// Runs seeds [have, n) and returns them (run_monte_carlo with the plan's seeds set to n).
using RunSeeds = std::function<std::vector<StrategyRuns>(int have, int n)>;

// Batches of `run` until check_seeds settles or the cap is reached; the runs, in seed order, and
// what was chosen.
std::vector<StrategyRuns> run_until_settled(const RunSeeds& run, const SeedRule& rule,
                                            SeedsChosen* chosen);

}  // namespace goodput
