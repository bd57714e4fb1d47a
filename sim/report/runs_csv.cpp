#include "sim/report/runs_csv.hpp"

#include <cstdio>

#include "sim/report/report.hpp"

namespace goodput {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::string runs_csv_header(const Scenario& sc) {
  std::string out = "run,seed,strategy,goodput";
  for (int b = 0; b < kBucketCount; ++b)
    out += std::string(",") + bucket_name(static_cast<Bucket>(b));
  out +=
      ",ettr,interruptions,failures,job_failures,gpu_hours_down,peak_failed_gpus,spare_gpu_hours,"
      "checkpoints,events,boost_energy_gpu_hours,healthy_tp_groups_fraction,failed_gpus_mean,"
      "failed_gpus_p50,failed_gpus_p90,failed_gpus_p99";
  for (double x : sc.failed_gpu_thresholds) {
    char name[64];
    std::snprintf(name, sizeof name, ",time_above_failed_%.10g", x);
    out += name;
  }
  if (sc.train_hours > 0 && sc.mode != RunMode::Snapshot) out += ",completion_hours";
  return out;
}

std::string runs_csv_row(const Scenario& sc, const std::string& strategy, std::size_t r,
                         const RunMetrics& m) {
  std::string out =
      std::to_string(r) + "," + std::to_string(sc.seed) + "," + strategy + "," + num(m.goodput);
  for (double b : m.badput) out += "," + num(b);
  out += "," + num(m.ettr) + "," + std::to_string(m.interruptions) + "," +
         std::to_string(m.failures) + "," + std::to_string(m.job_failures) + "," +
         num(m.gpu_hours_down) + "," + std::to_string(m.peak_failed_gpus) + "," +
         num(m.spare_gpu_hours) + "," + std::to_string(m.checkpoints) + "," +
         std::to_string(m.events) + "," + num(m.boost_energy_gpu_hours) + "," +
         num(m.healthy_tp_groups_fraction) + "," + num(m.failed_gpus_mean) + "," +
         num(m.failed_gpus_p50) + "," + num(m.failed_gpus_p90) + "," + num(m.failed_gpus_p99);
  for (std::size_t k = 0; k < sc.failed_gpu_thresholds.size(); ++k)
    out += "," + num(k < m.time_above_failed.size() ? m.time_above_failed[k] : 0.0);
  if (sc.train_hours > 0 && sc.mode != RunMode::Snapshot) out += "," + num(m.completion_hours);
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
