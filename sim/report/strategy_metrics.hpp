// The per-strategy metrics of the report model, by name: one table of {name, unit, doc, value
// per run, slot} over StrategySummary (report.hpp), each slot a Summary (mean, 95% CI) of the
// value over runs. build_report fills every slot from it; goal seek (`goodput sweep --target
// METRIC>=X`) parses, lists and prints metrics from it. A metric that is a run metric field
// (run_metrics.hpp) takes that field's name, unit and doc, so a new summarized metric is one
// row. Names are the report's keys: `goodput`, `ettr`, each badput bucket by bucket_name()
// (e.g. `WAITING_FOR_CAPACITY`), the counters and hours.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/report/report.hpp"

namespace goodput {

struct StrategyMetric {
  std::string name;  // e.g. "goodput", "WAITING_FOR_CAPACITY", "paused_hours"
  std::string unit;  // "fraction", "count", "h", "GPU-hours", ...
  std::string doc;   // one line
  std::function<double(const RunMetrics&)> per_run;  // the value one run gave
  std::function<const Summary&(const StrategySummary&)> get;
  std::function<Summary&(StrategySummary&)> slot;  // the same Summary, to fill
};

const std::vector<StrategyMetric>& strategy_metrics();                // report order
const StrategyMetric* find_strategy_metric(const std::string& name);  // nullptr: unknown
std::vector<std::string> strategy_metric_names();

// A value in the metric's unit for people, to `digits` significant digits: fractions as
// percentages ("1%", "93.5%"), hours with " h", counts as plain numbers ("400"), other units
// appended ("12 GPU-hours").
std::string format_metric_value(const StrategyMetric& metric, double value, int digits = 6);

}  // namespace goodput
