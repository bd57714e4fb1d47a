// The table `goodput sweep` prints when it ends (plain text, for a terminal): one row per point
// with its axis values, each strategy's mean Goodput and the best strategy, marked when its lead
// over the runner-up is not significant at 95% (paired CI includes 0, or one seed). The full
// tables, with CIs and losses, are in the sweep's report.md.
#pragma once

#include <string>

#include "sim/sweep/sweep_report.hpp"

namespace goodput {

inline constexpr std::size_t kSweepTableRows = 40;  // more points: the rest are in report.md

std::string sweep_terminal_table(const Sweep& sweep);

}  // namespace goodput
