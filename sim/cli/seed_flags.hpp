// The seed flags `goodput run` and `goodput sweep` share: --seeds N|auto, and for auto the
// stopping rule's --ci-target, --tie-margin and --max-seeds (sim/run/seed_rule.hpp). One parser,
// so both commands (and goodput-mpi) read them alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/run/seed_rule.hpp"

namespace CLI {
class App;
}

namespace goodput {

struct SeedFlags {
  std::string seeds;       // "" (the scenario's), N, or "auto"
  double ci_target = 0;    // 0: not given (the rule's default)
  double tie_margin = -1;  // < 0: not given (the rule's default)
  int max_seeds = SeedRule{}.max_seeds;
};

// Registers the four flags on `cmd`; `per` names what a seed is run for ("per point", "").
void add_seed_flags(CLI::App& cmd, SeedFlags& flags, const std::string& per);

// --seeds N: pushes "/seeds=N" onto `overrides` and returns nullopt; --seeds auto: the rule
// (defaults where a flag was not given); nothing: nullopt. --ci-target, --tie-margin or a
// --max-seeds other than the default without --seeds auto: InputError naming the flag.
std::optional<SeedRule> seed_rule(const SeedFlags& flags, std::vector<std::string>& overrides);

}  // namespace goodput
