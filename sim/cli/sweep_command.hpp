// `goodput sweep`: the cross product of --axis values run as a streamed, resumable sweep
// (sweep_runner.hpp), or with --seek a bisection for the smallest integer value of one field
// whose 95% CI of a strategy's metric meets a target, `--target METRIC>=X` or `METRIC<=X`
// (goal_seek.hpp; `--target-goodput X` is `--target goodput>=X`). Throws InputError for bad
// flags; returns the exit code.
#pragma once

#include <string>
#include <vector>

#include "sim/cli/seed_flags.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace goodput {

struct SweepArgs {
  std::string scenario, out;
  SeedFlags seed;  // --seeds N|auto, --ci-target, --tie-margin, --max-seeds
  std::vector<std::string> axes, sets;
  int threads = 0;
  bool quiet = false, resume = false;
  bool progress = false;  // --progress: progress on stderr even when it is not a terminal
  std::vector<std::string> command;  // canonical, recorded in the outputs (command_line.hpp)
  std::string seek, strategy;
  std::string strategies;  // --strategies a,b: only these (scenario parameters where given)
  long seek_min = 0, seek_max = 0;
  std::string target;          // --target METRIC>=X or METRIC<=X (goal_seek.hpp)
  double target_goodput = -1;  // --target-goodput X: the same as --target goodput>=X
  double max_events = 2e9;     // work budget (work_budget.hpp), over all points
  std::string max_memory;
  // Set by goodput-mpi (sim/mpi/): where points run, and how many at once; --seek stays local.
  PointRunner runner;
  int workers = 1;
  int stop_after = -1;  // tests: compute at most this many points (seek: values), then stop
};

int command_sweep(const SweepArgs& args);

}  // namespace goodput
