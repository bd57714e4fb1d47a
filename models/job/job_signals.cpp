#include "models/job/job_signals.hpp"

namespace goodput {

const char* bucket_name(Bucket b) {
  switch (b) {
    case Bucket::WastedProgress:
      return "WASTED_PROGRESS_FROM_DISRUPTION";
    case Bucket::InfrastructureRecovery:
      return "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION";
    case Bucket::CheckpointSave:
      return "UNPRODUCTIVE_CHECKPOINT_SAVE_TIME";
    case Bucket::CheckpointRestore:
      return "UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME";
    case Bucket::DegradedCapacity:
      return "DEGRADED_CAPACITY";
    case Bucket::ReshardOverhead:
      return "RESHARD_OVERHEAD";
    case Bucket::WaitingForCapacity:
      return "WAITING_FOR_CAPACITY";
    case Bucket::SlowComponents:
      return "SLOW_COMPONENTS";
  }
  return "?";
}

const char* mechanism_name(Mechanism m) {
  switch (m) {
    case Mechanism::Detection:
      return "detection";
    case Mechanism::JobRestart:
      return "job_restart";
    case Mechanism::CheckpointLoad:
      return "checkpoint_load";
    case Mechanism::CommunicatorRebuild:
      return "communicator_rebuild";
    case Mechanism::StateCopy:
      return "state_copy";
    case Mechanism::SpareSwapIn:
      return "spare_swap_in";
    case Mechanism::NtpReshard:
      return "ntp_reshard";
    case Mechanism::NtpReconfig:
      return "ntp_reconfig";
    case Mechanism::Rejoin:
      return "rejoin";
  }
  return "?";
}

}  // namespace goodput
