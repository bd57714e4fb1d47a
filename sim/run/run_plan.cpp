#include "sim/run/run_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "models/failures/failure_generator.hpp"
#include "models/job/checkpoint_policy.hpp"
#include "models/job/job_layout.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/strategy.hpp"
#include "models/trace/trace.hpp"
#include "sim/core/error.hpp"
#include "sim/core/parallel_for.hpp"
#include "sim/core/recent_memo.hpp"
#include "sim/run/single_run.hpp"

namespace goodput {

namespace {

// The trace's faults on this topology, records of one component that overlap merged into one
// (counted in `records`), class ids in order of first appearance.
std::shared_ptr<const FaultList> trace_faults_on(const trace::Trace& tr, const TraceSpec& t,
                                                 const Topology& topo,
                                                 RunPlan::TraceRecords& records) {
  auto paired = trace::pair_faults(tr, [&](const std::string& n) { return topo.resolve(n); });
  const auto restart_only = [&](const std::string& cls) {
    return std::find(t.restart_only_classes.begin(), t.restart_only_classes.end(), cls) !=
           t.restart_only_classes.end();
  };
  records.records = paired.size();
  records.merged = trace::merge_overlapping(paired, restart_only);
  auto out = std::make_shared<FaultList>();
  std::map<std::string, std::uint32_t> ids;
  for (const auto& f : paired) {
    auto it = ids.find(f.fault_class);
    if (it == ids.end()) {
      it = ids.emplace(f.fault_class, static_cast<std::uint32_t>(out->classes.size())).first;
      out->classes.push_back({f.fault_class, restart_only(f.fault_class)});
    }
    out->faults.push_back({f.start, std::max(f.end, f.start + 1), f.component, it->second});
  }
  std::stable_sort(out->faults.begin(), out->faults.end(),
                   [](const Fault& a, const Fault& b) { return a.start < b.start; });
  return out;
}

// trace_faults_on, once per process for one parse of a trace, one cluster shape (what resolves
// component ids) and one set of restart-only classes: the plans of a run's break-even steps and
// of a sweep's points that keep them share the fault list (pairing and merging a large trace
// costs as much as simulating it). The last few are kept.
std::shared_ptr<const FaultList> load_trace_faults(const Scenario& s, const Topology& topo,
                                                   RunPlan::TraceRecords& records) {
  struct Memo {
    std::shared_ptr<const trace::Trace> trace;  // held, so the pointer stays this parse's
    std::array<int, 6> shape{};
    std::vector<std::string> restart_only;
    std::shared_ptr<const FaultList> faults;
    RunPlan::TraceRecords records;
  };
  static std::mutex mutex;
  static std::vector<Memo> memo;  // most recent last
  constexpr std::size_t kKept = 4;
  const TraceSpec& t = s.failures.trace;
  const ClusterShape& c = s.cluster;
  const std::array<int, 6> shape{c.gpus_per_node,  c.nodes_per_domain, c.nodes_per_rack,
                                 c.nodes_per_leaf, c.domains,          c.racks_per_row};
  std::shared_ptr<const trace::Trace> tr = scenario_trace(s);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = 0; i < memo.size(); ++i)
      if (memo[i].trace == tr && memo[i].shape == shape &&
          memo[i].restart_only == t.restart_only_classes) {
        std::rotate(memo.begin() + static_cast<std::ptrdiff_t>(i),
                    memo.begin() + static_cast<std::ptrdiff_t>(i) + 1, memo.end());
        records = memo.back().records;
        return memo.back().faults;
      }
  }
  auto faults = trace_faults_on(*tr, t, topo, records);  // InputErrors are not kept
  const std::lock_guard<std::mutex> lock(mutex);
  memo.push_back({std::move(tr), shape, t.restart_only_classes, faults, records});
  if (memo.size() > kKept) memo.erase(memo.begin());
  return faults;
}

// The topology of a cluster shape, built once per process for the last few shapes.
std::shared_ptr<const Topology> shared_topology(const ClusterShape& c) {
  using Key = std::tuple<std::string, std::string, std::array<int, 6>>;
  static RecentMemo<Key, Topology> memo;
  const Key key{c.preset,
                c.gpu_type,
                {c.gpus_per_node, c.nodes_per_domain, c.nodes_per_rack, c.nodes_per_leaf, c.domains,
                 c.racks_per_row}};
  return memo.get(key, [&] { return std::make_shared<const Topology>(c); });
}

// The cost model, built once per process for the last few (file, /job, /cost, /cluster, TP
// degrees): what make_cost_model reads (the GPU's figures come from /cluster). The plans of
// a verdict analysis, a sweep or a seek that move a price or a rate share it. A scenario
// without its resolved sections (one built in code) builds its own.
std::shared_ptr<const CostModel> shared_cost_model(const Scenario& s,
                                                   const std::vector<int>& degrees,
                                                   CostInfo* info) {
  const Json& r = s.resolved;
  if (!r.is_object() || !r.contains("job") || !r.contains("cost") || !r.contains("cluster"))
    return make_cost_model(s, degrees, info);
  struct Built {
    std::shared_ptr<const CostModel> model;
    CostInfo info;
  };
  using Key = std::tuple<std::string, std::string, std::vector<int>>;
  static RecentMemo<Key, Built, 16> memo;  // a robustness sample: a few switch combinations
  const Key key{s.file, r["job"].dump() + r["cost"].dump() + r["cluster"].dump(), degrees};
  const auto built = memo.get(key, [&] {
    auto b = std::make_shared<Built>();
    b->model = make_cost_model(s, degrees, &b->info);
    return std::shared_ptr<const Built>(std::move(b));
  });
  if (info) *info = built->info;
  return built->model;
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
  layout.retarget(s.job_groups(), {});
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

// Seconds to the engine's interval: at least 1 ms; 0 (or less): no checkpoints.
Time interval_time(double seconds) {
  return seconds > 0 ? std::max<Time>(1, from_seconds(seconds)) : 0;
}

// The interval an adaptive policy gives for checkpoint cost `cost` and mean time between
// rollbacks `mtbf_s`, and the sentence that says so.
double adaptive_interval(const Scenario& s, double cost, double mtbf_s, std::ostringstream& why) {
  const auto& ck = s.checkpoint;
  const bool young = ck.policy == CheckpointSpec::Policy::Young;
  const bool daly = ck.policy == CheckpointSpec::Policy::Daly;
  const double restart = s.recovery.detection_s + s.recovery.restart_s + ck.load_s;
  const double interval = young  ? young_interval_s(cost, mtbf_s)
                          : daly ? daly_interval_s(cost, mtbf_s)
                                 : availability_optimal_interval_s(cost, mtbf_s, restart);
  why << (young  ? "Young: sqrt(2 C M)"
          : daly ? "Daly's higher-order formula"
                 : "minimum of Daly's expected run time T(tau)")
      << " with checkpoint cost C = " << cost
      << " s, mean time between rollbacks M = " << mtbf_s / 3600.0 << " h"
      << (young || daly ? "" : ", restart R = " + std::to_string(static_cast<int>(restart)) + " s")
      << " gives " << interval << " s";
  return interval;
}

// Fills plan.checkpoints: the same interval for all under `none`/`fixed`, else each strategy's
// own optimum from its rollback rate in a pilot without checkpoints (or an estimate of it). An
// estimate's error e in the rate moves Young's interval sqrt(2 C M) by about -e/2 and the time
// lost to saves and rework, C/tau + tau/(2M) at its minimum, by about e^2/8 of itself.
void resolve_checkpointing(RunPlan& plan, int threads, const RunPlan::Pilot* known,
                           const PilotEstimate* estimate) {
  const Scenario& s = plan.scenario;
  const auto& ck = s.checkpoint;
  const std::size_t n = s.strategies.size();
  plan.checkpoints.assign(n, {});
  plan.default_checkpointing.spec = ck;
  for (std::size_t i = 0; i < n; ++i) {  // each strategy's save costs
    const StrategyInfo* info = find_strategy(s.strategies[i].name);
    plan.checkpoints[i].spec =
        info && info->checkpoint_costs ? info->checkpoint_costs(s, s.strategies[i].params) : ck;
  }
  auto for_all = [&](double interval, const std::string& reason) {
    plan.default_checkpointing.interval = interval_time(interval);
    plan.default_checkpointing.reason = reason;
    for (auto& c : plan.checkpoints) {
      const CheckpointSpec spec = c.spec;
      c = plan.default_checkpointing;
      c.spec = spec;
    }
  };
  plan.checkpoint_policy = enum_name(kCheckpointPolicyNames, ck.policy);
  std::ostringstream why;
  why.precision(4);
  switch (ck.policy) {
    case CheckpointSpec::Policy::None:
      for_all(0, "no checkpoints: a restart goes back to the start of the run");
      return;
    case CheckpointSpec::Policy::Fixed:
      why << "fixed interval of " << ck.interval_s << " s (the same for every strategy)";
      for_all(ck.interval_s, why.str());
      return;
    default:
      break;
  }
  auto cost_of = [](const CheckpointSpec& c) { return c.async ? c.async_blocking_s : c.save_s; };
  const double cost = cost_of(ck);
  if (cost <= 0 || plan.job_faults_per_hour <= 0) {
    why << "no job failures expected (or free checkpoints): fell back to interval_s = "
        << ck.interval_s << " s";
    for_all(ck.interval_s, why.str());
    return;
  }
  {
    std::ostringstream w;
    w.precision(4);
    w << "every job fault taken as a rollback; ";
    const double interval = adaptive_interval(s, cost, 3600.0 / plan.job_faults_per_hour, w);
    plan.default_checkpointing.interval = interval_time(interval);
    plan.default_checkpointing.reason = w.str();
  }
  // Pilot: every strategy on the first runs' faults, checkpoints off; count rollbacks.
  const int pilots = plan.trace_faults ? 1 : std::max(1, std::min(s.seeds, 2));
  std::vector<std::int64_t> counted(n, 0);
  std::vector<double> rollbacks(n, 0);  // counted, or estimated
  std::vector<std::uint8_t> scaled(n, 0);
  std::vector<std::size_t> simulate;
  double scale = 1;
  const bool given = known && known->runs == pilots && known->rollbacks.size() == n;
  const bool estimated = !given && estimate && estimate->measured.runs == pilots &&
                         estimate->measured.rollbacks.size() == n;
  if (given) {
    counted = known->rollbacks;
  } else if (estimated) {
    if (estimate->base_job_faults_per_hour > 0)
      scale = plan.job_faults_per_hour / estimate->base_job_faults_per_hour;
    for (std::size_t i = 0; i < n; ++i) scaled[i] = 1;
    for (std::size_t i : estimate->simulate)
      if (i < n) scaled[i] = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!scaled[i]) simulate.push_back(i);
  } else {
    for (std::size_t i = 0; i < n; ++i) simulate.push_back(i);
  }
  if (!simulate.empty()) {
    std::vector<StrategyConfig> piloted;
    for (std::size_t i : simulate) piloted.push_back(s.strategies[i]);
    std::vector<std::vector<RunMetrics>> pilot(static_cast<std::size_t>(pilots));
    parallel_for(pilots, threads, [&](int run) {
      pilot[static_cast<std::size_t>(run)] = simulate_all(plan, faults_for(plan, run), piloted);
    });
    for (const auto& m : pilot)
      for (std::size_t j = 0; j < simulate.size(); ++j) counted[simulate[j]] += m[j].rollbacks;
  }
  for (std::size_t i = 0; i < n; ++i)
    rollbacks[i] = scaled[i] ? static_cast<double>(estimate->measured.rollbacks[i]) * scale
                             : static_cast<double>(counted[i]);
  plan.pilot = estimated ? RunPlan::Pilot{} : RunPlan::Pilot{pilots, counted};
  if (estimated) {
    plan.simulated_rollbacks.assign(n, -1);
    for (std::size_t i : simulate) plan.simulated_rollbacks[i] = counted[i];
  }
  const double hours = pilots * s.horizon_hours;
  for (std::size_t i = 0; i < n; ++i) {
    auto& c = plan.checkpoints[i];
    c.rollbacks_per_hour = rollbacks[i] / hours;
    std::ostringstream w;
    w.precision(4);
    // No rollback in the pilot: the mean time between rollbacks is at least its length.
    const double mtbf_s = 3600.0 * (rollbacks[i] > 0 ? hours / rollbacks[i] : hours);
    if (scaled[i])
      w << "about " << rollbacks[i] << " rollback(s) in a " << hours
        << " h pilot without checkpoints (the base scenario's, x " << scale
        << " for its expected job faults)";
    else
      w << counted[i] << " rollback(s) in a " << hours << " h pilot without checkpoints";
    w << (rollbacks[i] > 0 ? "" : " (M taken as the pilot's length)") << "; ";
    const double interval =
        cost_of(c.spec) > 0 ? adaptive_interval(s, cost_of(c.spec), mtbf_s, w) : ck.interval_s;
    if (cost_of(c.spec) <= 0) w << "free checkpoints: interval_s = " << ck.interval_s << " s";
    c.interval = interval_time(interval);
    c.reason = w.str();
  }
}

}  // namespace

RunPlan make_plan(const Scenario& scenario, int threads, const RunPlan::Pilot* known,
                  const PilotEstimate* estimate) {
  RunPlan plan;
  plan.scenario = scenario;
  std::shared_ptr<const Topology> topo = shared_topology(scenario.cluster);
  plan.topology = topo;
  plan.horizon = from_hours(scenario.horizon_hours);
  plan.cost = shared_cost_model(scenario, cost_model_tp_degrees(scenario), &plan.cost_info);
  if (scenario.train_steps > 0)
    plan.scenario.train_hours = scenario.train_steps * plan.cost->healthy_step_s() / 3600.0;
  if (scenario.mode == RunMode::Snapshot) {
    plan.checkpoint_policy = enum_name(kCheckpointPolicyNames, CheckpointSpec::Policy::None);
    plan.checkpoints.assign(scenario.strategies.size(),
                            {0, "snapshot mode has no time axis", -1, scenario.checkpoint});
    plan.default_checkpointing =
        plan.checkpoints.empty() ? RunPlan::Checkpointing{} : plan.checkpoints.front();
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
    plan.trace_faults = load_trace_faults(scenario, *topo, plan.trace_records);
    plan.trace_sampling =
        trace_sampling(scenario.failures.trace, scenario_trace(scenario)->span_hours,
                       scenario.horizon_hours, *topo);
    const double share_gpus = exposure[0];
    if (plan.trace_sampling.window) {  // a window's expected faults: the trace's mean rate
      plan.job_faults_per_hour = static_cast<double>(plan.trace_faults->faults.size()) *
                                 share_gpus / plan.trace_sampling.span_hours;
    } else {
      std::int64_t hits = 0;
      for (const auto& f : plan.trace_faults->faults) hits += f.start < plan.horizon ? 1 : 0;
      plan.job_faults_per_hour = static_cast<double>(hits) * share_gpus / scenario.horizon_hours;
    }
    std::vector<double> sum(plan.trace_faults->classes.size(), 0.0);
    std::vector<std::int64_t> n(sum.size(), 0);
    for (const auto& f : plan.trace_faults->faults)
      if (f.end != kTimeInfinity && f.fault_class < sum.size()) {
        sum[f.fault_class] += to_seconds(f.end - f.start);
        ++n[f.fault_class];
      }
    double total = 0;
    for (std::size_t c = 0; c < sum.size(); ++c) {
      plan.expected_repair_s.push_back(n[c] ? sum[c] / static_cast<double>(n[c]) : 0.0);
      total += sum[c];
    }
    std::int64_t all = 0;
    for (auto k : n) all += k;
    plan.mean_expected_repair_s = all ? total / static_cast<double>(all) : 0;
  } else {
    double weighted = 0, rates = 0;
    for (const auto& c : scenario.failures.classes) {
      const double rate =
          class_rate_per_hour(scenario.failures, c, *topo) * exposure[static_cast<int>(c.scope)];
      plan.job_faults_per_hour += rate;
      const double repair_s =
          3600.0 * expected_repair_hours(scenario.failures, c.repair, scenario.recovery.restart_s);
      plan.expected_repair_s.push_back(repair_s);
      weighted += rate * repair_s;
      rates += rate;
    }
    plan.mean_expected_repair_s = rates > 0 ? weighted / rates : 0;
  }

  resolve_checkpointing(plan, threads, known, estimate);
  return plan;
}

const RunPlan::Checkpointing& RunPlan::checkpointing(const std::string& strategy) const {
  for (std::size_t i = 0; i < scenario.strategies.size() && i < checkpoints.size(); ++i)
    if (scenario.strategies[i].name == strategy) return checkpoints[i];
  return default_checkpointing;
}

FaultList faults_for(const RunPlan& plan, int run) {
  const Scenario& s = plan.scenario;
  if (plan.trace_faults)
    return sample_trace(*plan.trace_faults, plan.trace_sampling, *plan.topology, plan.horizon,
                        s.seed, static_cast<std::uint64_t>(run));
  return generate_faults(s.failures, *plan.topology, plan.horizon, s.recovery.restart_s, s.seed,
                         static_cast<std::uint64_t>(run),
                         plan.idle_components ? std::span<const std::uint8_t>(*plan.idle_components)
                                              : std::span<const std::uint8_t>());
}

std::shared_ptr<const FaultList> shared_faults_for(const RunPlan& plan, int run) {
  auto draw = [&] { return std::make_shared<const FaultList>(faults_for(plan, run)); };
  const Scenario& s = plan.scenario;
  const Json& r = s.resolved;
  if (!plan.recent_faults || plan.trace_faults || !r.is_object() || !r.contains("failures"))
    return draw();
  // Everything generate_faults reads; the topology by identity (the key holds it alive).
  using Key = std::tuple<std::shared_ptr<const Topology>, std::string, Time, double, std::uint64_t,
                         int, std::vector<std::uint8_t>>;
  static RecentMemo<Key, FaultList, 16> memo;  // an analysis's seeds of a few failure models
  std::vector<std::uint8_t> idle;
  if (plan.idle_components) idle = *plan.idle_components;
  return memo.get(Key{plan.topology, r["failures"].dump(), plan.horizon, s.recovery.restart_s,
                      s.seed, run, std::move(idle)},
                  draw);
}

std::shared_ptr<const trace::Trace> scenario_trace(const Scenario& s) {
  const TraceSpec& t = s.failures.trace;
  const trace::TraceFormat& format =
      trace::parse_format(t.format, s.file, "/failures/trace/format");
  trace::ReadOptions options;
  if (t.lanl_system >= 0) options.lanl_system = t.lanl_system;
  options.time_offset_hours = t.time_offset_hours;
  options.hosts_file = t.hosts;
  options.host_pattern = t.host_pattern;
  options.host_index_offset = t.host_index_offset;
  options.time_zone = t.time_zone;
  options.start = t.start;
  return trace::read_trace_shared(t.path, format, options);
}

}  // namespace goodput
