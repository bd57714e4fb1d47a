// Named failure-class lists, derived from public figures (shared/reference/failure-rates.md).
#pragma once

#include <string>
#include <vector>

#include "models/failures/failure_spec.hpp"

namespace goodput {

std::vector<FailureClassSpec> failure_preset(const std::string& name);
// One paragraph per preset: where its numbers come from.
std::string failure_preset_doc(const std::string& name);
std::vector<std::string> failure_preset_names();

}  // namespace goodput
