// Strict scenario loading: parse JSON (syntax errors name file, line and column), apply
// --set overrides, validate every section against its declarations (unknown keys, types,
// ranges -> InputError with the JSON pointer), check cross-field rules (the job fits the
// cluster, TP fits a domain, trace files exist and parse), and fill in defaults.
#pragma once

#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"

namespace goodput {

Json read_json_file(const std::string& path);
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});
Scenario parse_scenario(const Json& input, const std::string& file);

}  // namespace goodput
