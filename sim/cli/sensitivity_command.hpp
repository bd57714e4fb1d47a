// `goodput sensitivity SCENARIO [--param PTR[=LO:HI]]...`: what the verdict depends on. Moves
// each uncertain input over a range (default: the plausible table, plausible.hpp, with its model
// switches) under common random numbers, prints a tornado table of the winner's Goodput, the
// break-evens against every rival and the robustness line, and writes sensitivity.json, .md
// and .html (sim/report/sensitivity.hpp) into an OutputDir.
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
  int robustness_points = 32;        // 0: no robustness line
  int robustness_seeds = 0;          // 0: max(2, seeds / 4), at most the scenario's
  std::vector<std::string> command;  // canonical, recorded in the outputs (command_line.hpp)
};

CLI::App* add_sensitivity(CLI::App& app, SensitivityArgs& args);
int command_sensitivity(const SensitivityArgs& args);

}  // namespace goodput
