#include "sim/run/run_metrics.hpp"

#include <type_traits>

namespace goodput {

namespace {

template <class T>
RunMetricField field(std::string name, std::string unit, std::string doc, T RunMetrics::*member) {
  RunMetricField f{std::move(name),
                   std::move(unit),
                   std::move(doc),
                   [member](const RunMetrics& m) { return Json(m.*member); },
                   [member](RunMetrics& m, const Json& j) { m.*member = j.get<T>(); },
                   {}};
  if constexpr (std::is_arithmetic_v<T>)
    f.scalar = [member](const RunMetrics& m) { return static_cast<double>(m.*member); };
  return f;
}

}  // namespace

const std::vector<RunMetricField>& run_metric_fields() {
  static const std::vector<RunMetricField> fields{
      field("goodput", "fraction", "useful, preserved training / wall time", &RunMetrics::goodput),
      field("badput", "fraction", "per bucket (Bucket order), ideal-time equivalents",
            &RunMetrics::badput),
      field("ettr", "fraction", "training time kept / wall time", &RunMetrics::ettr),
      field("interruptions", "count", "disruptions that stopped the whole job",
            &RunMetrics::interruptions),
      field("failures", "count", "faults that started within the horizon", &RunMetrics::failures),
      field("job_failures", "count", "faults that hit the job's GPUs", &RunMetrics::job_failures),
      field("gpu_hours_down", "GPU-hours", "failed GPUs integrated over time",
            &RunMetrics::gpu_hours_down),
      field("peak_failed_gpus", "GPUs", "most GPUs down at once", &RunMetrics::peak_failed_gpus),
      field("spare_gpu_hours", "GPU-hours", "healthy GPUs not used by the job",
            &RunMetrics::spare_gpu_hours),
      field("checkpoints", "count", "durable checkpoints", &RunMetrics::checkpoints),
      field("rollbacks", "count", "returns to the last durable checkpoint", &RunMetrics::rollbacks),
      field("events", "count", "engine events fired", &RunMetrics::events),
      field("boost_energy_gpu_hours", "GPU-TDP-hours", "extra power x time (ntp_boost)",
            &RunMetrics::boost_energy_gpu_hours),
      field("boosted_domain_hours", "domain-hours", "domains boosted x time",
            &RunMetrics::boosted_domain_hours),
      field("healthy_tp_groups_fraction", "fraction",
            "snapshot mode: job TP groups with no failed GPU",
            &RunMetrics::healthy_tp_groups_fraction),
      field("wall_hours", "h", "the run's horizon", &RunMetrics::wall_hours),
      field("completion_hours", "h",
            "hours until progress first reached /report/train_hours (-1: not within the "
            "horizon, 0: no target)",
            &RunMetrics::completion_hours),
      field("failed_gpus_mean", "GPUs", "failed GPUs, time-weighted mean",
            &RunMetrics::failed_gpus_mean),
      field("failed_gpus_p50", "GPUs", "failed GPUs, time-weighted median",
            &RunMetrics::failed_gpus_p50),
      field("failed_gpus_p90", "GPUs", "failed GPUs, time-weighted 90th percentile",
            &RunMetrics::failed_gpus_p90),
      field("failed_gpus_p99", "GPUs", "failed GPUs, time-weighted 99th percentile",
            &RunMetrics::failed_gpus_p99),
      field("time_above_failed", "fraction",
            "per /report/failed_gpu_thresholds entry: time above it",
            &RunMetrics::time_above_failed),
      field("paid_count", "count", "recovery mechanisms paid (Mechanism order)",
            &RunMetrics::paid_count),
      field("paid_stall_hours", "h", "hours stalled for each mechanism (Mechanism order)",
            &RunMetrics::paid_stall_hours),
  };
  return fields;
}

const RunMetricField* find_run_metric_field(const std::string& name) {
  for (const auto& f : run_metric_fields())
    if (f.name == name) return &f;
  return nullptr;
}

Json run_metrics_to_json(const RunMetrics& m) {
  Json j = Json::object();
  for (const auto& f : run_metric_fields()) j[f.name] = f.get(m);
  return j;
}

RunMetrics run_metrics_from_json(const Json& j) {
  RunMetrics m;
  for (const auto& f : run_metric_fields()) f.set(m, j.at(f.name));
  return m;
}

}  // namespace goodput
