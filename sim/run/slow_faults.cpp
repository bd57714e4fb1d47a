#include "sim/run/slow_faults.hpp"

#include <algorithm>

#include "models/strategies/ntp_config.hpp"

namespace goodput {

SlowDecision decide_slow(const SlowRule& rule, RecoverySpec::SlowResponse policy,
                         const CostModel& cost, const Topology& topology, const Fault& fault,
                         const JobSpec& job) {
  if (policy == RecoverySpec::SlowResponse::Evict) return SlowDecision::Evict;
  if (policy == RecoverySpec::SlowResponse::Tolerate) return SlowDecision::Tolerate;
  if (rule.kind == SlowRule::Kind::Evict) return SlowDecision::Evict;
  const int tp = cost.tp();
  const auto k = static_cast<int>(std::min<std::uint32_t>(
      topology.blast_radius(fault.component).size(), static_cast<std::uint32_t>(tp)));
  const int idle_in_domain = static_cast<int>(topology.gpus_per_domain()) % tp;
  double excluded = 1.0;
  if (k > idle_in_domain) {
    NtpOptions o;
    o.min_tp = rule.min_tp;
    o.allowed = rule.allowed;
    const int degree = allowed_degree(o, tp, tp - k);
    excluded = degree > 0 ? cost.replica_throughput(degree, rule.boost_cap) : 0.0;
  }
  if (job.fixed_batch) {
    // The slow replica keeps its whole batch and the job waits for it: the job's pace, against
    // a group without the slow GPUs that must keep the whole batch too (short by less than one
    // sample, as the strategy counts it; else the job would stop for capacity).
    const double paced = 1.0 / cost.slow_step_ratio(fault.slowdown, rule.boost_cap);
    const double dp = std::max(1, job.dp);
    const bool keeps = keeps_global_batch((dp - 1 + excluded) / dp, job);
    return keeps && excluded > paced ? SlowDecision::Evict : SlowDecision::Tolerate;
  }
  const double slow = cost.slow_replica_throughput(fault.slowdown, rule.boost_cap);
  return excluded > slow ? SlowDecision::Evict : SlowDecision::Tolerate;
}

bool has_slow_faults(const FaultList& faults) {
  return std::any_of(faults.classes.begin(), faults.classes.end(),
                     [](const FaultClassInfo& c) { return c.slow; });
}

FaultList strategy_faults(const FaultList& base, const std::vector<SlowDecision>& decisions,
                          bool rebalances) {
  FaultList out;
  out.classes = base.classes;
  out.faults.reserve(base.faults.size() + decisions.size());
  std::size_t next = 0;
  for (const Fault& f : base.faults) {
    if (!f.is_slow()) {
      out.faults.push_back(f);
      continue;
    }
    const SlowDecision d = decisions.at(next++);
    const Time detected = add_saturating(f.start, base.classes[f.fault_class].detection);
    Fault span = f;
    span.slow = Fault::Slow::Undetected;
    if (detected >= f.end) {  // over before anyone noticed
      out.faults.push_back(span);
      continue;
    }
    if (d == SlowDecision::Evict) {
      span.end = detected;
      if (span.end > span.start) out.faults.push_back(span);
      Fault stop = f;
      stop.start = detected;
      stop.slowdown = 0;
      out.faults.push_back(stop);
    } else if (rebalances) {
      span.end = detected;
      if (span.end > span.start) out.faults.push_back(span);
      Fault cut = f;
      cut.start = detected;
      cut.slow = Fault::Slow::Rebalanced;
      out.faults.push_back(cut);
    } else {
      out.faults.push_back(span);
    }
  }
  std::stable_sort(out.faults.begin(), out.faults.end(), [](const Fault& a, const Fault& b) {
    return a.start != b.start ? a.start < b.start : a.component < b.component;
  });
  return out;
}

}  // namespace goodput
