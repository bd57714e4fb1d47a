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

const ParamSection& hot_spares_params() {
  using namespace param;
  static const ParamSection s = [] {
    ParamSection p{
        "hot_spares",
        "Swap in a warm spare; fall back when the pool is empty.",
        {
            choice("scope", {"gpu", "node", "domain"}, "domain",
                   "spare unit: gpu (idle GPUs in the same domain), node (a spare node: in-domain "
                   "on multi-node domains, a spare domain on HGX), domain (in-domain first, then "
                   "a whole spare domain)"),
            choice("fallback", {"checkpoint_restart", "dp_drop"}, "checkpoint_restart",
                   "what happens when no spare is available (dp_drop: with the fallback_ batch "
                   "settings below)"),
            boolean("rollback_to_checkpoint", false,
                    "roll back to the last checkpoint on a swap (false: the spare gets state from "
                    "a DP peer)"),
        }};
    for (ParamDecl& d : drop_param_decls("fallback_")) {
      d.doc = "fallback dp_drop: " + d.doc;
      p.params.push_back(std::move(d));
    }
    return p;
  }();
  return s;
}

// Steady state: spares cover the failed units (the job runs whole) or the fallback applies.
Phase snapshot_hot_spares(const SnapshotInput& in) {
  const ParamReader r(in.params, hot_spares_params(), "", "", nullptr);
  // The fallback strategy's own steady state (through the table: no other strategy's code).
  if (r.string("fallback") == "checkpoint_restart")
    return find_strategy("checkpoint_restart")->snapshot(in);
  SnapshotInput drop = in;
  drop.params = {{"batch_policy", r.string("fallback_batch_policy")},
                 {"min_replicas", r.integer("fallback_min_replicas")}};
  return find_strategy("dp_drop")->snapshot(drop);
}

std::unique_ptr<Strategy> make_hot_spares(const Scenario& scenario, const Json& params) {
  const ParamReader r(params, hot_spares_params(), "", "", nullptr);
  SpareOptions o;
  const std::string scope = r.string("scope");
  o.spare_domains =
      scope == "domain" || (scope == "node" && scenario.cluster.nodes_per_domain == 1);
  o.fallback_restart = r.string("fallback") == "checkpoint_restart";
  o.rollback = r.boolean("rollback_to_checkpoint");
  return std::make_unique<HotSpares>(o, read_drop_options(r, "fallback_"));
}

}  // namespace

StrategyInfo strategy_entry_hot_spares() {
  return {"hot_spares", "swap in warm spares, fall back when none is left", &hot_spares_params(),
          &make_hot_spares, &snapshot_hot_spares};
}

}  // namespace goodput
