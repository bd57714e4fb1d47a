// dp_drop: the damaged replica(s) leave and the job goes on with fewer replicas after a
// communicator rebuild; once hardware for a whole replica is healthy again (repair or spares,
// damaged domains packed together) the replica rejoins: its hardware is attached and its state
// copied from a peer in the background, then the job stalls for a communicator rebuild.
// Prices: /recovery (the price list).
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

namespace {

class DpDrop final : public JobController {
 public:
  explicit DpDrop(const DropOptions& o) { drop_ = o; }

 protected:
  void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) override {
    recover_by_drop(impact.hits.size(), hit_domains);
  }
};

}  // namespace

std::vector<BoundParam<DropOptions>> drop_fields(const std::string& prefix) {
  return {
      field::choice(&DropOptions::policy, kBatchPolicyNames, prefix + "batch_policy",
                    "shrink: fewer samples per step; accumulate: same global batch, more "
                    "micro-batches per replica (whole micro-batches); pause_below: shrink, but "
                    "stop below " +
                        prefix + "min_replicas"),
      field::integer(&DropOptions::min_replicas, prefix + "min_replicas", "replicas", 1, 1e7,
                     "pause_below: fewest replicas that may train"),
  };
}

namespace {

const BoundSection<DropOptions>& dp_drop_fields() {
  static const BoundSection<DropOptions> s{
      "dp_drop", "Drop damaged data-parallel replicas; rejoin after repair.", drop_fields("")};
  return s;
}

DropOptions read_drop_options(const Json& params) {
  return dp_drop_fields().read(params);
}

// Steady state with packing: as many whole replicas as the healthy full groups can form.
Phase snapshot_dp_drop(const SnapshotInput& in) {
  const JobSpec& j = in.scenario->job;
  const DropOptions o = read_drop_options(in.params);
  const auto replicas =
      static_cast<int>(std::min<std::int64_t>(j.dp, full_group_capacity(*in.health, j.tp) / j.pp));
  const bool short_of_batch =
      j.fixed_batch && o.policy != BatchPolicy::Accumulate && replicas < j.dp;
  const double rate = short_of_batch ? 0.0 : drop_rate(o, replicas, j.dp, j.microbatches, in.cost);
  return rate > 0 ? Phase::running(rate) : Phase::stalled(Bucket::WaitingForCapacity);
}

std::unique_ptr<Strategy> make_dp_drop(const Scenario&, const Json& params) {
  return std::make_unique<DpDrop>(read_drop_options(params));
}

}  // namespace

StrategyInfo strategy_entry_dp_drop() {
  return {"dp_drop", "drop damaged data-parallel replicas, rejoin after repair",
          &dp_drop_fields().section(), &make_dp_drop, &snapshot_dp_drop};
}

}  // namespace goodput
