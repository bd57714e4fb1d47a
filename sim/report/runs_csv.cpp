#include "sim/report/runs_csv.hpp"

#include <cstdint>
#include <cstdio>

#include "sim/report/csv_cell.hpp"
#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// A metric's value in a cell: counts whole, numbers to 10 significant digits.
std::string cell(const StrategyMetric& metric, const RunMetrics& m) {
  const double v = metric.per_run(m);
  return metric.integer ? fmt("%.0f", v) : num(v);
}

bool has_completion(const Scenario& sc) {
  return sc.train_hours > 0 && sc.mode != RunMode::Snapshot;
}

}  // namespace

std::string runs_csv_header(const Scenario& sc) {
  std::string out = "run,seed,strategy";
  for (const StrategyMetric& metric : strategy_metrics())
    if (metric.csv) out += "," + metric.name;
  for (double x : sc.failed_gpu_thresholds) {
    char name[64];
    std::snprintf(name, sizeof name, ",time_above_failed_%.10g", x);
    out += name;
  }
  if (has_completion(sc)) out += ",completion_hours";
  return out;
}

std::string runs_csv_row(const Scenario& sc, const std::string& strategy, std::size_t r,
                         const RunMetrics& m) {
  std::string out = std::to_string(r) + "," + std::to_string(sc.seed) + "," + csv_cell(strategy);
  for (const StrategyMetric& metric : strategy_metrics())
    if (metric.csv) out += "," + cell(metric, m);
  for (std::size_t k = 0; k < sc.failed_gpu_thresholds.size(); ++k)
    out += "," + num(k < m.time_above_failed.size() ? m.time_above_failed[k] : 0.0);
  if (has_completion(sc)) out += "," + num(m.completion_hours);
  return out;
}

std::string runs_csv(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  std::string out = runs_csv_header(sc) + "\n";
  const std::size_t runs = rep.runs.empty() ? 0 : rep.runs[0].runs.size();
  for (std::size_t r = 0; r < runs; ++r)
    for (const auto& sr : rep.runs) out += runs_csv_row(sc, sr.strategy, r, sr.runs[r]) + "\n";
  return out;
}

}  // namespace goodput
