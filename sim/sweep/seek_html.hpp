// Goal seek, explained: from the "seek" block of sweep.json (sweep_command.cpp writes it), the
// reason there is no answer, and for the sweep's report.html a section with the target, the
// answer (met when the metric's 95% CI bound clears the target; one seed: the mean), every
// evaluated value in the order bisection tried it, and a chart of the metric against the value
// with the target drawn in.
#pragma once

#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/report/html_page.hpp"

namespace goodput {

// Why no value in [min, max] meets the target (the largest value misses it: by the mean, or
// only by its CI bound, so more seeds might decide), with what to try; "" when there is an
// answer.
std::string seek_reason(const Json& seek);
// The HTML section: target, answer or reason, the evaluations table, warnings, the assumption.
std::string seek_html_section(const Json& seek);
// The view the seek chart is zoomed to: the answer and the evaluated values on either side of it
// (no answer: the largest value and the one below it), with a margin, and on y their 95% CIs
// and the target (a fraction within 0..1). `values`: the evaluated values inside it.
struct SeekWindow {
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
  std::vector<double> values;
};
SeekWindow seek_window(const Json& seek);
// The metric's mean with its 95% CI per evaluated value inside seek_window, meeting values
// green, the target as a dashed horizontal rule with its label, the answer as a dotted
// vertical one; the axes' domains are the window's.
HtmlChart seek_chart(const Json& seek);

}  // namespace goodput
