// hot_spares: a warm spare replaces the damaged unit, gets its replica's state from a DP peer,
// and the job loses only the step in flight. Scope gpu: idle healthy GPUs of the same domain;
// node: the same where a node is part of a larger domain, whole spare nodes (= domains) on
// HGX; domain: in-domain GPUs first, then a spare domain. Prices (/recovery): an in-domain
// re-form pays state copy + communicator rebuild (as ntp does for the same action); a spare
// node/domain pays spare swap-in on top. A restart-only fault with no spare in scope re-forms
// in place once its processes are back. A failed unit rejoins the pool when repaired. With no
// spare in scope, the fallback strategy acts.
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

namespace {

enum class SpareScope { Gpu, Node, Domain };
inline constexpr EnumName<SpareScope> kSpareScopeNames[] = {
    {SpareScope::Gpu, "gpu"}, {SpareScope::Node, "node"}, {SpareScope::Domain, "domain"}};
// The fallback: checkpoint_restart (true) or dp_drop (false), named as the strategies are.
inline constexpr EnumName<bool> kFallbackNames[] = {{true, "checkpoint_restart"},
                                                    {false, "dp_drop"}};

inline constexpr const char* kFallbackPrefix = "fallback_";

// hot_spares' parameters as declared (hot_spares_fields).
struct SpareParams {
  SpareScope scope = SpareScope::Domain;
  bool fallback_restart = true;
  bool rollback = false;
  DropOptions drop;  // the dp_drop fallback's batch settings
};

struct SpareOptions {
  bool spare_domains = true;  // may move a group to another domain
  bool fallback_restart = true;
  bool rollback = false;
};

class HotSpares final : public JobController {
 public:
  HotSpares(const SpareOptions& o, const DropOptions& d) : o_(o) { drop_ = d; }

 protected:
  void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) override {
    if (degraded()) {  // already running on the dp_drop fallback
      recover_by_drop(impact.hits.size(), hit_domains);
      return;
    }
    // The state comes from a DP peer, or from the checkpoint when the swap rolls back.
    const Step state = pay(o_.rollback ? Mechanism::CheckpointLoad : Mechanism::StateCopy);
    const Step rebuild = pay(Mechanism::CommunicatorRebuild);
    // In-domain replacements were already made (idle GPUs of the hit domains).
    if (layout_full()) return recover({state, rebuild}, o_.rollback);
    if (o_.spare_domains) ctx().layout->retarget(job_groups(), {});
    if (layout_full())
      recover({pay(Mechanism::SpareSwapIn), state, rebuild}, o_.rollback);
    else if (impact.restart_only)
      recover({state, rebuild}, o_.rollback);  // waits for its processes
    else if (o_.fallback_restart)
      recover_by_restart(hit_domains);
    else
      recover_by_drop(impact.hits.size(), hit_domains);
  }

 private:
  SpareOptions o_;
};

const BoundSection<SpareParams>& hot_spares_fields() {
  static const BoundSection<SpareParams> s = [] {
    std::vector<BoundParam<SpareParams>> rows{
        field::choice(&SpareParams::scope, kSpareScopeNames, "scope",
                      "spare unit: gpu (idle GPUs in the same domain), node (a spare node: "
                      "in-domain on multi-node domains, a spare domain on HGX), domain (in-domain "
                      "first, then a whole spare domain)"),
        field::choice(&SpareParams::fallback_restart, kFallbackNames, "fallback",
                      "what happens when no spare is available (dp_drop: with the fallback_ batch "
                      "settings below)"),
        field::boolean(&SpareParams::rollback, "rollback_to_checkpoint",
                       "roll back to the last checkpoint on a swap (false: the spare gets state "
                       "from a DP peer)"),
    };
    for (auto& row : drop_fields(kFallbackPrefix)) {
      row.decl.doc = "fallback dp_drop: " + row.decl.doc;
      rows.push_back(field::within(&SpareParams::drop, std::move(row)));
    }
    return BoundSection<SpareParams>{
        "hot_spares", "Swap in a warm spare; fall back when the pool is empty.", std::move(rows)};
  }();
  return s;
}

// Steady state: spares cover the failed units (the job runs whole) or the fallback applies.
Phase snapshot_hot_spares(const SnapshotInput& in) {
  // The fallback strategy's own steady state (through the table: no other strategy's code).
  if (hot_spares_fields().read(in.params).fallback_restart)
    return find_strategy("checkpoint_restart")->snapshot(in);
  SnapshotInput drop = in;  // dp_drop's section: the fallback_ keys without their prefix
  drop.params = Json::object();
  const std::string prefix = kFallbackPrefix;
  for (const auto& [key, value] : in.params.items())
    if (key.rfind(prefix, 0) == 0) drop.params[key.substr(prefix.size())] = value;
  return find_strategy("dp_drop")->snapshot(drop);
}

std::unique_ptr<Strategy> make_hot_spares(const Scenario& scenario, const Json& params) {
  const SpareParams p = hot_spares_fields().read(params);
  SpareOptions o;
  o.spare_domains = p.scope == SpareScope::Domain ||
                    (p.scope == SpareScope::Node && scenario.cluster.nodes_per_domain == 1);
  o.fallback_restart = p.fallback_restart;
  o.rollback = p.rollback;
  return std::make_unique<HotSpares>(o, p.drop);
}

}  // namespace

StrategyInfo strategy_entry_hot_spares() {
  return {"hot_spares", "swap in warm spares, fall back when none is left",
          &hot_spares_fields().section(), &make_hot_spares, &snapshot_hot_spares};
}

}  // namespace goodput
