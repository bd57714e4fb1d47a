#include "sim/run/work_budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "models/cost/cost_model.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "sim/core/error.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

namespace {

// Measured (bench/RESULTS.md, 131K GPUs: 41 MiB at 2 threads) and rounded up.
constexpr double kBytesPerGpu = 256;     // topology, blast radii, health, layout
constexpr double kBytesPerGpuLane = 16;  // per strategy lane and thread
constexpr double kBytesPerFault = 64;    // a run's fault list and its events

// A replayed trace (read here, once per process: run_plan.hpp's scenario_trace): its fault
// records that start before the horizon are every run's faults (an upper bound: overlapping
// records are merged later), and its parsed events stay in memory for the whole process.
// Measured peak while a trace is read (10^5-10^6 events): about 600 B per event for goodput
// JSON (the JSON document), 190 B for CSV; rounded up.
constexpr double kBytesPerTraceEvent = 640;
double trace_work(const Scenario& s, WorkEstimate& w) {
  const std::shared_ptr<const trace::Trace> tr = scenario_trace(s);
  double starts = 0;
  for (const auto& ev : tr->events) starts += ev.start && ev.time_hours < s.horizon_hours ? 1 : 0;
  w.failures_per_run += starts;
  return static_cast<double>(tr->events.size()) * kBytesPerTraceEvent;
}

// Schedule evaluations in building a plan and in its first degraded replica shapes: the healthy
// step, a boost bisection (about 60) and a batch bisection (about 50); one event per op.
constexpr double kPlanSchedules = 128;

// The work of building one plan (make_plan), in events: one per GPU of the topology, plus the
// exact pipeline schedule's ops for the iteration cost model (pipeline_schedule.hpp).
double setup_events(const Scenario& s, double gpus) {
  if (!uses_iteration_model(s)) return gpus;
  return gpus + kPlanSchedules * schedule_ops(static_cast<std::size_t>(s.job.pp),
                                              s.job.microbatches, s.job.virtual_stages);
}

std::string human(double x) {
  char buf[32];
  if (x >= 1e12)
    std::snprintf(buf, sizeof buf, "%.3g", x);
  else
    std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / double(1ull << 30));
  return buf;
}

}  // namespace

WorkEstimate estimate_work(const Scenario& s, int threads) {
  const ClusterShape& c = s.cluster;
  const double nodes = static_cast<double>(c.domains) * c.nodes_per_domain;
  double count[kComponentKinds] = {};
  count[static_cast<int>(ComponentKind::Gpu)] = nodes * c.gpus_per_node;
  count[static_cast<int>(ComponentKind::Node)] = nodes;
  count[static_cast<int>(ComponentKind::Domain)] = c.domains;
  count[static_cast<int>(ComponentKind::Rack)] = std::ceil(nodes / c.nodes_per_rack);
  count[static_cast<int>(ComponentKind::Leaf)] = std::ceil(nodes / c.nodes_per_leaf);
  count[static_cast<int>(ComponentKind::Row)] =
      std::ceil(count[static_cast<int>(ComponentKind::Rack)] / c.racks_per_row);
  count[static_cast<int>(ComponentKind::Fleet)] = 1;
  WorkEstimate w;
  w.gpus = count[0];
  const FailureSpec& f = s.failures;
  if (f.model == FailureSpec::Model::Statistical && s.mode != RunMode::Snapshot) {
    const double lemon = 1 + f.lemon_fraction * (f.lemon_rate_multiplier - 1);
    for (const auto& cl : f.classes) {
      if (cl.mtbf_hours <= 0) continue;
      double per_run =
          f.rate_scale * count[static_cast<int>(cl.scope)] * s.horizon_hours / cl.mtbf_hours;
      if (cl.scope == ComponentKind::Gpu || cl.scope == ComponentKind::Node) per_run *= lemon;
      if (cl.scope == ComponentKind::Node)
        per_run *= 1 + f.correlated_fraction * (f.correlated_nodes - 1);
      w.failures_per_run += per_run;
    }
  }
  const double trace_bytes =
      f.model == FailureSpec::Model::Trace && s.mode != RunMode::Snapshot ? trace_work(s, w) : 0;
  const double strategies = static_cast<double>(std::max<std::size_t>(1, s.strategies.size()));
  const double lanes = std::min<double>(std::max(1, threads), s.seeds);
  if (s.mode == RunMode::Snapshot)
    w.events = static_cast<double>(s.seeds) * std::ceil(s.failed_fraction * w.gpus) * strategies;
  else
    w.events = static_cast<double>(s.seeds) * w.failures_per_run * (1 + strategies);
  w.setup_events = setup_events(s, w.gpus);
  w.events += w.setup_events;
  w.memory_bytes = w.gpus * (kBytesPerGpu + lanes * strategies * kBytesPerGpuLane) +
                   lanes * w.failures_per_run * kBytesPerFault + trace_bytes;
  return w;
}

bool within_work_budget(const WorkEstimate& w, const WorkBudget& b) {
  return w.memory_bytes <= b.max_memory_bytes && w.events <= b.max_events;
}

void check_work_budget(const WorkEstimate& w, const WorkBudget& b, const std::string& origin) {
  if (!(w.memory_bytes <= b.max_memory_bytes))
    throw InputError(
        origin, "",
        "this scenario needs about " + gib(w.memory_bytes) + " of memory (" + human(w.gpus) +
            " GPUs), more than the budget of " + gib(b.max_memory_bytes) +
            "; raise it with --max-memory (e.g. --max-memory 64G) if the machine has it");
  if (!(w.events <= b.max_events))
    throw InputError(origin, "",
                     "this scenario asks for about " + human(w.events) + " events (" +
                         human(w.gpus) + " GPUs, " + human(w.failures_per_run) +
                         " failures per run, times seeds and strategies), more than " +
                         "the budget of " + human(b.max_events) +
                         "; raise it with --max-events if you mean it");
}

double parse_bytes(const std::string& text, const std::string& flag) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  double scale = 1;
  const std::string unit = end ? std::string(end) : "";
  if (unit == "K" || unit == "KiB" || unit == "k")
    scale = 1ull << 10;
  else if (unit == "M" || unit == "MiB")
    scale = 1ull << 20;
  else if (unit == "G" || unit == "GiB")
    scale = 1ull << 30;
  else if (unit == "T" || unit == "TiB")
    scale = double(1ull << 40);
  else if (!unit.empty())
    throw InputError(flag, text, "expected bytes, e.g. 8G, 512M or 1.5T");
  if (end == text.c_str() || !std::isfinite(v) || v <= 0)
    throw InputError(flag, text, "expected a positive size, e.g. 8G, 512M or 1.5T");
  return v * scale;
}

}  // namespace goodput
