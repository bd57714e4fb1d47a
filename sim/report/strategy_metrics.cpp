#include "sim/report/strategy_metrics.hpp"

#include <cmath>
#include <cstdio>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

StrategyMetric member(std::string name, std::string unit, std::string doc,
                      Summary StrategySummary::*field) {
  return {std::move(name), std::move(unit), std::move(doc),
          [field](const StrategySummary& s) -> const Summary& { return s.*field; }};
}

const char* bucket_doc(Bucket b) {
  switch (b) {
    case Bucket::WastedProgress:
      return "badput: work rolled back or lost mid-step";
    case Bucket::InfrastructureRecovery:
      return "badput: detection, restart, swap and rebuild stalls";
    case Bucket::CheckpointSave:
      return "badput: blocking checkpoint saves";
    case Bucket::CheckpointRestore:
      return "badput: checkpoint loads";
    case Bucket::DegradedCapacity:
      return "badput: running with fewer replicas or smaller batches";
    case Bucket::ReshardOverhead:
      return "badput: exposed NTP gradient reshard time";
    case Bucket::WaitingForCapacity:
      return "badput: paused for lack of healthy hardware";
  }
  return "badput";
}

std::vector<StrategyMetric> make_table() {
  using S = StrategySummary;
  std::vector<StrategyMetric> t{
      member("goodput", "fraction", "useful, preserved training / wall time", &S::goodput),
      member("ettr", "fraction", "training time kept / wall time", &S::ettr),
  };
  for (int b = 0; b < kBucketCount; ++b)
    t.push_back(
        {bucket_name(static_cast<Bucket>(b)), "fraction", bucket_doc(static_cast<Bucket>(b)),
         [b](const S& s) -> const Summary& { return s.badput[static_cast<std::size_t>(b)]; }});
  const std::vector<StrategyMetric> rest{
      member("interruptions", "count", "disruptions that stopped the whole job", &S::interruptions),
      member("paused_hours", "h", "hours paused for capacity (WAITING_FOR_CAPACITY x wall time)",
             &S::paused_hours),
      member("failures", "count", "faults that started within the horizon", &S::failures),
      member("job_failures", "count", "faults that hit the job's GPUs", &S::job_failures),
      member("checkpoints", "count", "durable checkpoints", &S::checkpoints),
      member("gpu_hours_down", "GPU-hours", "failed GPUs integrated over time", &S::gpu_hours_down),
      member("peak_failed_gpus", "GPUs", "most GPUs down at once", &S::peak_failed_gpus),
      member("spare_gpu_hours", "GPU-hours", "healthy GPUs not used by the job",
             &S::spare_gpu_hours),
      member("boost_energy_gpu_hours", "GPU-TDP-hours", "extra power x time (ntp_boost)",
             &S::boost_energy_gpu_hours),
      member("boosted_domain_hours", "domain-hours", "domains boosted x time",
             &S::boosted_domain_hours),
      member("healthy_tp_groups_fraction", "fraction",
             "snapshot mode: job TP groups with no failed GPU", &S::healthy_tp_groups_fraction),
      member("failed_gpus_mean", "GPUs", "failed GPUs, time-weighted mean", &S::failed_gpus_mean),
      member("failed_gpus_p50", "GPUs", "failed GPUs, time-weighted median", &S::failed_gpus_p50),
      member("failed_gpus_p90", "GPUs", "failed GPUs, time-weighted 90th percentile",
             &S::failed_gpus_p90),
      member("failed_gpus_p99", "GPUs", "failed GPUs, time-weighted 99th percentile",
             &S::failed_gpus_p99),
  };
  t.insert(t.end(), rest.begin(), rest.end());
  for (int k = 0; k < kMechanismCount; ++k) {
    const std::string m = mechanism_name(static_cast<Mechanism>(k));
    const auto i = static_cast<std::size_t>(k);
    t.push_back({m + "_count", "count", "times " + m + " was paid",
                 [i](const S& s) -> const Summary& { return s.paid_count[i]; }});
    t.push_back({m + "_stall_hours", "h", "hours the job stood still for " + m,
                 [i](const S& s) -> const Summary& { return s.paid_stall_hours[i]; }});
  }
  return t;
}

}  // namespace

const std::vector<StrategyMetric>& strategy_metrics() {
  static const std::vector<StrategyMetric> table = make_table();
  return table;
}

const StrategyMetric* find_strategy_metric(const std::string& name) {
  for (const auto& m : strategy_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> strategy_metric_names() {
  std::vector<std::string> names;
  for (const auto& m : strategy_metrics()) names.push_back(m.name);
  return names;
}

std::string format_metric_value(const StrategyMetric& metric, double value, int digits) {
  char format[16];  // %.<digits>g, but whole numbers rather than exponents from 10^digits up
  std::snprintf(format, sizeof format, "%%.%dg", digits);
  const double shown = metric.unit == "fraction" ? 100 * value : value;
  if (std::fabs(shown) >= std::pow(10.0, digits)) std::snprintf(format, sizeof format, "%%.0f");
  if (metric.unit == "fraction") return fmt(format, 100 * value) + "%";
  if (metric.unit == "count") return fmt(format, value);
  return fmt(format, value) + " " + metric.unit;
}

}  // namespace goodput
