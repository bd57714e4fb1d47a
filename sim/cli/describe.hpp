// `goodput describe`: what the scenario loader accepts and what the reports measure, printed from
// the same declarations (the parameter sections, the strategy table, the metric tables).
#pragma once

#include <string>

namespace goodput {

// topic: "strategies", "failure-models", "schema", "metrics" or "" (all). Markdown.
std::string describe(const std::string& topic);

}  // namespace goodput
