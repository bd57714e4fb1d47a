// Whether report.json's JSON Schema (sim/report/schema/report.schema.json, written by hand) agrees
// with the metric table (strategy_metrics.hpp) in its per-strategy part, $defs/strategy, the way
// the README's tables are kept in sync with `goodput describe`: a test
// (tests/report/test_metric_table.cpp) reads the shipped schema and fails on any problem.
//  - every metric report.json carries is in the schema at its declared place: a $defs/summary,
//    or numbers for a mean / CI pair (the badput buckets); at a strategy's top level it is
//    required exactly when written in every mode;
//  - every summary the schema declares at a strategy's top level, and every summary (or number,
//    beside mean / CI pairs) in a section the table fills, is a metric of the table, or at the top
//    level one of report_json_derived_keys().
#pragma once

#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace goodput {

// The problems found (empty: in sync), each naming the schema pointer and the metric.
std::vector<std::string> report_schema_metric_problems(const Json& schema);

}  // namespace goodput
