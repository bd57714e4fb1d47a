#include "sim/report/strategy_metrics.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

using S = StrategySummary;

// A metric whose Summary is `get` of a StrategySummary (one member, or one array entry).
template <class Get>
StrategyMetric metric(std::string name, std::string unit, std::string doc,
                      std::function<double(const RunMetrics&)> per_run, Get get) {
  return {std::move(name),
          std::move(unit),
          std::move(doc),
          std::move(per_run),
          [get](const S& s) -> const Summary& { return get(s); },
          [get](S& s) -> Summary& { return get(s); }};
}

// A run metric field summarized over runs into `slot`: its name, unit and doc are the field's.
StrategyMetric of_run(const std::string& name, Summary S::*slot) {
  const RunMetricField* f = find_run_metric_field(name);
  if (f == nullptr || !f->scalar)
    throw std::logic_error("strategy metric '" + name + "' is not a number run metric field");
  return metric(
      f->name, f->unit, f->doc, f->scalar, [slot](auto& s) -> auto& { return s.*slot; });
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
    case Bucket::SlowComponents:
      return "badput: paced by slow (fail-slow) GPUs or links";
  }
  return "badput";
}

std::vector<StrategyMetric> make_table() {
  std::vector<StrategyMetric> t{
      of_run("goodput", &S::goodput),
      of_run("goodput_per_provisioned_gpu", &S::goodput_per_provisioned_gpu),
      of_run("ettr", &S::ettr)};
  for (int b = 0; b < kBucketCount; ++b) {
    const auto i = static_cast<std::size_t>(b);
    t.push_back(metric(
        bucket_name(static_cast<Bucket>(b)), "fraction", bucket_doc(static_cast<Bucket>(b)),
        [i](const RunMetrics& m) { return m.badput[i]; },
        [i](auto& s) -> auto& { return s.badput[i]; }));
  }
  t.push_back(of_run("interruptions", &S::interruptions));
  t.push_back(metric(
      "paused_hours", "h", "hours paused for capacity (WAITING_FOR_CAPACITY x wall time)",
      [](const RunMetrics& m) {
        return m.badput[static_cast<std::size_t>(Bucket::WaitingForCapacity)] * m.wall_hours;
      },
      [](auto& s) -> auto& { return s.paused_hours; }));
  using Row = std::pair<const char*, Summary S::*>;
  for (const auto& [name, slot] : {Row{"failures", &S::failures},
                                   {"job_failures", &S::job_failures},
                                   {"checkpoints", &S::checkpoints},
                                   {"gpu_hours_down", &S::gpu_hours_down},
                                   {"peak_failed_gpus", &S::peak_failed_gpus},
                                   {"spare_gpu_hours", &S::spare_gpu_hours},
                                   {"boost_energy_gpu_hours", &S::boost_energy_gpu_hours},
                                   {"boosted_domain_hours", &S::boosted_domain_hours},
                                   {"capped_domain_hours", &S::capped_domain_hours},
                                   {"healthy_tp_groups_fraction", &S::healthy_tp_groups_fraction},
                                   {"failed_gpus_mean", &S::failed_gpus_mean},
                                   {"failed_gpus_p50", &S::failed_gpus_p50},
                                   {"failed_gpus_p90", &S::failed_gpus_p90},
                                   {"failed_gpus_p99", &S::failed_gpus_p99}})
    t.push_back(of_run(name, slot));
  for (int k = 0; k < kMechanismCount; ++k) {
    const std::string m = mechanism_name(static_cast<Mechanism>(k));
    const auto i = static_cast<std::size_t>(k);
    t.push_back(metric(
        m + "_count", "count", "times " + m + " was paid",
        [i](const RunMetrics& r) { return static_cast<double>(r.paid_count[i]); },
        [i](auto& s) -> auto& { return s.paid_count[i]; }));
    t.push_back(metric(
        m + "_stall_hours", "h", "hours the job stood still for " + m,
        [i](const RunMetrics& r) { return r.paid_stall_hours[i]; },
        [i](auto& s) -> auto& { return s.paid_stall_hours[i]; }));
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
