// Goal seek, explained: from the "seek" block of sweep.json (sweep_command.cpp writes it), the
// reason there is no answer, and for the sweep's report.html a section with the target, the
// answer (met when the metric's 95% CI bound clears the target; one seed: the mean), every
// evaluated value in the order bisection tried it, and a chart of the metric against the value
// with the target drawn in.
#pragma once

#include <string>

#include "sim/core/params.hpp"
#include "sim/report/html_page.hpp"

namespace goodput {

// Why no value in [min, max] meets the target (the largest value misses it: by the mean, or
// only by its CI bound, so more seeds might decide), with what to try; "" when there is an
// answer.
std::string seek_reason(const Json& seek);
// The HTML section: target, answer or reason, the evaluations table, warnings, the assumption.
std::string seek_html_section(const Json& seek);
// The metric's mean with its 95% CI per evaluated value, meeting values filled, the target as
// a horizontal rule.
HtmlChart seek_chart(const Json& seek);

}  // namespace goodput
