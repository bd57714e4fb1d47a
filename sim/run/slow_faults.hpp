// Fail-slow (issue 29): what each strategy does about a slow fault, written out as the fault list
// its run replays. A slow fault (Fault::is_slow) of factor s on component c, from `start` to
// `end`, with its class's detection time d, becomes for one strategy:
//   evict:    a slow span Undetected [start, min(start + d, end)), then a fail-stop fault of c
//             [start + d, end) (the strategy sees an ordinary failure at detection);
//   tolerate: Undetected [start, start + d), then, for a strategy that cuts a slow replica's
//             local batch (SlowRule::ExcludeIfFaster), Rebalanced [start + d, end) (under
//             /job/batch fixed it cannot cut it, only boost it: SlowPacer), for the others
//             Undetected until `end` (the job keeps waiting for it at every step).
// Which one: /recovery/slow_response (evict or tolerate for every strategy), or each strategy's
// SlowRule (decide_slow). The decision depends only on the fault, the rule and the cost model,
// so strategies that decide alike on every fault of a run share one list, one cluster health and
// one engine (simulate_all groups them); fail-stop faults are copied unchanged.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "models/failures/fault.hpp"
#include "models/strategies/strategy.hpp"
#include "models/topology/topology.hpp"

namespace goodput {

enum class SlowDecision : std::uint8_t { Evict, Tolerate };

// What a strategy does about one slow fault. ExcludeIfFaster: evict when running the TP group
// without the component's GPUs (k of them in one group: a GPU 1, a node its GPUs, at most tp;
// refilled from the domain's idle GPUs when gpus_per_domain mod tp >= k, which costs nothing)
// keeps more of the replica's batch than running slow (cost.slow_replica_throughput, both
// boosted up to the rule's boost_cap); a tie tolerates. Under /job/batch fixed (job.fixed_batch)
// a tolerated slow replica keeps its whole batch and the job waits for it at every step
// (1 / cost.slow_step_ratio, boosted up to boost_cap), and the group without the slow GPUs must
// keep the whole batch as well (keeps_global_batch), else the job would stop for capacity:
// evict only when it does and the waiting job would not (spare domains that could host extra
// replicas are not considered). As if the rest of the replica were healthy: the decision is
// made once per fault, not per layout.
SlowDecision decide_slow(const SlowRule& rule, RecoverySpec::SlowResponse policy,
                         const CostModel& cost, const Topology& topology, const Fault& fault,
                         const JobSpec& job);

// Whether any class of the list is slow (then simulate_all derives per-strategy lists).
bool has_slow_faults(const FaultList& faults);

// The list one strategy replays: `decisions` has one entry per slow fault of `base`, in order;
// `rebalances`: a tolerated slow fault is Rebalanced after detection (else Undetected). Sorted
// by (start, component), ties in the order of `base`.
FaultList strategy_faults(const FaultList& base, const std::vector<SlowDecision>& decisions,
                          bool rebalances);

}  // namespace goodput
