#include "sim/cli/seed_flags.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "sim/cli/command_line.hpp"
#include "sim/core/error.hpp"

namespace goodput {

void add_seed_flags(CLI::App& cmd, SeedFlags& f, const std::string& per) {
  const SeedRule d;
  const std::string each = per.empty() ? "" : " " + per;
  affects_results(cmd.add_option(
      "--seeds", f.seeds,
      "Monte Carlo runs" + each +
          " (overrides /seeds), or auto (as /seeds \"auto\"): add seeds in batches of " +
          std::to_string(kAutoSeedBatch) +
          " until the leader's paired lead over every rival is significant at 95% or tied "
          "within --tie-margin and every Goodput CI is within --ci-target"));
  affects_results(cmd.add_option("--ci-target", f.ci_target,
                                 "--seeds auto: each Goodput 95% CI half-width at most this "
                                 "(a fraction; default " +
                                     CLI::detail::to_string(d.ci_target) + ")"))
      ->check(positive_number());
  affects_results(cmd.add_option("--tie-margin", f.tie_margin,
                                 "--seeds auto: a rival whose paired 95% CI lies within +-this "
                                 "of the leader is tied (a fraction; default " +
                                     CLI::detail::to_string(d.tie_margin) + ")"))
      ->check(CLI::Range(0.0, 1.0));
  affects_results(cmd.add_option("--max-seeds", f.max_seeds,
                                 "--seeds auto: at most this many seeds" + each + " (default " +
                                     std::to_string(d.max_seeds) + ")"))
      ->check(CLI::Range(2, 1000000));
}

SeedRule seed_rule(const SeedFlags& f, std::vector<std::string>& overrides) {
  SeedRule r;
  if (f.ci_target > 0) r.ci_target = f.ci_target;
  if (f.tie_margin >= 0) r.tie_margin = f.tie_margin;
  r.max_seeds = f.max_seeds;
  if (f.seeds == "auto") {
    overrides.push_back("/seeds=auto");
  } else if (!f.seeds.empty()) {
    char* end = nullptr;
    const long n = std::strtol(f.seeds.c_str(), &end, 10);
    if (*end || n < 1 || n > 1000000)
      throw InputError("--seeds", f.seeds, "expected a positive integer (at most 1000000) or auto");
    overrides.push_back("/seeds=" + std::to_string(n));
  }
  return r;
}

void check_seed_flags(const SeedFlags& f, bool any_auto) {
  if (any_auto) return;
  const char* flag = f.ci_target > 0                       ? "--ci-target"
                     : f.tie_margin >= 0                   ? "--tie-margin"
                     : f.max_seeds != SeedRule{}.max_seeds ? "--max-seeds"
                                                           : nullptr;
  if (flag)
    throw InputError(flag, "",
                     "applies to --seeds auto only (or a scenario whose \"seeds\" is \"auto\")");
}

}  // namespace goodput
