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
// `flags[i]` names the command-line flag overrides[i] came from ("--set" when missing): an
// error in an override's value names that flag and the override, not the file.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {},
                       const std::vector<std::string>& flags = {});
Scenario parse_scenario(const Json& input, const std::string& file);

}  // namespace goodput
