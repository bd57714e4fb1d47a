#include "sim/run/seed_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/stats.hpp"

namespace goodput {

namespace {

std::vector<double> goodputs(const StrategyRuns& r) {
  std::vector<double> g;
  g.reserve(r.runs.size());
  for (const auto& m : r.runs) g.push_back(m.goodput);
  return g;
}

std::string pp(double fraction) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", fraction * 100);
  return b;
}

// Seeds at which a CI half-width `ci` seen with `n` seeds would shrink to `target` (1/sqrt(n)).
double seeds_for(double n, double ci, double target) {
  return n * (ci / target) * (ci / target);
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

}  // namespace

SeedCheck check_seeds(const std::vector<StrategyRuns>& runs, const SeedRule& rule) {
  SeedCheck c;
  const std::size_t n = runs.empty() ? 0 : runs.front().runs.size();
  if (n < 2) {
    c.needed = 2;
    c.reason = "one seed gives no confidence interval";
    return c;
  }
  const double seeds = static_cast<double>(n);
  double needed = seeds;
  std::vector<std::string> open;
  // The leader, as the report picks its winner: the highest mean Goodput, the first on ties.
  std::vector<std::vector<double>> g;
  std::vector<double> mean;
  std::size_t leader = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    g.push_back(goodputs(runs[i]));
    const Summary s = summarize(g.back());
    mean.push_back(s.mean);
    if (s.ci95 > rule.ci_target) {
      open.push_back(runs[i].strategy + "'s Goodput CI +-" + pp(s.ci95) + " pp is wider than +-" +
                     pp(rule.ci_target) + " pp");
      needed = std::max(needed, seeds_for(seeds, s.ci95, rule.ci_target));
    }
    if (s.mean > mean[leader]) leader = i;
  }
  std::vector<std::string> ahead, tied;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == leader) continue;
    const Summary d = summarize_difference(g[leader], g[i]);  // >= 0 on average
    const double lead = std::abs(d.mean);
    if (lead > d.ci95) {
      ahead.push_back(runs[i].strategy);
    } else if (lead + d.ci95 <= rule.tie_margin) {
      tied.push_back(runs[i].strategy);
    } else {
      open.push_back(runs[leader].strategy + "'s lead over " + runs[i].strategy + " (" +
                     pp(d.mean) + " +- " + pp(d.ci95) + " pp) is neither significant nor " +
                     "within the +-" + pp(rule.tie_margin) + " pp tie margin");
      // The fewer seeds of the two ways it can settle: the CI shrinking below the lead, or
      // below what the margin leaves beside the lead.
      double way = lead > 0 ? seeds_for(seeds, d.ci95, lead) : INFINITY;
      if (lead < rule.tie_margin)
        way = std::min(way, seeds_for(seeds, d.ci95, rule.tie_margin - lead));
      needed = std::max(needed, std::isfinite(way) ? way : 4 * seeds);
    }
  }
  c.needed = static_cast<int>(std::min(1e9, std::ceil(needed)));
  if (!open.empty()) {
    c.reason = open.front();
    for (std::size_t i = 1; i < open.size(); ++i) c.reason += "; " + open[i];
    return c;
  }
  c.settled = true;
  std::string verdict;
  if (runs.size() == 1)
    verdict = "one strategy";
  else if (tied.empty())
    verdict = runs[leader].strategy + " leads " + join(ahead) + " beyond the 95% CI";
  else if (ahead.empty())
    verdict = runs[leader].strategy + " is tied with " + join(tied) + " within +-" +
              pp(rule.tie_margin) + " pp";
  else
    verdict = runs[leader].strategy + " leads " + join(ahead) +
              " beyond the 95% CI and is tied with " + join(tied) + " within +-" +
              pp(rule.tie_margin) + " pp";
  c.reason = verdict + "; every Goodput CI is within +-" + pp(rule.ci_target) + " pp";
  return c;
}

void set_seeds(Scenario& scenario, int seeds) {
  scenario.seeds = seeds;
  scenario.resolved["seeds"] = seeds;
  if (scenario.input.is_object()) scenario.input["seeds"] = seeds;
}

int next_seed_count(int have, const SeedCheck& check, const SeedRule& rule) {
  const int batch = std::max(1, std::min(kAutoSeedBatch, rule.max_seeds));
  const long want = std::max<long>(check.needed, static_cast<long>(have) + batch);
  long n = (want + batch - 1) / batch * batch;
  n = std::min(n, 4L * std::max(1, have));
  n = std::max(n, static_cast<long>(have) + 1);
  return static_cast<int>(std::min<long>(n, rule.max_seeds));
}

std::vector<StrategyRuns> run_until_settled(const RunSeeds& run, const SeedRule& rule,
                                            SeedsChosen* chosen) {
  SeedsChosen out;
  out.automatic = true;
  out.rule = rule;
  std::vector<StrategyRuns> runs;
  int have = 0;
  int n = std::max(1, std::min(kAutoSeedBatch, rule.max_seeds));
  for (;;) {
    auto more = run(have, n);
    if (runs.empty())
      runs = std::move(more);
    else
      append_runs(runs, more);
    ++out.batches;
    have = n;
    const SeedCheck check = check_seeds(runs, rule);
    if (check.settled || have >= rule.max_seeds) {
      out.seeds = have;
      out.settled = check.settled;
      out.reason = check.settled ? check.reason
                                 : "stopped at the cap of " + std::to_string(rule.max_seeds) +
                                       " seeds (--max-seeds), not settled: " + check.reason;
      break;
    }
    n = next_seed_count(have, check, rule);
  }
  if (chosen) *chosen = std::move(out);
  return runs;
}

}  // namespace goodput
