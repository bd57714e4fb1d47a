#include "sim/run/run_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "models/failures/failure_generator.hpp"
#include "models/job/checkpoint_policy.hpp"
#include "models/job/job_layout.hpp"
#include "models/trace/trace.hpp"
#include "sim/core/error.hpp"

namespace goodput {

namespace {

std::shared_ptr<const FaultList> load_trace_faults(const Scenario& s, const Topology& topo) {
  const TraceSpec& t = s.failures.trace;
  const auto format = trace::parse_format(t.format, s.file, "/failures/trace/format");
  trace::ReadOptions options;
  if (t.lanl_system >= 0) options.lanl_system = t.lanl_system;
  options.time_offset_hours = t.time_offset_hours;
  const trace::Trace tr = trace::read_trace(t.path, format, options);
  const auto paired = trace::pair_faults(tr, [&](const std::string& n) { return topo.resolve(n); });
  auto out = std::make_shared<FaultList>();
  std::map<std::string, std::uint16_t> ids;
  for (const auto& f : paired) {
    auto it = ids.find(f.fault_class);
    if (it == ids.end()) {
      const bool restart = std::find(t.restart_only_classes.begin(), t.restart_only_classes.end(),
                                     f.fault_class) != t.restart_only_classes.end();
      it = ids.emplace(f.fault_class, static_cast<std::uint16_t>(out->classes.size())).first;
      out->classes.push_back({f.fault_class, restart});
    }
    out->faults.push_back({f.start, std::max(f.end, f.start + 1), f.component, it->second});
  }
  std::stable_sort(out->faults.begin(), out->faults.end(),
                   [](const Fault& a, const Fault& b) { return a.start < b.start; });
  return out;
}

// Which components' blast radius touches a GPU of the job's failure-free layout (by component
// id), and the share of each kind's members that do.
struct Exposure {
  std::vector<std::uint8_t> busy;
  std::array<double, kComponentKinds> share{};
};

Exposure job_exposure(const Scenario& s, const Topology& topo) {
  ClusterHealth health(topo);
  JobLayout layout(health, s.job.tp);
  layout.retarget(static_cast<std::int64_t>(s.job.dp) * s.job.pp, {});
  Exposure e;
  e.busy.assign(topo.components(), 0);
  for (int k = 0; k < kComponentKinds; ++k) {
    const auto kind = static_cast<ComponentKind>(k);
    const std::uint32_t n = topo.count(kind);
    std::uint32_t hit = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t gpu : topo.blast_radius(topo.id(kind, i)))
        if (layout.in_use(gpu)) {
          ++hit;
          e.busy[topo.id(kind, i)] = 1;
          break;
        }
    }
    e.share[k] = n ? static_cast<double>(hit) / n : 0;
  }
  return e;
}

}  // namespace

RunPlan make_plan(const Scenario& scenario) {
  RunPlan plan;
  plan.scenario = scenario;
  auto topo = std::make_shared<Topology>(scenario.cluster);
  plan.topology = topo;
  plan.horizon = from_hours(scenario.horizon_hours);
  plan.cost = make_cost_model(scenario, &plan.cost_info);
  if (scenario.mode == "snapshot") {
    plan.checkpoint_policy = "none";
    plan.checkpoint_reason = "snapshot mode has no time axis";
    return plan;
  }

  const Exposure ex = job_exposure(scenario, *topo);
  const auto& exposure = ex.share;
  if (scenario.failures.idle_rate_scale < 1) {
    auto idle = std::make_shared<std::vector<std::uint8_t>>(ex.busy.size());
    for (std::size_t c = 0; c < ex.busy.size(); ++c) (*idle)[c] = ex.busy[c] ? 0 : 1;
    plan.idle_components = idle;
  }
  if (scenario.failures.model == FailureSpec::Model::Trace) {
    plan.trace_faults = load_trace_faults(scenario, *topo);
    std::int64_t hits = 0;
    for (const auto& f : plan.trace_faults->faults) hits += f.start < plan.horizon ? 1 : 0;
    const double share_gpus = exposure[0];
    plan.job_faults_per_hour = static_cast<double>(hits) * share_gpus / scenario.horizon_hours;
  } else {
    for (const auto& c : scenario.failures.classes)
      plan.job_faults_per_hour += class_rate_per_hour(scenario.failures, c, *topo) *
                                  exposure[static_cast<int>(c.scope)];
  }

  const auto& ck = scenario.checkpoint;
  const double cost = ck.async ? ck.async_blocking_s : ck.save_s;
  const double mtbf_s = plan.job_faults_per_hour > 0 ? 3600.0 / plan.job_faults_per_hour : INFINITY;
  const double restart = scenario.recovery.detection_s + scenario.recovery.restart_s + ck.load_s;
  std::ostringstream why;
  why.precision(4);
  double interval = 0;
  switch (ck.policy) {
    case CheckpointSpec::Policy::None:
      plan.checkpoint_policy = "none";
      why << "no checkpoints: a restart goes back to the start of the run";
      break;
    case CheckpointSpec::Policy::Fixed:
      plan.checkpoint_policy = "fixed";
      interval = ck.interval_s;
      why << "fixed interval of " << interval << " s";
      break;
    default: {
      const bool young = ck.policy == CheckpointSpec::Policy::Young;
      const bool daly = ck.policy == CheckpointSpec::Policy::Daly;
      plan.checkpoint_policy = young ? "young" : daly ? "daly" : "availability_optimal";
      if (!std::isfinite(mtbf_s) || cost <= 0) {
        interval = ck.interval_s;
        why << "no job failures expected (or free checkpoints): fell back to interval_s = " << interval << " s";
        break;
      }
      interval = young ? young_interval_s(cost, mtbf_s)
                 : daly ? daly_interval_s(cost, mtbf_s)
                        : availability_optimal_interval_s(cost, mtbf_s, restart);
      why << (young ? "Young: sqrt(2 C M)" : daly ? "Daly's higher-order formula" : "minimum of Daly's expected run time T(tau)")
          << " with checkpoint cost C = " << cost << " s, job MTBF M = " << mtbf_s / 3600.0 << " h"
          << (young || daly ? "" : ", restart R = " + std::to_string(static_cast<int>(restart)) + " s")
          << " gives " << interval << " s";
    }
  }
  plan.checkpoint_interval = interval > 0 ? std::max<Time>(1, from_seconds(interval)) : 0;
  plan.checkpoint_reason = why.str();
  return plan;
}

FaultList faults_for(const RunPlan& plan, int run) {
  if (plan.trace_faults) return *plan.trace_faults;
  const Scenario& s = plan.scenario;
  return generate_faults(s.failures, *plan.topology, plan.horizon, s.recovery.restart_s, s.seed,
                         static_cast<std::uint64_t>(run),
                         plan.idle_components ? std::span<const std::uint8_t>(*plan.idle_components)
                                              : std::span<const std::uint8_t>());
}

}  // namespace goodput
