// ntp: nonuniform tensor parallelism. A replica whose TP group lost GPUs keeps running at a
// lower TP degree on the survivors, with the largest local batch that keeps pace with the
// healthy replicas; damaged domains are packed into as few replicas as possible.
#include "models/strategies/ntp_strategy.hpp"
#include "models/strategies/tp_rule_read.hpp"

namespace goodput {

namespace {

using Options = NtpStrategyOptions;

BoundParam<Options> in_layout(BoundParam<NtpOptions> p) {
  return field::within(&Options::layout, std::move(p));
}

std::vector<BoundParam<Options>> ntp_common() {
  using namespace param;
  return {
      field::declared<Options>(optional(integer(
          "min_tp", "GPUs", Json(), 1, 4096,
          "lowest TP degree that still fits in memory; below it the replica is dropped (default "
          "tp - tp/4)"))),
      field::declared<Options>(numbers("allowed_tp", "GPUs", Json::array(), 1, 4096,
                                       "allowed degrees (empty: every degree from min_tp to tp)")),
      in_layout(field::boolean(
          &NtpOptions::packing, "packing",
          "gather damaged domains into as few replicas as possible on every reconfiguration")),
      field::choice(&Options::inplace, kReconfigNames, "reconfig",
                    "inplace: the lost shards come from a DP peer (state copy), the groups "
                    "reshard over NVLink (ntp reshard) and re-form (communicator rebuild), plus a "
                    "spare swap-in when a group moves to hardware the job was not using; restart: "
                    "restart the job in the new layout (job restart + checkpoint load). Prices: "
                    "/recovery"),
      field::boolean(&Options::in_memory_recovery, "in_memory_recovery",
                     "restart reconfiguration keeps the state in memory (no rollback)"),
      field::boolean(&Options::upgrade_on_repair, "upgrade_on_repair",
                     "reconfigure to a better layout when repairs allow and the gain repays the "
                     "reconfiguration before the next expected job fault (which reconfigures "
                     "anyway)"),
  };
}

}  // namespace

const BoundSection<NtpStrategyOptions>& ntp_fields() {
  static const BoundSection<Options> s{
      "ntp", "Keep damaged replicas training at a lower TP degree with a smaller batch.",
      ntp_common()};
  return s;
}

const BoundSection<NtpStrategyOptions>& ntp_boost_fields() {
  static const BoundSection<Options> s = [] {
    auto rows = ntp_common();
    rows.push_back(in_layout(field::number(
        &NtpOptions::max_power, "max_power", "x TDP", 1.0, 3.0,
        "rack power headroom: the highest power multiplier a degraded domain may get; further "
        "capped by the GPU's rated board power (/cluster/gpu_max_power_w over "
        "gpu_nominal_power_w) and /cluster/domain_power_budget_kw")));
    return BoundSection<Options>{
        "ntp_boost",
        "ntp plus power boosting of degraded domains: the least power (up to max_power, the "
        "GPU's rated board power and the domain's power budget) that keeps the full batch; the "
        "batch is cut where even that is not enough (reported as capped). Power -> speed: "
        "/cost/curve_power, /cost/curve_speed, /cost/curve_extension.",
        std::move(rows)};
  }();
  return s;
}

namespace {

std::unique_ptr<Strategy> make_ntp(const Scenario& s, const Json& params) {
  return make_ntp_job(s, params, false);
}
Phase snapshot_ntp(const SnapshotInput& in) {
  return snapshot_ntp_job(in, false);
}
SlowRule ntp_slow_rule(const Scenario& s, const Json& params) {
  return goodput::ntp_slow_rule(s, params, false);
}
TpDegreeRule ntp_tp_degrees(const Scenario& s, const Json& params) {
  return read_tp_rule(params, s.job.tp, s.file, "/strategies/ntp");
}

}  // namespace

StrategyInfo strategy_entry_ntp() {
  return {"ntp",
          "nonuniform tensor parallelism: damaged replicas continue at a lower TP degree",
          &ntp_fields().section(),
          &make_ntp,
          &snapshot_ntp,
          nullptr,
          &ntp_tp_degrees,
          &ntp_slow_rule,
          &ntp_follows};
}

}  // namespace goodput
