// report.html of a sweep: Goodput against each axis with CI bands (small multiples over two or
// more axes, a heat map of the leader for two), the trade-off chart with prices, and the goal
// seek's evaluated points; drawn with the same page and chart helpers as a run's report.html.
#pragma once

#include <string>

#include "sim/sweep/sweep_report.hpp"

namespace goodput {

std::string sweep_html(const Sweep& sweep);

}  // namespace goodput
