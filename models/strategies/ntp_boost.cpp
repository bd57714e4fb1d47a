// ntp_boost: ntp plus power boosting. A degraded domain gets the least power multiplier (up to
// the rack's headroom) at which its replica keeps the full batch; the extra energy and the share
// of boosted domains are reported. Shares its mechanism with ntp (ntp_strategy.cpp).
#include "models/strategies/ntp_strategy.hpp"

namespace goodput {

std::unique_ptr<Strategy> make_ntp_boost(const Scenario& s, const Json& params) {
  return make_ntp_job(s, params, true);
}
Phase snapshot_ntp_boost(const SnapshotInput& in) {
  return snapshot_ntp_job(in, true);
}

}  // namespace goodput
