// The nonuniform-TP job (shared by ntp and ntp_boost): after every fault that hits the job, and
// after repairs that allow a better layout, it recomputes the NTP layout (ntp_config.hpp),
// moves the groups and pays a reconfiguration from the price list: `inplace` (detection, the
// lost shards copied from a DP peer, the reshard between the old and new TP degrees over
// NVLink, a communicator rebuild, and a spare swap-in when a group lands on a domain the job
// was not using; an upgrade after repairs is planned: no detection, no state copy) or
// `restart` (detection + job restart + checkpoint load, rolled back unless in-memory recovery
// is on). With no replica left it falls back to a whole-job restart.
#pragma once

#include <memory>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/strategies/ntp_config.hpp"
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

struct NtpStrategyOptions {
  NtpOptions layout;
  bool inplace = true;
  bool in_memory_recovery = true;
  bool upgrade_on_repair = true;
};

class NtpJob final : public JobController {
 public:
  explicit NtpJob(NtpStrategyOptions o) : o_(std::move(o)) {}

 protected:
  void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) override;
  void react_repair(const RepairImpact& impact) override;
  void on_layout_reset() override;
  Phase running_phase() const override;
  bool can_run() const override;

 private:
  void apply(const NtpConfig& c);
  // A layout NTP could move to: within the job's own domains (all but the last spare_domains)
  // or anywhere, spare domains included. `rate`: its running rate (covering: 1).
  struct Candidate {
    bool covering = false;  // full groups cover the job (the fast path's layout)
    bool own = true;        // restricted to the job's own domains
    NtpConfig config;       // when not covering
    double rate = 0;
  };
  Candidate candidate(bool own);
  // NTP at its own best: the job's own domains, unless spare hardware's better rate repays the
  // foreground spare swap-in before the next expected job fault (or keeps replicas alive).
  Candidate best_candidate();
  void take(const Candidate& c);
  // Pays the reconfiguration from the applied config's lowest degree `from` to the current one.
  void reconfigure(bool planned, int from);
  Steps reconfiguration_steps(bool planned, int from, int to) const;
  // Fast path: while the healthy full groups cover dp x pp, ntp_config's answer is the prefix of
  // domains whose capacity reaches dp x pp, no partial group, every replica whole. It is found
  // with a Fenwick tree (CapacityIndex) and applied by re-assigning only the domains whose health
  // changed since the last apply and those between the old and the new cut: O(changes x log
  // domains) per fault instead of O(domains). Same layout, same config values as the full path.
  void sync_capacity();   // brings the capacity index up to the current health
  void apply_covering();  // the fast path's apply; needs sync_capacity()
  void set_domain(std::uint32_t d, std::uint32_t full, std::uint32_t partial);

  NtpStrategyOptions o_;
  NtpConfig config_;  // its `use` is left empty on the fast path: use_full_/use_partial_ hold it
  std::vector<std::uint32_t> use_full_;     // per domain: full groups of the applied config
  std::vector<std::uint16_t> use_partial_;  // per domain: partial degree of the applied config
  std::unique_ptr<CapacityIndex> caps_;
  bool new_domains_ = false;       // a domain the job did not use got groups since the last reset
  bool covering_ = false;          // the layout is exactly the fast-path target of the last apply
  std::uint32_t applied_cut_ = 0;  // that target's cut domain
  std::size_t applied_log_ = 0;    // health log entries already reflected in the layout
};

NtpStrategyOptions read_ntp_options(const Scenario& scenario, const Json& params, bool boost);
const ParamSection& ntp_params();
const ParamSection& ntp_boost_params();
Phase ntp_phase(const NtpConfig& c);
std::unique_ptr<Strategy> make_ntp_job(const Scenario& s, const Json& params, bool boost);
Phase snapshot_ntp_job(const SnapshotInput& in, bool boost);

}  // namespace goodput
