#include "models/strategies/price_list.hpp"

#include "models/cost/cost_model.hpp"

namespace goodput {

double ntp_reshard_price_s(const Scenario& s, const CostModel* cost, int from, int to) {
  if (from == to) return 0;
  const double fixed = s.recovery.ntp_reshard_s;
  return fixed >= 0 ? fixed : cost ? cost->ntp_reshard_s(from, to) : 0;
}

double mechanism_price_s(const Scenario& s, const CostModel* cost, Mechanism m) {
  const RecoverySpec& r = s.recovery;
  switch (m) {
    case Mechanism::Detection:
      return r.detection_s;
    case Mechanism::JobRestart:
      return r.restart_s;
    case Mechanism::CheckpointLoad:
      return s.checkpoint.load_s;
    case Mechanism::CommunicatorRebuild:
      return r.communicator_rebuild_s;
    case Mechanism::SpareSwapIn:
      return r.spare_swap_s;
    case Mechanism::StateCopy:
      return r.state_copy_s >= 0 ? r.state_copy_s : cost ? cost->state_copy_s() : 0;
    case Mechanism::NtpReshard:
      return ntp_reshard_price_s(s, cost, s.job.tp, s.job.tp - 1);
    case Mechanism::NtpReconfig:
      return r.ntp_reconfig_s;
    case Mechanism::Rejoin:
      return r.rejoin_s >= 0 ? r.rejoin_s : r.communicator_rebuild_s;
  }
  return 0;
}

std::string mechanism_price_source(const Scenario& s, const CostModel* cost, Mechanism m) {
  const bool derived = cost && cost->iteration_detail();
  switch (m) {
    case Mechanism::CheckpointLoad:
      return "/checkpoint/load_s";
    case Mechanism::StateCopy:
      if (s.recovery.state_copy_s >= 0) return "/recovery/state_copy_s";
      return derived ? "derived: one GPU's weights + optimizer state over its scale-out link"
                     : "derived: 0 (proportional cost model, no model shape)";
    case Mechanism::NtpReshard:
      if (s.recovery.ntp_reshard_s >= 0) return "/recovery/ntp_reshard_s";
      return derived ? "derived per changed TP group from its degrees (shown: tp -> tp-1), "
                       "busiest rank's bytes over NVLink"
                     : "derived: 0 (proportional cost model, no model shape)";
    case Mechanism::NtpReconfig:
      return "/recovery/ntp_reconfig_s";
    case Mechanism::Rejoin:
      return s.recovery.rejoin_s >= 0 ? "/recovery/rejoin_s"
                                      : "/recovery/communicator_rebuild_s (rejoin_s unset)";
    case Mechanism::Detection:
      return "/recovery/detection_s";
    case Mechanism::JobRestart:
      return "/recovery/restart_s";
    case Mechanism::CommunicatorRebuild:
      return "/recovery/communicator_rebuild_s";
    case Mechanism::SpareSwapIn:
      return "/recovery/spare_swap_s";
  }
  return "?";
}

}  // namespace goodput
