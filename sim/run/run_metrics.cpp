#include "sim/run/run_metrics.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace goodput {

namespace {

// A field's declared range (each element's, for arrays).
struct Range {
  double min, max;
};
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr Range kFraction{0, 1}, kNonNegative{0, kInf};
constexpr Range kCompletion{-1, kInf};  // -1: not within the horizon
constexpr double kSlack = 1e-9;         // rounding: a fraction may come out at 1 + 2e-16 or -1e-17

// A member type's JSON shape: a number, or an array of numbers (fixed or per-threshold length).
template <class T>
struct Shape {
  using Element = T;
  static constexpr int length = -1;
};
template <class E, std::size_t N>
struct Shape<std::array<E, N>> {
  using Element = E;
  static constexpr int length = static_cast<int>(N);
};
template <class E>
struct Shape<std::vector<E>> {
  using Element = E;
  static constexpr int length = 0;
};

template <class T>
RunMetricField field(std::string name, std::string unit, std::string doc, Range range,
                     T RunMetrics::*member) {
  RunMetricField f{std::move(name),
                   std::move(unit),
                   std::move(doc),
                   range.min,
                   range.max,
                   std::is_integral_v<typename Shape<T>::Element>,
                   Shape<T>::length,
                   [member](const RunMetrics& m) { return Json(m.*member); },
                   [member](RunMetrics& m, const Json& j) { m.*member = j.get<T>(); },
                   {}};
  if constexpr (std::is_arithmetic_v<T>)
    f.scalar = [member](const RunMetrics& m) { return static_cast<double>(m.*member); };
  return f;
}

std::string number_text(double x) {
  std::string s = Json(x).dump();  // shortest round trip; "1" for 1.0
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

// One number of field `f`: its type, finite, within the declared range.
std::optional<std::string> check_number(const RunMetricField& f, const Json& v) {
  if (f.integer ? !v.is_number_integer() : !v.is_number())
    return std::string(f.integer ? "expected an integer" : "expected a number") + ", got " +
           (v.is_number() ? "a fractional number" : std::string("a ") + v.type_name());
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return "out of range";
  const double x = v.get<double>();
  if (!std::isfinite(x)) return "not a finite number";
  if (x < f.min - kSlack || x > f.max + kSlack)
    return number_text(x) + " outside the declared range [" + number_text(f.min) + ", " +
           (std::isinf(f.max) ? std::string("inf") : number_text(f.max)) + "]";
  return std::nullopt;
}

}  // namespace

const std::vector<RunMetricField>& run_metric_fields() {
  static const std::vector<RunMetricField> fields{
      field("goodput", "fraction", "useful, preserved training / wall time", kFraction,
            &RunMetrics::goodput),
      field("goodput_per_provisioned_gpu", "fraction",
            "Goodput x job GPUs / provisioned GPUs (every GPU of the cluster, spares included)",
            kFraction, &RunMetrics::goodput_per_provisioned_gpu),
      field("badput", "fraction", "per bucket (Bucket order), ideal-time equivalents", kFraction,
            &RunMetrics::badput),
      field("ettr", "fraction", "training time kept / wall time", kFraction, &RunMetrics::ettr),
      field("interruptions", "count", "disruptions that stopped the whole job", kNonNegative,
            &RunMetrics::interruptions),
      field("failures", "count", "faults that started within the horizon", kNonNegative,
            &RunMetrics::failures),
      field("job_failures", "count", "faults that hit the job's GPUs", kNonNegative,
            &RunMetrics::job_failures),
      field("gpu_hours_down", "GPU-hours", "failed GPUs integrated over time", kNonNegative,
            &RunMetrics::gpu_hours_down),
      field("peak_failed_gpus", "GPUs", "most GPUs down at once", kNonNegative,
            &RunMetrics::peak_failed_gpus),
      field("spare_gpu_hours", "GPU-hours", "healthy GPUs not used by the job", kNonNegative,
            &RunMetrics::spare_gpu_hours),
      field("checkpoints", "count", "durable checkpoints", kNonNegative, &RunMetrics::checkpoints),
      field("rollbacks", "count", "returns to the last durable checkpoint", kNonNegative,
            &RunMetrics::rollbacks),
      field("events", "count", "engine events fired", kNonNegative, &RunMetrics::events),
      field("boost_energy_gpu_hours", "GPU-TDP-hours", "extra power x time (ntp_boost)",
            kNonNegative, &RunMetrics::boost_energy_gpu_hours),
      field("boosted_domain_hours", "domain-hours", "domains boosted x time", kNonNegative,
            &RunMetrics::boosted_domain_hours),
      field("capped_domain_hours", "domain-hours",
            "degraded domains (or a slow group's) whose power cap (board power, domain budget, "
            "max_power) kept their replica short of its batch x time (ntp_boost)",
            kNonNegative, &RunMetrics::capped_domain_hours),
      field("healthy_tp_groups_fraction", "fraction",
            "snapshot mode: job TP groups with no failed GPU", kFraction,
            &RunMetrics::healthy_tp_groups_fraction),
      field("wall_hours", "h", "the run's horizon", kNonNegative, &RunMetrics::wall_hours),
      field("completion_hours", "h",
            "hours until progress first reached /report/train_hours (-1: not within the "
            "horizon, 0: no target)",
            kCompletion, &RunMetrics::completion_hours),
      field("failed_gpus_mean", "GPUs", "failed GPUs, time-weighted mean", kNonNegative,
            &RunMetrics::failed_gpus_mean),
      field("failed_gpus_p50", "GPUs", "failed GPUs, time-weighted median", kNonNegative,
            &RunMetrics::failed_gpus_p50),
      field("failed_gpus_p90", "GPUs", "failed GPUs, time-weighted 90th percentile", kNonNegative,
            &RunMetrics::failed_gpus_p90),
      field("failed_gpus_p99", "GPUs", "failed GPUs, time-weighted 99th percentile", kNonNegative,
            &RunMetrics::failed_gpus_p99),
      field("time_above_failed", "fraction",
            "per /report/failed_gpu_thresholds entry: time above it", kFraction,
            &RunMetrics::time_above_failed),
      field("paid_count", "count", "recovery mechanisms paid (Mechanism order)", kNonNegative,
            &RunMetrics::paid_count),
      field("paid_stall_hours", "h", "hours stalled for each mechanism (Mechanism order)",
            kNonNegative, &RunMetrics::paid_stall_hours),
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

std::optional<JsonProblem> check_run_metrics(const Json& j, const std::string& pointer,
                                             std::size_t thresholds) {
  if (!j.is_object()) return JsonProblem{pointer, "expected an object of run metrics"};
  for (const auto& f : run_metric_fields()) {
    const std::string at = pointer + "/" + f.name;
    const auto it = j.find(f.name);
    if (it == j.end()) return JsonProblem{at, "missing"};
    const Json& v = *it;
    if (f.length < 0) {
      if (auto why = check_number(f, v)) return JsonProblem{at, *why};
      continue;
    }
    if (!v.is_array())
      return JsonProblem{at, std::string("expected an array, got a ") + v.type_name()};
    const std::size_t want = f.length > 0 ? static_cast<std::size_t>(f.length) : thresholds;
    if (v.size() != want && !(f.length == 0 && v.empty()))
      return JsonProblem{
          at, "expected " + std::to_string(want) + " elements, got " + std::to_string(v.size())};
    for (std::size_t i = 0; i < v.size(); ++i)
      if (auto why = check_number(f, v[i])) return JsonProblem{at + "/" + std::to_string(i), *why};
  }
  return std::nullopt;
}

}  // namespace goodput
