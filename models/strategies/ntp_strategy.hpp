// The nonuniform-TP job (shared by ntp and ntp_boost): after every fault that hits the job, and
// after repairs that allow a better layout, it recomputes the NTP layout (ntp_config.hpp),
// moves the groups and pays a reconfiguration: `inplace` (detection + inplace_s, weights and
// optimizer state redistributed over NVLink, lost shards from a peer) or `restart` (detection
// + restart + checkpoint load, rolled back unless in-memory recovery is on). With no replica
// left it falls back to a whole-job restart.
#pragma once

#include "models/strategies/ntp_config.hpp"
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

struct NtpStrategyOptions {
  NtpOptions layout;
  bool inplace = true;
  double inplace_s = 60;
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
  NtpConfig compute() const;
  void apply(const NtpConfig& c);
  void reconfigure(bool planned);

  NtpStrategyOptions o_;
  NtpConfig config_;
};

NtpStrategyOptions read_ntp_options(const Scenario& scenario, const Json& params, bool boost);
const ParamSection& ntp_params();
const ParamSection& ntp_boost_params();
Phase ntp_phase(const NtpConfig& c);
std::unique_ptr<Strategy> make_ntp_job(const Scenario& s, const Json& params, bool boost);
Phase snapshot_ntp_job(const SnapshotInput& in, bool boost);

}  // namespace goodput
