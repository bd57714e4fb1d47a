// Whether the JSON Schemas (sim/report/schema/, written by hand) agree with the metric table
// (strategy_metrics.hpp) in their per-strategy parts: report.schema.json's $defs/strategy and
// sweep.schema.json's per-point strategy object. The way the README's tables are kept in sync
// with `goodput describe`: a test (tests/report/test_metric_table.cpp) reads the shipped schemas
// and fails on any problem.
//  - every metric the file carries is in the schema at its declared place (StrategyMetric::json):
//    a summary (report.json: a $ref to $defs/summary; sweep.json: an object of mean and ci95), or
//    numbers for a mean / CI pair (the badput buckets); at a strategy's top level it is required
//    exactly when written in every mode;
//  - every summary the schema declares at a strategy's top level, and every summary (or number,
//    beside mean / CI pairs) in a section the table fills, is a metric of the table, or at
//    report.json's top level one of report_json_derived_keys().
#pragma once

#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace goodput {

// The problems found (empty: in sync), each naming the schema pointer and the metric.
std::vector<std::string> report_schema_metric_problems(const Json& schema);
std::vector<std::string> sweep_schema_metric_problems(const Json& schema);

}  // namespace goodput
