// ntp: nonuniform tensor parallelism. A replica whose TP group lost GPUs keeps running at a
// lower TP degree on the survivors, with the largest local batch that keeps pace with the
// healthy replicas; damaged domains are packed into as few replicas as possible.
#include "models/strategies/ntp_strategy.hpp"

namespace goodput {

namespace {
std::vector<ParamDecl> ntp_common() {
  using namespace param;
  return {
      optional(integer("min_tp", "GPUs", Json(), 1, 4096,
                       "lowest TP degree that still fits in memory; below it the replica is "
                       "dropped (default tp - tp/4)")),
      numbers("allowed_tp", "GPUs", Json::array(), 1, 4096,
              "allowed degrees (empty: every degree from min_tp to tp)"),
      boolean("packing", true,
              "gather damaged domains into as few replicas as possible on every reconfiguration"),
      choice("reconfig", {"inplace", "restart"}, "inplace",
             "inplace: the lost shards come from a DP peer (state copy), the groups reshard over "
             "NVLink (ntp "
             "reshard) and re-form (communicator rebuild), plus a spare swap-in when a group moves "
             "to hardware "
             "the job was not using; restart: restart the job in the new layout (job restart + "
             "checkpoint "
             "load). Prices: /recovery"),
      boolean("in_memory_recovery", true,
              "restart reconfiguration keeps the state in memory (no rollback)"),
      boolean("upgrade_on_repair", true,
              "reconfigure to a better layout when repairs allow and the gain repays the "
              "reconfiguration "
              "before the next expected job fault (which reconfigures anyway)"),
  };
}
}  // namespace

const ParamSection& ntp_params() {
  static const ParamSection s{
      "ntp", "Keep damaged replicas training at a lower TP degree with a smaller batch.",
      ntp_common()};
  return s;
}

const ParamSection& ntp_boost_params() {
  static const ParamSection s = [] {
    auto p = ntp_common();
    p.push_back(param::number(
        "max_power", "x TDP", 1.3, 1.0, 3.0,
        "rack power headroom: the highest power multiplier a degraded domain may get"));
    return ParamSection{
        "ntp_boost",
        "ntp plus power boosting of degraded domains: the least power (up to max_power) that keeps "
        "the full batch; the batch is cut where even max_power is not enough. Power -> speed: "
        "/cost/curve_power, /cost/curve_speed.",
        p};
  }();
  return s;
}

TpDegreeRule ntp_tp_rule(const Json& params, const ParamSection& section) {
  const ParamReader r(params, section, "", "", nullptr);
  TpDegreeRule rule;
  if (r.present("min_tp")) rule.min_tp = r.integer32("min_tp");
  for (double d : r.numbers("allowed_tp")) rule.allowed.push_back(static_cast<int>(d));
  return rule;
}

namespace {

std::unique_ptr<Strategy> make_ntp(const Scenario& s, const Json& params) {
  return make_ntp_job(s, params, false);
}
Phase snapshot_ntp(const SnapshotInput& in) {
  return snapshot_ntp_job(in, false);
}
TpDegreeRule ntp_tp_degrees(const Scenario&, const Json& params) {
  return ntp_tp_rule(params, ntp_params());
}

}  // namespace

StrategyInfo strategy_entry_ntp() {
  return {"ntp",
          "nonuniform tensor parallelism: damaged replicas continue at a lower TP degree",
          &ntp_params(),
          &make_ntp,
          &snapshot_ntp,
          nullptr,
          &ntp_tp_degrees};
}

}  // namespace goodput
