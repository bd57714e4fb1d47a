// The seed flags `goodput run` and `goodput sweep` share: --seeds N|auto, and for auto the
// stopping rule's --ci-target, --tie-margin and --max-seeds (sim/run/seed_rule.hpp). One parser,
// so both commands (and goodput-mpi) read them alike. A scenario's "seeds": "auto" is the same as
// --seeds auto; --seeds N overrides it.
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

// Before the scenario is loaded: --seeds N pushes "/seeds=N" and --seeds auto "/seeds=auto" onto
// `overrides`, so the scenario as loaded says which applies (Scenario::seeds_auto, whether from
// the flag, the file's "seeds": "auto" or --set /seeds=auto). Returns the rule a scenario that
// says auto runs by: the flags' values, the defaults where one was not given. A bad --seeds:
// InputError naming it.
SeedRule seed_rule(const SeedFlags& flags, std::vector<std::string>& overrides);

// After loading: --ci-target, --tie-margin or a --max-seeds other than the default when no
// scenario to be run says auto (`any_auto` false): InputError naming the flag.
void check_seed_flags(const SeedFlags& flags, bool any_auto);

}  // namespace goodput
