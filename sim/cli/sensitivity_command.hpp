// `goodput sensitivity SCENARIO [--param PTR[=LO:HI]]...`: what the verdict depends on. Moves
// each uncertain input over a range under common random numbers, prints a tornado table of
// the winner's Goodput and the break-even value at which the winner and runner-up swap, and
// writes sensitivity.json and sensitivity.md (sim/report/sensitivity.hpp) into an OutputDir.
// Throws InputError for bad input (exit 2); returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace goodput {

struct SensitivityArgs {
  std::string scenario, out, strategies;
  std::vector<std::string> params, sets;
  int seeds = 0;
  int threads = 0;
  bool quiet = false;
  double max_events = 2e9;  // work budget (work_budget.hpp), over base and range ends
  std::string max_memory;
  bool progress = false;
  std::vector<std::string> command;  // canonical, recorded in the outputs (command_line.hpp)
};

CLI::App* add_sensitivity(CLI::App& app, SensitivityArgs& args);
int command_sensitivity(const SensitivityArgs& args);

}  // namespace goodput
