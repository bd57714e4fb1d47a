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
// The scenario file's JSON Schema (draft 2020-12), from the same declarations: every key with
// its type, range, choices, default, unit and doc; /strategies from the strategy table
// (`goodput describe schema --json`, sim/report/schema/scenario.schema.json).
std::string scenario_json_schema_text();
// Every key a scenario declares, as the JSON pointer --set, --axis, --seek and --param take
// ("/cluster/spare_domains"; a list of objects once whole and once through its first element,
// "/failures/classes/0/mtbf_hours"; "/strategies/NAME" and its parameters), for completion.
std::vector<std::string> scenario_pointers();

}  // namespace goodput
