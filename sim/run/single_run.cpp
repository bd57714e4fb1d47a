#include "sim/run/single_run.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/job/cluster_health.hpp"
#include "models/job/job_layout.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/run/accounting.hpp"
#include "sim/run/fault_hook.hpp"
#include "sim/run/slow_faults.hpp"
#include "sim/run/slow_pacer.hpp"

namespace goodput {

struct RunWorkspace::Parts {
  const RunPlan* plan = nullptr;
  const std::vector<StrategyConfig>* strategies = nullptr;
  std::unique_ptr<ClusterHealth> health;
  std::vector<std::unique_ptr<JobLayout>> layouts;  // one per strategy
  std::vector<std::unique_ptr<StrategyMemo>> memos;
  // Fail-slow runs whose strategies replay different lists (slow_faults.hpp): a workspace per
  // group of strategies, by their positions in `strategies`.
  struct Group {
    std::vector<StrategyConfig> strategies;
    RunWorkspace workspace;
  };
  std::map<std::vector<std::size_t>, std::unique_ptr<Group>> groups;
  // Per strategy: the position of the strategy it follows (StrategyInfo::follows: its run is
  // that one's but for the boost figures, so only that one is simulated), or -1.
  std::vector<int> lead;
  std::size_t followed = 0;  // strategies the last run did not simulate (they followed a lead)
};

namespace {

constexpr std::uint32_t kFaultStart = 1, kFaultEnd = 2;
// The engine's stream slots for the fault list's next start and next end (each one at a time).
constexpr int kStartStream = 0, kEndStream = 1;
// The domains of a fault's blast radius whose lanes' lines are hinted when it is scheduled.
constexpr std::uint32_t kLookahead = 4;

// One strategy's view of the run (its layout and memo slot are the workspace's).
struct Lane {
  Lane(const RunPlan& plan, const ClusterHealth& health, Simulator& sim,
       const StrategyConfig& config, JobObserver* extra, JobLayout& job_layout,
       std::unique_ptr<StrategyMemo>& memo, RunShared& shared, bool slow)
      : layout(job_layout),
        pacer(signals, job_layout, *plan.topology),
        accounting(plan.topology->gpus(), plan.scenario.mode == RunMode::Snapshot
                                              ? 0.0
                                              : plan.scenario.train_hours * 3600.0) {
    const StrategyInfo* info = find_strategy(config.name);
    if (!info) throw std::logic_error("unknown strategy " + config.name);
    signals.add(&accounting);
    if (extra) signals.add(extra);
    strategy = info->make(plan.scenario, config.params);
    if (slow)  // the rule reads the strategy's parameters: only for a run that needs it
      pacer.configure(
          plan.cost.get(),
          info->slow_rule ? info->slow_rule(plan.scenario, config.params).boost_cap : 1.0,
          plan.scenario.job.dp, plan.scenario.job.fixed_batch);
    ctx.sim = &sim;
    ctx.scenario = &plan.scenario;
    ctx.health = &health;
    ctx.layout = &layout;
    // Slow spans slow the job on the way to its observers (a run without any goes direct, and
    // straight to the accounting when it is the only observer: one virtual call per signal).
    ctx.signals = slow    ? static_cast<JobObserver*>(&pacer)
                  : extra ? static_cast<JobObserver*>(&signals)
                          : &accounting;
    ctx.checkpoint_interval = plan.checkpointing(config.name).interval;
    ctx.checkpoint = &plan.checkpointing(config.name).spec;
    ctx.cost = plan.cost.get();
    ctx.job_faults_per_hour = plan.job_faults_per_hour;
    ctx.expected_repair_s = plan.expected_repair_s;
    ctx.mean_expected_repair_s = plan.mean_expected_repair_s;
    ctx.memo = &memo;
    ctx.shared = &shared;
  }
  // Cache hints for what this lane keeps about domain d (its layout and its strategy's).
  void prefetch_domain(std::uint32_t d) const {
    layout.prefetch_domain(d);
    strategy->prefetch_domain(d);
  }
  JobLayout& layout;
  JobSignals signals;
  SlowPacer pacer;
  Accounting accounting;
  std::unique_ptr<Strategy> strategy;
  JobContext ctx;
  std::vector<GroupHit> hits;
};

class FaultFeeder final : public EventHandler {
 public:
  FaultFeeder(Simulator& sim, const FaultList& faults, ClusterHealth& health,
              std::vector<std::unique_ptr<Lane>>& lanes, Time horizon,
              const std::vector<double>& failed_thresholds)
      : sim_(sim),
        faults_(faults),
        health_(health),
        lanes_(lanes),
        horizon_(horizon),
        failed_(health.topology().gpus(), failed_thresholds) {
    // Fault ends stay out of the event queue: they are sorted once, by (end, fault index), and
    // only the earliest is queued, under the sequence number reserved when its fault started,
    // so events fire in exactly the order they would with every end queued at its start.
    // Sorted as (end, index) pairs, by value: the same order as indices compared through the
    // list, without a load from it per comparison.
    const auto& f = faults_.faults;
    std::vector<std::pair<Time, std::uint32_t>> by_end;
    by_end.reserve(f.size());
    for (std::size_t i = 0; i < f.size(); ++i)
      if (f[i].start < horizon_ && f[i].end < horizon_)
        by_end.emplace_back(f[i].end, static_cast<std::uint32_t>(i));
    std::sort(by_end.begin(), by_end.end());
    ends_.reserve(by_end.size());
    for (const auto& e : by_end) ends_.push_back(e.second);
    end_id_.assign(f.size(), 0);
  }

  void start() { schedule_start(0); }
  std::int64_t fired() const { return fired_; }
  // The failed-GPU history, integrated to the horizon (after the run).
  const FailedGpuTally& failed() {
    failed_.finish(horizon_);
    return failed_;
  }

  void handle(std::uint32_t kind, std::uint64_t i) override {
    ++fired_;
    const Fault& f = faults_.faults[i];
    const Topology& topo = health_.topology();
    gpus_.clear();
    if (kind == kFaultStart) {
      schedule_start(i + 1);
      if (f.end < horizon_) {
        end_id_[i] = sim_.reserve();
        queue_next_end();
      }
      if (f.is_slow()) {  // the GPUs stay up: the job runs slower (slow_pacer.hpp)
        for (auto& lane : lanes_) {
          lane->strategy->settle(sim_.now());
          lane->pacer.slow_start(sim_.now(), f);
        }
        return;
      }
      health_.fail(f.component, &gpus_);
      failed_.gpus_down(sim_.now(), health_.down_gpus());
      FaultImpact impact;
      impact.fault = &f;
      impact.restart_only =
          f.fault_class < faults_.classes.size() && faults_.classes[f.fault_class].restart_only;
      impact.newly_down = gpus_;
      // The lanes' lines of the first kLookahead domains were hinted when this fault was
      // scheduled (schedule_start): hinted again only for a blast radius reaching past them.
      if (!gpus_.empty() &&
          topo.domain_of_gpu(gpus_.back()) >= topo.domain_of_gpu(gpus_.front()) + kLookahead)
        prefetch_lanes(gpus_);
      for (auto& lane : lanes_) {
        lane->strategy->settle(sim_.now());
        lane->hits.clear();
        const std::int64_t in_use = lane->layout.in_use_gpus();
        lane->layout.release_down(gpus_, &lane->hits);
        // (Nothing released would subtract 0 x the elapsed time: no change, so skipped.)
        if (const std::int64_t gone = in_use - lane->layout.in_use_gpus(); gone != 0)
          lane->accounting.gpus_released(sim_.now(), gone);
        lane->accounting.count_failure(!lane->hits.empty());
        impact.hits = lane->hits;
        lane->strategy->on_fault(impact);
        if (fault_hook) [[unlikely]]
          fault_hook();  // tests only (fault_hook.hpp)
      }
    } else {
      ++next_end_;
      queue_next_end();
      if (f.is_slow()) {
        for (auto& lane : lanes_) {
          lane->strategy->settle(sim_.now());
          lane->pacer.slow_end(sim_.now(), f);
        }
        return;
      }
      domains_.clear();
      health_.repair(f.component, &gpus_);
      failed_.gpus_down(sim_.now(), health_.down_gpus());
      for (std::uint32_t g : gpus_) {
        const std::uint32_t d = topo.domain_of_gpu(g);
        if (domains_.empty() || domains_.back() != d) domains_.push_back(d);
      }
      domains_.erase(std::unique(domains_.begin(), domains_.end()), domains_.end());
      RepairImpact impact;
      impact.fault = &f;
      impact.newly_up = gpus_;
      impact.domains = domains_;
      prefetch_lanes(gpus_);
      for (auto& lane : lanes_) {
        lane->strategy->settle(sim_.now());
        lane->strategy->on_repair(impact);
      }
    }
  }

 private:
  void schedule_start(std::size_t i) {
    if (i < faults_.faults.size() && faults_.faults[i].start < horizon_) {
      sim_.schedule_stream(kStartStream, sim_.reserve(), faults_.faults[i].start, this, kFaultStart,
                           i);
      // Cache hints for that fault, so its lines arrive while other events run.
      const GpuRange r = health_.topology().blast_radius(faults_.faults[i].component);
      if (!r.empty()) {
        const std::uint32_t first = health_.topology().domain_of_gpu(r.front());
        const std::uint32_t last = health_.topology().domain_of_gpu(r.back());
        for (auto& lane : lanes_)
          for (std::uint32_t d = first; d <= last && d < first + kLookahead; ++d)
            lane->prefetch_domain(d);
      }
    }
  }
  // Queues the earliest fault end not yet fired once its fault has started (ends sort after
  // their starts, so the earliest end's fault always starts before any later end is due).
  void queue_next_end() {
    if (next_end_ >= ends_.size()) return;
    const std::uint32_t i = ends_[next_end_];
    if (end_id_[i] == 0 || end_queued_ == next_end_ + 1) return;
    sim_.schedule_stream(kEndStream, end_id_[i], faults_.faults[i].end, this, kFaultEnd, i);
    end_queued_ = next_end_ + 1;
  }
  // Cache hints for every lane's bookkeeping of the domains holding `gpus`.
  void prefetch_lanes(std::span<const std::uint32_t> gpus) {
    const Topology& topo = health_.topology();
    std::uint32_t last = UINT32_MAX;
    for (std::uint32_t g : gpus) {
      const std::uint32_t d = topo.domain_of_gpu(g);
      if (d == last) continue;
      last = d;
      for (auto& lane : lanes_) lane->prefetch_domain(d);
    }
  }

  Simulator& sim_;
  const FaultList& faults_;
  ClusterHealth& health_;
  std::vector<std::unique_ptr<Lane>>& lanes_;
  Time horizon_;
  FailedGpuTally failed_;  // once for every lane: they all see this health
  std::int64_t fired_ = 0;
  std::vector<std::uint32_t> gpus_, domains_;
  std::vector<std::uint32_t> ends_;  // faults with an end inside the horizon, by (end, index)
  std::vector<EventId> end_id_;      // per fault: its end's sequence number, once it started
  std::size_t next_end_ = 0;         // position in ends_ of the earliest end not yet fired
  std::size_t end_queued_ = 0;       // 1 + the position queued (0: none)
};

std::vector<RunMetrics> run_lanes(const RunPlan& plan, const FaultList& faults,
                                  const std::vector<StrategyConfig>& strategies,
                                  const std::vector<JobObserver*>& observers,
                                  RunWorkspace& workspace) {
  Simulator sim;
  RunShared shared;  // state the strategies of this run share (e.g. NTP's health indexes)
  RunWorkspace::Parts& parts = workspace.parts(plan, strategies);
  ClusterHealth& health = *parts.health;
  std::vector<std::unique_ptr<Lane>> lanes;
  const bool slow = has_slow_faults(faults);
  // A follower (Parts::lead) is not simulated unless it is watched: its lead's lane stands for
  // it. Leads never follow, so each has a lane of its own.
  const std::size_t n = strategies.size();
  std::vector<std::size_t> lane_of(n);
  std::vector<char> follows(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    JobObserver* extra = i < observers.size() ? observers[i] : nullptr;
    if (parts.lead[i] >= 0 && !extra) {
      follows[i] = 1;
      continue;
    }
    lane_of[i] = lanes.size();
    lanes.push_back(std::make_unique<Lane>(plan, health, sim, strategies[i], extra,
                                           *parts.layouts[i], parts.memos[i], shared, slow));
  }
  for (std::size_t i = 0; i < n; ++i)
    if (follows[i]) lane_of[i] = lane_of[static_cast<std::size_t>(parts.lead[i])];
  parts.followed = n - lanes.size();
  FaultFeeder feeder(sim, faults, health, lanes, plan.horizon, plan.scenario.failed_gpu_thresholds);
  for (auto& lane : lanes) lane->strategy->start(lane->ctx);
  feeder.start();
  sim.run_until(plan.horizon);
  const FailedGpuTally& failed = feeder.failed();
  std::vector<RunMetrics> out;
  for (auto& lane : lanes) lane->strategy->settle(plan.horizon + 1);  // what is due by the horizon
  std::vector<RunMetrics> by_lane;
  for (auto& lane : lanes) {
    by_lane.push_back(lane->accounting.finish(
        plan.horizon, feeder.fired() + lane->strategy->events_handled(), failed));
    by_lane.back().prices_read = lane->strategy->prices_read();
  }
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(by_lane[lane_of[i]]);
    if (follows[i]) {  // its lead's run but for the boost figures, zero for it
      out.back().boost_energy_gpu_hours = 0;
      out.back().boosted_domain_hours = 0;
      out.back().capped_domain_hours = 0;
    }
  }
  return out;
}

// Fail-slow: each strategy replays its own list (slow_faults.hpp); strategies whose lists agree
// run together, each group on its own engine and health, results in the strategies' order.
std::vector<RunMetrics> run_groups(const RunPlan& plan, const FaultList& faults,
                                   const std::vector<StrategyConfig>& strategies,
                                   const std::vector<JobObserver*>& observers,
                                   RunWorkspace& workspace) {
  const std::size_t n = strategies.size();
  std::vector<std::vector<SlowDecision>> decisions(n);
  std::vector<char> rebalances(n, 0);
  const auto policy = plan.scenario.recovery.slow_response;
  for (std::size_t i = 0; i < n; ++i) {
    const StrategyInfo* info = find_strategy(strategies[i].name);
    if (!info) throw std::logic_error("unknown strategy " + strategies[i].name);
    const SlowRule rule =
        info->slow_rule ? info->slow_rule(plan.scenario, strategies[i].params) : SlowRule{};
    rebalances[i] = rule.kind == SlowRule::Kind::ExcludeIfFaster;
    for (const Fault& f : faults.faults)
      if (f.is_slow())
        decisions[i].push_back(
            decide_slow(rule, policy, *plan.cost, *plan.topology, f, plan.scenario.job));
  }
  // Groups: strategies with the same decisions and rebalancing, in order of their first member.
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < n; ++i) {
    auto same = [&](const std::vector<std::size_t>& g) {
      return rebalances[g[0]] == rebalances[i] && decisions[g[0]] == decisions[i];
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end())
      groups.push_back({i});
    else
      it->push_back(i);
  }
  if (groups.size() == 1)
    return run_lanes(plan, strategy_faults(faults, decisions[0], rebalances[0] != 0), strategies,
                     observers, workspace);
  std::vector<RunMetrics> out(n);
  RunWorkspace::Parts& parts = workspace.parts(plan, strategies);  // for its group workspaces
  std::size_t followed = 0;
  for (const auto& g : groups) {
    const FaultList list = strategy_faults(faults, decisions[g[0]], rebalances[g[0]] != 0);
    auto& slot = parts.groups[g];
    if (!slot) {
      slot = std::make_unique<RunWorkspace::Parts::Group>();
      for (std::size_t i : g) slot->strategies.push_back(strategies[i]);
    }
    std::vector<JobObserver*> obs;
    for (std::size_t i : g) obs.push_back(i < observers.size() ? observers[i] : nullptr);
    std::vector<RunMetrics> r = run_lanes(plan, list, slot->strategies, obs, slot->workspace);
    for (std::size_t k = 0; k < g.size(); ++k) out[g[k]] = std::move(r[k]);
    followed += slot->workspace.followed();
  }
  parts.followed = followed;  // this run's groups only
  return out;
}

std::vector<RunMetrics> run_all(const RunPlan& plan, const FaultList& faults,
                                const std::vector<StrategyConfig>& strategies,
                                const std::vector<JobObserver*>& observers,
                                RunWorkspace& workspace) {
  if (has_slow_faults(faults)) return run_groups(plan, faults, strategies, observers, workspace);
  return run_lanes(plan, faults, strategies, observers, workspace);
}

}  // namespace

RunWorkspace::RunWorkspace() = default;
RunWorkspace::~RunWorkspace() = default;
RunWorkspace::RunWorkspace(RunWorkspace&&) noexcept = default;
RunWorkspace& RunWorkspace::operator=(RunWorkspace&&) noexcept = default;

std::size_t RunWorkspace::followed() const {
  return parts_ ? parts_->followed : 0;
}

RunWorkspace::Parts& RunWorkspace::parts(const RunPlan& plan,
                                         const std::vector<StrategyConfig>& strategies) {
  if (!parts_) {
    parts_ = std::make_unique<Parts>();
    parts_->plan = &plan;
    parts_->strategies = &strategies;
    parts_->health = std::make_unique<ClusterHealth>(*plan.topology);
    for (std::size_t i = 0; i < strategies.size(); ++i)
      parts_->layouts.push_back(std::make_unique<JobLayout>(*parts_->health, plan.scenario.job.tp));
    parts_->memos.resize(strategies.size());
    // Who follows whom (StrategyInfo::follows): same checkpointing too; a lead follows no one.
    parts_->lead.assign(strategies.size(), -1);
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      const StrategyInfo* info = find_strategy(strategies[i].name);
      if (!info || !info->follows) continue;
      const RunPlan::Checkpointing& mine = plan.checkpointing(strategies[i].name);
      for (std::size_t j = 0; j < strategies.size(); ++j) {
        if (j == i || parts_->lead[j] >= 0) continue;
        const RunPlan::Checkpointing& theirs = plan.checkpointing(strategies[j].name);
        if (mine.interval != theirs.interval || !(mine.spec == theirs.spec)) continue;
        if (!info->follows(plan.scenario, strategies[i].params, strategies[j])) continue;
        parts_->lead[i] = static_cast<int>(j);
        break;
      }
    }
    for (int& lead : parts_->lead)  // no chains: a lead that turned out to follow leads no one
      if (lead >= 0 && parts_->lead[static_cast<std::size_t>(lead)] >= 0) lead = -1;
    return *parts_;
  }
  if (parts_->plan != &plan || parts_->strategies != &strategies)
    throw std::logic_error("RunWorkspace: used for another plan or strategy list");
  // A fresh start for the next run: the health first (the layouts read it).
  parts_->health->reset();
  for (auto& layout : parts_->layouts) layout->reset();
  return *parts_;
}

RunMetrics simulate(const RunPlan& plan, const FaultList& faults, const StrategyConfig& config,
                    JobObserver* extra) {
  RunWorkspace workspace;
  const std::vector<StrategyConfig> one{config};
  return run_all(plan, faults, one, {extra}, workspace).front();
}

std::vector<RunMetrics> simulate_all(const RunPlan& plan, const FaultList& faults,
                                     const std::vector<StrategyConfig>& strategies,
                                     const std::vector<JobObserver*>& observers,
                                     RunWorkspace* workspace) {
  if (workspace) return run_all(plan, faults, strategies, observers, *workspace);
  RunWorkspace own;
  return run_all(plan, faults, strategies, observers, own);
}

}  // namespace goodput
