// The per-strategy metrics of the report model, by name: one table of {name, unit, doc,
// accessor} over StrategySummary (report.hpp), each returning a Summary (mean, 95% CI). Goal
// seek (`goodput sweep --target METRIC>=X`) parses, lists and prints metrics from it; other
// printers may grow from it. Names are the report's keys: `goodput`, `ettr`, each badput
// bucket by bucket_name() (e.g. `WAITING_FOR_CAPACITY`), the counters and hours.
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
  std::function<const Summary&(const StrategySummary&)> get;
};

const std::vector<StrategyMetric>& strategy_metrics();                // report order
const StrategyMetric* find_strategy_metric(const std::string& name);  // nullptr: unknown
std::vector<std::string> strategy_metric_names();

// A value in the metric's unit for people, to `digits` significant digits: fractions as
// percentages ("1%", "93.5%"), hours with " h", counts as plain numbers ("400"), other units
// appended ("12 GPU-hours").
std::string format_metric_value(const StrategyMetric& metric, double value, int digits = 6);

}  // namespace goodput
