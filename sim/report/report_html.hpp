// report.html for one run: the same result model as report.json / report.md, drawn with
// Vega-Lite (Goodput per strategy with 95% CIs, badput as stacked bars, time in state:
// time_in_state() of report.hpp). A sweep's page is sim/sweep/sweep_html.hpp.
#pragma once

#include <string>

#include "sim/report/report.hpp"

namespace goodput {

std::string report_html(const Report& report);

}  // namespace goodput
