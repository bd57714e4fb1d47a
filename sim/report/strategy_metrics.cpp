#include "sim/report/strategy_metrics.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

using S = StrategySummary;

// A metric written to report.json without modes of its own is written where it applies.
void default_json_modes(StrategyMetric& m) {
  if (!m.json.empty() && m.json_modes == 0) m.json_modes = m.applies;
}

// A row being declared: the metric and, through the setters, where it is printed.
struct Row {
  StrategyMetric m;
  Row& applies(unsigned modes) {
    m.applies = modes;
    return *this;
  }
  // In report.json at `pointer` ("/<name>" when empty), in `modes` (0: those it applies to).
  Row& json(std::string pointer = "", unsigned modes = 0, std::string ci95 = "") {
    m.json = pointer.empty() ? "/" + m.name : std::move(pointer);
    m.json_ci95 = std::move(ci95);
    m.json_modes = modes;
    return *this;
  }
  Row& csv() {
    m.csv = true;
    return *this;
  }
  Row& sweep() {
    m.sweep = true;
    return *this;
  }
  Row& markdown(MetricColumn c) {
    m.markdown = std::move(c);
    return *this;
  }
  Row& html(MetricColumn c) {
    m.html = std::move(c);
    return *this;
  }
  Row& no_seek() {
    m.seek = false;
    return *this;
  }
  StrategyMetric done() {
    default_json_modes(m);
    return std::move(m);
  }
};

// The Summary of a metric with no StrategySummary member: StrategySummary::more[name].
void keep_in_more(StrategyMetric& m) {
  m.get = [name = m.name](const S& s) -> const Summary& {
    static const Summary none;
    const auto it = s.more.find(name);
    return it == s.more.end() ? none : it->second;
  };
  m.slot = [name = m.name](S& s) -> Summary& { return s.more[name]; };
}

// A metric computed from a run's metrics, its Summary in StrategySummary::more: a new metric
// needs no StrategySummary member.
Row computed(std::string name, std::string unit, std::string doc,
             std::function<double(const RunMetrics&)> per_run) {
  StrategyMetric m;
  m.name = std::move(name);
  m.unit = std::move(unit);
  m.doc = std::move(doc);
  m.integer = m.unit == "count";
  m.per_run = std::move(per_run);
  keep_in_more(m);
  return Row{std::move(m)};
}

// A metric whose Summary is `get` of a StrategySummary (one member, or one array entry).
template <class Get>
Row metric(std::string name, std::string unit, std::string doc,
           std::function<double(const RunMetrics&)> per_run, Get get) {
  Row r = computed(std::move(name), std::move(unit), std::move(doc), std::move(per_run));
  r.m.get = [get](const S& s) -> const Summary& { return get(s); };
  r.m.slot = [get](S& s) -> Summary& { return get(s); };
  return r;
}

// A run metric field summarized over runs into `slot` (nullptr: StrategySummary::more): its name,
// unit, doc and integer flag are the field's.
Row of_run(const std::string& name, Summary S::*slot = nullptr) {
  const RunMetricField* f = find_run_metric_field(name);
  if (f == nullptr || !f->scalar)
    throw std::logic_error("strategy metric '" + name + "' is not a number run metric field");
  Row r = slot == nullptr ? computed(f->name, f->unit, f->doc, f->scalar)
                          : metric(
                                f->name, f->unit, f->doc,
                                f->scalar, [slot](auto& s) -> auto& { return s.*slot; });
  r.m.integer = f->integer;
  return r;
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

// The table, in report order: runs.csv's columns and report.json's top-level keys follow it.
// ETTR, interruptions and the counters mean nothing in snapshot mode (no time axis) but stay in
// snapshot reports' report.json (json modes: every), as the schema requires them.
std::vector<StrategyMetric> make_table() {
  std::vector<StrategyMetric> t;
  auto add = [&t](Row& r) { t.push_back(r.done()); };
  add(of_run("goodput", &S::goodput)
          .json()
          .csv()
          .sweep()
          .markdown({"Goodput"})
          .html({"Goodput %", nullptr, true}));
  for (int b = 0; b < kBucketCount; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const std::string name = bucket_name(static_cast<Bucket>(b));
    add(metric(
            name, "fraction", bucket_doc(static_cast<Bucket>(b)),
            [i](const RunMetrics& m) { return m.badput[i]; },
            [i](auto& s) -> auto& { return s.badput[i]; })
            .json("/badput/" + name, 0, "/badput_ci95/" + name)
            .csv()
            .sweep());
  }
  add(of_run("goodput_per_provisioned_gpu", &S::goodput_per_provisioned_gpu)
          .json()
          .csv()
          .sweep()
          .markdown({"per provisioned GPU"})
          .html({"per provisioned GPU %"}));
  add(of_run("ettr", &S::ettr)
          .applies(kTimeMode)
          .json("", kEveryMode)
          .csv()
          .markdown({"ETTR"})
          .html({"ETTR %"}));
  add(of_run("interruptions", &S::interruptions)
          .applies(kTimeMode)
          .json("", kEveryMode)
          .csv()
          .markdown({"interruptions", "%.1f"}));
  add(of_run("failures", &S::failures).json().csv());
  add(of_run("job_failures", &S::job_failures).applies(kTimeMode).json("", kEveryMode).csv());
  add(of_run("gpu_hours_down", &S::gpu_hours_down).applies(kTimeMode).json("", kEveryMode).csv());
  add(of_run("peak_failed_gpus", &S::peak_failed_gpus).json().csv());
  add(of_run("spare_gpu_hours", &S::spare_gpu_hours).applies(kTimeMode).json("", kEveryMode).csv());
  add(of_run("checkpoints", &S::checkpoints)
          .applies(kTimeMode)
          .json("", kEveryMode)
          .csv()
          .markdown({"checkpoints", "%.0f"}));
  add(of_run("events").applies(kTimeMode).csv().no_seek());
  add(of_run("boost_energy_gpu_hours", &S::boost_energy_gpu_hours)
          .applies(kTimeMode)
          .json("", kEveryMode)
          .csv());
  add(of_run("healthy_tp_groups_fraction", &S::healthy_tp_groups_fraction)
          .applies(kSnapshotMode)
          .json()
          .csv());
  using Row2 = std::pair<const char*, Summary S::*>;
  for (const auto& [q, slot] : {Row2{"mean", &S::failed_gpus_mean},
                                {"p50", &S::failed_gpus_p50},
                                {"p90", &S::failed_gpus_p90},
                                {"p99", &S::failed_gpus_p99}})
    add(of_run(std::string("failed_gpus_") + q, slot)
            .applies(kTimeMode)
            .json(std::string("/cluster_health/failed_gpus/") + q)
            .csv());
  // The worked example of ARCHITECTURE.md's "Add a metric" recipe: one row.
  add(computed("stall_hours", "h",
               "hours the job stood still for recovery mechanisms, all together (the sum of "
               "each mechanism's stall hours)",
               [](const RunMetrics& m) {
                 double hours = 0;
                 for (double h : m.paid_stall_hours) hours += h;
                 return hours;
               })
          .applies(kTimeMode)
          .json()
          .csv()
          .markdown({"stall hours", "%.1f"}));
  add(metric(
          "paused_hours", "h", "hours paused for capacity (WAITING_FOR_CAPACITY x wall time)",
          [](const RunMetrics& m) {
            return m.badput[static_cast<std::size_t>(Bucket::WaitingForCapacity)] * m.wall_hours;
          },
          [](auto& s) -> auto& { return s.paused_hours; })
          .applies(kTimeMode)
          .json("/cluster_health/paused_hours"));
  add(of_run("boosted_domain_hours", &S::boosted_domain_hours).applies(kTimeMode));
  add(of_run("capped_domain_hours", &S::capped_domain_hours).applies(kTimeMode));
  for (int k = 0; k < kMechanismCount; ++k) {
    const std::string m = mechanism_name(static_cast<Mechanism>(k));
    const auto i = static_cast<std::size_t>(k);
    add(metric(
            m + "_count", "count", "times " + m + " was paid",
            [i](const RunMetrics& r) { return static_cast<double>(r.paid_count[i]); },
            [i](auto& s) -> auto& { return s.paid_count[i]; })
            .applies(kTimeMode)
            .json("/mechanisms_paid/" + m + "/count"));
    add(metric(
            m + "_stall_hours", "h", "hours the job stood still for " + m,
            [i](const RunMetrics& r) { return r.paid_stall_hours[i]; },
            [i](auto& s) -> auto& { return s.paid_stall_hours[i]; })
            .applies(kTimeMode)
            .json("/mechanisms_paid/" + m + "/stall_hours"));
  }
  return t;
}

constexpr std::size_t kTestRows = 4;  // room for ExtraMetricForTest rows (no reallocation)

std::vector<StrategyMetric>& table() {
  static std::vector<StrategyMetric> t = [] {
    std::vector<StrategyMetric> rows = make_table();
    rows.reserve(rows.size() + kTestRows);
    return rows;
  }();
  return t;
}

}  // namespace

bool in_modes(unsigned modes, RunMode mode) {
  return (modes & (mode == RunMode::Snapshot ? kSnapshotMode : kTimeMode)) != 0;
}

const std::vector<StrategyMetric>& strategy_metrics() {
  return table();
}

ExtraMetricForTest::ExtraMetricForTest(StrategyMetric metric) {
  if (table().size() == table().capacity())
    throw std::logic_error("ExtraMetricForTest: no room for another extra metric");
  default_json_modes(metric);
  keep_in_more(metric);
  table().push_back(std::move(metric));
}

ExtraMetricForTest::~ExtraMetricForTest() {
  table().pop_back();
}

const StrategyMetric* find_strategy_metric(const std::string& name) {
  for (const auto& m : strategy_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> strategy_metric_names() {
  std::vector<std::string> names;
  for (const auto& m : strategy_metrics())
    if (m.seek) names.push_back(m.name);
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
