// ntp_boost: ntp plus power boosting. A degraded domain gets the least power multiplier (up to
// the rack's headroom) at which its replica keeps the full batch; the extra energy and the share
// of boosted domains are reported. Shares its mechanism with ntp (ntp_strategy.cpp).
#include "models/strategies/ntp_strategy.hpp"

namespace goodput {

std::unique_ptr<Strategy> make_ntp_boost(const Scenario& s, const Json& params) {
  return std::make_unique<NtpJob>(read_ntp_options(s, params, true));
}

Phase snapshot_ntp_boost(const SnapshotInput& in) {
  const auto o = read_ntp_options(*in.scenario, in.params, true);
  const JobSpec& j = in.scenario->job;
  return ntp_phase(ntp_config(*in.health, j.tp, j.pp, j.dp, o.layout, *in.cost));
}

}  // namespace goodput
