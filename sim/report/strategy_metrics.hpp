// The report's metrics, each declared once (strategy_metrics.cpp): one table of {name, unit, doc,
// value per run, Summary slot, where it is printed} over StrategySummary (report.hpp), each slot a
// Summary (mean, 95% CI) of the value over runs. The table drives every printer of a metric:
// build_report fills every slot; report.json (and a sweep's sweep.json, per point) writes each
// metric at its declared place in each strategy's object; runs.csv (and a sweep's points.csv) has
// one column per declared column, in table order; the Markdown "Goodput by strategy" table and the
// HTML "Numbers" table loop over it; the JSON Schemas' per-strategy parts are checked against it
// (report_schema_check.hpp); goal seek (`goodput sweep --target METRIC>=X`) parses, lists and
// prints its metrics, and `goodput describe metrics` lists them. A metric that is a run metric
// field (run_metrics.hpp) takes that field's name, unit and doc; any other is computed from a
// run's RunMetrics and keeps its Summary in StrategySummary::more, so a new metric is one row
// (ARCHITECTURE.md, "Add a metric"). Names are the report's keys: `goodput`, `ettr`, each badput
// bucket by bucket_name() (e.g. `WAITING_FOR_CAPACITY`), the counters and hours.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/report/report.hpp"

namespace goodput {

// Sets of run modes: where a metric means something, where an output carries it.
inline constexpr unsigned kTimeMode = 1, kSnapshotMode = 2, kEveryMode = 3;
bool in_modes(unsigned modes, RunMode mode);

// A column of the report's strategy tables (report.md's "Goodput by strategy", report.html's
// "Numbers"), shown only in the modes the metric applies to. Markdown cells are the mean with
// its 95% CI, HTML cells the mean; both as percentages, or through `number` (printf) when set.
struct MetricColumn {
  std::string label;             // the header; empty: not in this table
  const char* number = nullptr;  // e.g. "%.1f"; nullptr: a percentage
  bool ci_column = false;        // HTML: the CI half-width in a column of its own ("± 95% CI")
};

struct StrategyMetric {
  std::string name;               // e.g. "goodput", "WAITING_FOR_CAPACITY", "paused_hours"
  std::string unit;               // "fraction", "count", "h", "GPU-hours", ...
  std::string doc;                // one line
  bool integer = false;           // a count: runs.csv writes it whole
  unsigned applies = kEveryMode;  // the modes it means something in (the tables show it there)
  // report.json: a JSON pointer into each strategy's object ("/goodput", "/badput/X"; empty: not
  // written), holding its Summary object, or with `json_ci95` its mean there and the CI
  // half-width at `json_ci95`; written in the modes of `json_modes`. Pointers into a section
  // report_json lays out (badput, cluster_health, mechanisms_paid) fill that section; a top-level
  // metric comes after params and checkpoint when written in every mode, else after the sections.
  std::string json, json_ci95;
  unsigned json_modes = 0;
  // Written at the top level of a strategy's object ("/goodput"), not inside a section.
  bool top_level() const { return json.find('/', 1) == std::string::npos; }
  bool csv = false;  // a runs.csv / points.csv column (every mode: a stable header)
  // sweep.json: per point and strategy at `json` (in its modes), {mean, ci95}, or for a mean / CI
  // pair the mean alone; top-level metrics first, then the sections.
  bool sweep = false;
  MetricColumn markdown, html;  // the strategy tables' columns (empty labels: none)
  bool seek = true;             // a goal-seek target, listed by `goodput describe metrics`
  std::function<double(const RunMetrics&)> per_run;  // the value one run gave
  std::function<const Summary&(const StrategySummary&)> get;
  std::function<Summary&(StrategySummary&)> slot;  // the same Summary, to fill
};

const std::vector<StrategyMetric>& strategy_metrics();                // report order
const StrategyMetric* find_strategy_metric(const std::string& name);  // nullptr: unknown
std::vector<std::string> strategy_metric_names();                     // the goal-seek targets

// Tests only: adds `metric` (its Summary kept in StrategySummary::more) at the end of the table
// while the guard lives, so a test sees every printer carry a new metric. Not thread-safe; one
// at a time.
class ExtraMetricForTest {
 public:
  explicit ExtraMetricForTest(StrategyMetric metric);
  ~ExtraMetricForTest();
  ExtraMetricForTest(const ExtraMetricForTest&) = delete;
  ExtraMetricForTest& operator=(const ExtraMetricForTest&) = delete;
};

// A value in the metric's unit for people, to `digits` significant digits: fractions as
// percentages ("1%", "93.5%"), hours with " h", counts as plain numbers ("400"), other units
// appended ("12 GPU-hours").
std::string format_metric_value(const StrategyMetric& metric, double value, int digits = 6);

}  // namespace goodput
