// `goodput validate SCENARIO.json...`: loads each scenario and builds its plan (which also checks
// trace files against the topology), then prints what it resolved to: the GPUs, domains and spare
// domains, the job's size (TP x PP x DP and the GPUs and domains it uses), the expected faults
// touching the job per hour and per run, and how many of the job's domains are down at any time
// with the share of time a fault finds no spare domain (formulas in scenario_shape); warnings go
// to stderr ("warning: FILE: ..."), e.g. a spare pool smaller than the mean number of domains
// down. Exit 0 when every file is valid (warnings or not), 2 when any is bad input (its error
// on stderr; the others are still checked).
#pragma once

#include <string>
#include <vector>

namespace goodput {

struct RunPlan;

// What a scenario resolved to, as validate prints it: indented lines after the "FILE: ok" line.
struct ScenarioShape {
  std::vector<std::string> lines;
  std::vector<std::string> warnings;
};

ScenarioShape scenario_shape(const RunPlan& plan);
int command_validate(const std::vector<std::string>& files);

}  // namespace goodput
