// ntp_boost: ntp plus power boosting. A degraded domain gets the least power multiplier (up to
// the rack's headroom) at which its replica keeps the full batch; the extra energy and the share
// of boosted domains are reported. Shares its mechanism with ntp (ntp_strategy.cpp).
#include "models/strategies/ntp_strategy.hpp"
#include "models/strategies/tp_rule_read.hpp"

namespace goodput {

namespace {

std::unique_ptr<Strategy> make_ntp_boost(const Scenario& s, const Json& params) {
  return make_ntp_job(s, params, true);
}
Phase snapshot_ntp_boost(const SnapshotInput& in) {
  return snapshot_ntp_job(in, true);
}
SlowRule ntp_boost_slow_rule(const Scenario& s, const Json& params) {
  return goodput::ntp_slow_rule(s, params, true);
}
TpDegreeRule ntp_boost_tp_degrees(const Scenario& s, const Json& params) {
  return read_tp_rule(params, s.job.tp, s.file, "/strategies/ntp_boost");
}

}  // namespace

StrategyInfo strategy_entry_ntp_boost() {
  return {"ntp_boost",
          "ntp with power boosting of degraded domains",
          &ntp_boost_fields().section(),
          &make_ntp_boost,
          &snapshot_ntp_boost,
          nullptr,
          &ntp_boost_tp_degrees,
          &ntp_boost_slow_rule};
}

}  // namespace goodput
