#include "sim/run/single_run.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/strategies/strategy.hpp"
#include "sim/run/accounting.hpp"

namespace goodput {

namespace {

constexpr std::uint32_t kFaultStart = 1, kFaultEnd = 2;

class FaultFeeder final : public EventHandler {
 public:
  FaultFeeder(Simulator& sim, const FaultList& faults, ClusterHealth& health, JobLayout& layout,
              Strategy& strategy, Accounting& accounting, Time horizon)
      : sim_(sim), faults_(faults), health_(health), layout_(layout), strategy_(strategy),
        accounting_(accounting), horizon_(horizon) {}

  void start() { schedule_start(0); }

  void handle(std::uint32_t kind, std::uint64_t i) override {
    const Fault& f = faults_.faults[i];
    const Topology& topo = health_.topology();
    if (kind == kFaultStart) {
      schedule_start(i + 1);
      if (f.end < horizon_) sim_.schedule_at(f.end, this, kFaultEnd, i);
      else if (f.end == f.start) throw std::logic_error("fault with zero duration");
      gpus_.clear();
      hits_.clear();
      health_.fail(f.component, &gpus_);
      layout_.release_down(gpus_, &hits_);
      accounting_.gpus_down(sim_.now(), health_.down_gpus());
      accounting_.count_failure(!hits_.empty());
      FaultImpact impact;
      impact.fault = &f;
      impact.restart_only = f.fault_class < faults_.classes.size() && faults_.classes[f.fault_class].restart_only;
      impact.newly_down = gpus_;
      impact.hits = hits_;
      strategy_.on_fault(impact);
    } else {
      gpus_.clear();
      domains_.clear();
      health_.repair(f.component, &gpus_);
      for (std::uint32_t g : gpus_) {
        const std::uint32_t d = topo.domain_of_gpu(g);
        if (domains_.empty() || domains_.back() != d) domains_.push_back(d);
      }
      domains_.erase(std::unique(domains_.begin(), domains_.end()), domains_.end());
      accounting_.gpus_down(sim_.now(), health_.down_gpus());
      RepairImpact impact;
      impact.fault = &f;
      impact.newly_up = gpus_;
      impact.domains = domains_;
      strategy_.on_repair(impact);
    }
  }

 private:
  void schedule_start(std::size_t i) {
    if (i < faults_.faults.size() && faults_.faults[i].start < horizon_)
      sim_.schedule_at(faults_.faults[i].start, this, kFaultStart, i);
  }

  Simulator& sim_;
  const FaultList& faults_;
  ClusterHealth& health_;
  JobLayout& layout_;
  Strategy& strategy_;
  Accounting& accounting_;
  Time horizon_;
  std::vector<std::uint32_t> gpus_, domains_;
  std::vector<GroupHit> hits_;
};

}  // namespace

RunMetrics simulate(const RunPlan& plan, const FaultList& faults, const StrategyConfig& config,
                    JobObserver* extra) {
  const StrategyInfo* info = find_strategy(config.name);
  if (!info) throw std::logic_error("unknown strategy " + config.name);
  const Topology& topo = *plan.topology;
  Simulator sim;
  ClusterHealth health(topo);
  JobLayout layout(health, plan.scenario.job.tp);
  Accounting accounting(topo.gpus());
  JobSignals signals;
  signals.add(&accounting);
  if (extra) signals.add(extra);
  auto strategy = info->make(plan.scenario, config.params);

  JobContext ctx;
  ctx.sim = &sim;
  ctx.scenario = &plan.scenario;
  ctx.health = &health;
  ctx.layout = &layout;
  ctx.signals = &signals;
  ctx.checkpoint_interval = plan.checkpoint_interval;
  ctx.cost = plan.cost.get();

  FaultFeeder feeder(sim, faults, health, layout, *strategy, accounting, plan.horizon);
  strategy->start(ctx);
  feeder.start();
  sim.run_until(plan.horizon);
  return accounting.finish(plan.horizon, static_cast<std::int64_t>(sim.events_fired()));
}

}  // namespace goodput
