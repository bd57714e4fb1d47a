// `goodput describe`: what the scenario loader accepts, what the reports measure and what a
// calibration profile holds, printed from the same declarations (the parameter sections, the
// strategy table, the metric tables, the profile's sections).
#pragma once

#include <string>
#include <vector>

namespace goodput {

// The topics, in the order "" (all) prints them.
const std::vector<std::string>& describe_topics();
// topic: one of describe_topics(), or "" (all). Markdown.
std::string describe(const std::string& topic);

}  // namespace goodput
