// `goodput describe`: what the scenario loader accepts, printed from the same declarations.
#pragma once

#include <string>

namespace goodput {

// topic: "strategies", "failure-models", "schema" or "" (all). Markdown.
std::string describe(const std::string& topic);

}  // namespace goodput
