// The columns of runs.csv: one row per (run, strategy) with every per-run metric. A sweep's
// points.csv is these same columns with the point number and the axis values in front, so a
// sweep's rows join a run's runs.csv on (run, strategy) and carry every column it has.
#pragma once

#include <cstddef>
#include <string>

#include "models/scenario/scenario.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

// "run,seed,strategy,goodput,<buckets>,...,time_above_failed_<x>..." (no newline): a column per
// metric the table declares for runs.csv (strategy_metrics.hpp), in table order, then one per
// `scenario`'s /report/failed_gpu_thresholds entry and, with a training target, completion_hours.
std::string runs_csv_header(const Scenario& scenario);
// The matching row (no newline).
std::string runs_csv_row(const Scenario& scenario, const std::string& strategy, std::size_t run,
                         const RunMetrics& m);

}  // namespace goodput
