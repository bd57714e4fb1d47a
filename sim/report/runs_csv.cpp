#include "sim/report/runs_csv.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "sim/report/csv_cell.hpp"
#include "sim/report/report.hpp"

namespace goodput {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// A run metric field as written in a cell: integers whole, numbers to 10 significant digits.
std::string cell(const Json& value) {
  return value.is_number_integer() ? std::to_string(value.get<std::int64_t>())
                                   : num(value.get<double>());
}

// The run metric fields that are columns of their own, in column order, after goodput and the
// badput buckets; the threshold columns and completion_hours follow them.
constexpr const char* kFieldColumns[] = {"goodput_per_provisioned_gpu",
                                         "ettr",
                                         "interruptions",
                                         "failures",
                                         "job_failures",
                                         "gpu_hours_down",
                                         "peak_failed_gpus",
                                         "spare_gpu_hours",
                                         "checkpoints",
                                         "events",
                                         "boost_energy_gpu_hours",
                                         "healthy_tp_groups_fraction",
                                         "failed_gpus_mean",
                                         "failed_gpus_p50",
                                         "failed_gpus_p90",
                                         "failed_gpus_p99"};

// kFieldColumns' fields, looked up once.
const std::vector<const RunMetricField*>& column_fields() {
  static const std::vector<const RunMetricField*> fields = [] {
    std::vector<const RunMetricField*> out;
    for (const char* name : kFieldColumns) {
      const RunMetricField* f = find_run_metric_field(name);
      if (f == nullptr)
        throw std::logic_error(std::string("runs.csv column '") + name +
                               "' is no run metric field");
      out.push_back(f);
    }
    return out;
  }();
  return fields;
}

bool has_completion(const Scenario& sc) {
  return sc.train_hours > 0 && sc.mode != RunMode::Snapshot;
}

}  // namespace

std::string runs_csv_header(const Scenario& sc) {
  std::string out = "run,seed,strategy,goodput";
  for (int b = 0; b < kBucketCount; ++b)
    out += std::string(",") + bucket_name(static_cast<Bucket>(b));
  for (const RunMetricField* f : column_fields()) out += "," + f->name;
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
  std::string out = std::to_string(r) + "," + std::to_string(sc.seed) + "," + csv_cell(strategy) +
                    "," + num(m.goodput);
  for (double b : m.badput) out += "," + num(b);
  for (const RunMetricField* f : column_fields()) out += "," + cell(f->get(m));
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
