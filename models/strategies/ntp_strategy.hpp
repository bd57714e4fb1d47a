// The nonuniform-TP job (shared by ntp and ntp_boost): after every fault that hits the job, and
// after repairs that allow a better layout, it recomputes the NTP layout (ntp_config.hpp),
// moves the groups and pays a reconfiguration from the price list: `inplace` (detection, the
// lost shards copied from a DP peer, for every TP group whose degree changed a reshard between
// its old and new degree over NVLink and a TP reconfiguration (/recovery/ntp_reconfig_s), the
// changed groups in parallel (the stall pays the slowest, the report counts each group), a
// communicator rebuild, and a spare swap-in when a group lands on a domain the job was not
// using; an upgrade after repairs is planned: no detection, no state copy) or
// `restart` (detection + job restart + checkpoint load, rolled back unless in-memory recovery
// is on). With no replica left it falls back to a whole-job restart.
// Under /job/batch fixed, when the own domains' layout falls short of the batch and spare groups
// in place of damaged ones cannot keep it, the fewest extra replicas that make up the sample
// shortfall run on spare domains (pp full groups each; attaching pays a state copy each and a
// rejoin inside the rebuild); a repair that lets fewer do returns the rest at once.
#pragma once

#include <memory>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/strategies/ntp_config.hpp"
#include "models/strategies/ntp_partial_index.hpp"
#include "models/strategies/strategy_factories.hpp"
#include "sim/core/cache_hint.hpp"

namespace goodput {

// ntp's reconfiguration: in place (true) or a job restart (false).
inline constexpr EnumName<bool> kReconfigNames[] = {{true, "inplace"}, {false, "restart"}};

struct NtpStrategyOptions {
  NtpOptions layout;
  bool inplace = true;
  bool in_memory_recovery = true;
  bool upgrade_on_repair = true;
  bool operator==(const NtpStrategyOptions&) const = default;
};

class NtpJob final : public JobController {
 public:
  explicit NtpJob(NtpStrategyOptions o) : o_(std::move(o)) {}
  void prefetch_domain(std::uint32_t d) const override {
    if (d >= use_full_.size()) return;
    cache_hint(&use_full_[d]);
    cache_hint(&use_partial_[d]);
  }

 protected:
  void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) override;
  void react_repair(const RepairImpact& impact) override;
  void on_layout_reset() override;
  Phase running_phase() const override;
  bool can_run() const override;

 private:
  // A layout NTP could move to: within the job's own domains (all but the last spare_domains)
  // or anywhere, spare domains included; under /job/batch fixed also the own domains' layout
  // plus extra replicas on spare domains (extra). `rate`: its running rate (covering: 1).
  struct Candidate {
    bool covering = false;    // full groups cover the job (the fast path's layout)
    bool own = true;          // restricted to the job's own domains
    std::uint32_t limit = 0;  // domains below it may be used for partial groups
    // When not covering: every full group of the domains below `cut`, and `cut_full` at it
    // (short: cut = limit; extra: the extra replicas' groups run on past the limit).
    std::uint32_t cut = 0;
    std::uint32_t cut_full = 0;
    NtpConfig config;         // when not covering (its `use` left empty)
    NtpPartialChoice choice;  // when not covering: the partial groups it takes
    double rate = 0;
  };
  // Fills *c (its buffers reused: no allocation per fault once warm).
  void candidate(bool own, Candidate* c);
  // /job/batch fixed: `own` (short of the batch) plus the fewest extra replicas that make up
  // its sample shortfall, each pp full groups (at tp) of the spare domains, taken in domain
  // order. False when the spare domains' healthy full groups are too few.
  bool with_extra_replicas(const Candidate& own, Candidate* out) const;
  // NTP at its own best: the job's own domains, unless spare hardware's better rate repays the
  // foreground spare swap-in before the sooner of the next expected job fault and the expected
  // repair of the damage (`repair_s`, from the declared failure model; <= 0: unknown), after
  // which the own domains are as good (or it keeps replicas alive). Spare hardware replaces
  // damaged groups (any_) or, under a fixed batch when that cannot keep the batch but extra
  // replicas can, hosts them (extra_). One of own_/any_/extra_, valid until the next call.
  const Candidate& best_candidate(double repair_s);

  void take(const Candidate& c);
  // Pays the reconfiguration of the groups whose degree changed since the last one (changed_).
  void reconfigure(bool planned);
  // `groups` TP groups change degree, the slowest reshard taking `reshard_s`; `extras` extra
  // replicas are attached (each gets its state from a DP peer and joins in the rebuild).
  Steps reconfiguration_steps(bool planned, std::uint32_t groups, double reshard_s,
                              std::uint32_t extras = 0) const;
  // set_domain's record of a domain whose groups change (at most one changes degree: the
  // degrees of a domain are its full groups at tp and one partial group).
  void note_change(std::uint32_t full0, std::uint32_t partial0, std::uint32_t full,
                   std::uint32_t partial);
  // Both layouts ntp_config can give are found from indexes kept up to date from the health
  // change log, without scanning every domain:
  // - covering (the healthy full groups cover dp x pp): the prefix of domains whose capacity
  //   reaches dp x pp, no partial group, every replica whole; its cut domain from a Fenwick
  //   tree (CapacityIndex);
  // - short (they do not): every full group below the limit, plus the best partial groups
  //   (NtpPartialIndex, ntp_short_config).
  // Either is "full groups of the domains below a cut (cut_full at the cut) plus a list of
  // partial groups", and is applied by re-assigning only the domains whose health changed
  // since the last apply, those between the old and the new cut, and those whose partial group
  // changed: O(changes x log domains) per fault instead of O(domains). Same layout and config
  // values as ntp_config.
  void sync_indexes();    // brings the capacity and partial indexes up to the current health
  void apply_covering();  // needs sync_indexes()
  void apply_short(const Candidate& c);
  // Full groups of the domains below `cut` (`cut_full` at it), the partial groups of `choice`
  // among the domains below `partial_limit`.
  void apply_layout(std::uint32_t cut, std::uint32_t cut_full, const NtpPartialChoice& choice,
                    std::uint32_t partial_limit);
  void set_domain(std::uint32_t d, std::uint32_t full, std::uint32_t partial);

  NtpStrategyOptions o_;
  NtpConfig config_;                     // its `use` is left empty: use_full_/use_partial_ hold it
  std::vector<std::uint32_t> use_full_;  // per domain: full groups of the applied config
  std::vector<std::uint16_t> use_partial_;  // per domain: partial degree of the applied config
  // The capacity and partial indexes of the cluster health: one pair per run for every NTP
  // strategy with the same tp and degree rule (JobContext::shared), else this lane's own.
  struct Indexes final : StrategyMemo {
    Indexes(const ClusterHealth& health, int tp, const NtpOptions& o)
        : caps(health, tp), partial(health, tp, o) {}
    CapacityIndex caps;
    NtpPartialIndex partial;
  };
  std::unique_ptr<Indexes> own_indexes_;
  CapacityIndex* caps_ = nullptr;
  NtpPartialIndex* partial_index_ = nullptr;
  // The memo of this lane (JobContext::memo, else own_memo_): its lock-free front to ctx().cost
  // and its remembered layout figures.
  struct Memo final : StrategyMemo {
    Memo(const CostModel& model, const JobSpec& j, const NtpOptions& o)
        : cost(model), figures(j.tp, j.groups_per_replica(), j.dp, o, cost) {}
    CostMemo cost;
    NtpFigures figures;  // refers to `cost`: a Memo stays where it was made
  };
  std::unique_ptr<StrategyMemo> own_memo_;
  Memo* memo_ = nullptr;
  Candidate own_, any_, extra_;  // best_candidate's candidates
  bool new_domains_ = false;     // a domain the job did not use got groups since the last reset
  // The TP groups whose degree changed since the last reconfiguration (set_domain), and the
  // price of the slowest one's reshard.
  struct Changed {
    std::uint32_t groups = 0;
    double reshard_s = 0;
    std::uint32_t extras = 0;  // extra replicas attached (fixed batch)
  };
  Changed changed_;
  Changed last_;         // those of the last reconfiguration (redone if a new one cuts it short)
  void start_changes();  // before a layout change: the groups still to reshard
  // The layout is exactly the target of the last apply_layout: full groups below applied_cut_
  // (and some at it), the partial groups below it that applied_choice_ takes, with the health
  // as of log entry applied_log_.
  bool targeted_ = false;
  std::uint32_t applied_cut_ = 0;
  std::uint32_t applied_limit_ = 0;  // the partial groups' limit of the last apply
  NtpPartialChoice applied_choice_;  // its threshold only (runs left empty)
  std::size_t applied_log_ = 0;
};

// ntp's spare rule (best_candidate): moving to spare hardware, at rate `any` instead of `own`,
// repays its foreground swap-in (`swap_s`) when the gain, kept until the sooner of the next
// expected job fault (3600 / faults_per_hour) and the expected repair of the damage
// (`repair_s`; <= 0: unknown), exceeds it; always when it keeps the job running (own <= 0) or
// neither horizon is known.
bool ntp_spare_repays(double any, double own, double faults_per_hour, double repair_s,
                      double swap_s);

// The sections of ntp and ntp_boost (ntp.cpp), bound to NtpStrategyOptions but for min_tp and
// allowed_tp, which depend on the job's tp: read_ntp_options and the table entries read them
// with read_tp_rule (tp_rule_read.hpp).
const BoundSection<NtpStrategyOptions>& ntp_fields();
const BoundSection<NtpStrategyOptions>& ntp_boost_fields();
NtpStrategyOptions read_ntp_options(const Scenario& scenario, const Json& params, bool boost);
Phase ntp_phase(const NtpConfig& c);
std::unique_ptr<Strategy> make_ntp_job(const Scenario& s, const Json& params, bool boost);
SlowRule ntp_slow_rule(const Scenario& s, const Json& params, bool boost);
Phase snapshot_ntp_job(const SnapshotInput& in, bool boost);
// StrategyInfo::follows of ntp: `lead` is an ntp_boost with the same layout and recovery
// options whose power cap is 1 at every degree (no headroom: max_power, the board's rating or
// the domain budget). It then draws nominal power everywhere, so its figures, layouts and
// decisions are ntp's; only its capped count (degraded domains held short by their cap) is
// not zero.
bool ntp_follows(const Scenario& s, const Json& params, const StrategyConfig& lead);

}  // namespace goodput
