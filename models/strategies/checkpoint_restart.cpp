// checkpoint_restart: any fault that touches a job GPU stops the whole job; progress since
// the last durable checkpoint is lost; the job restarts (detection + restart + checkpoint
// load) once a full complement of healthy TP groups exists, on spares or repaired hardware.
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

namespace {

class CheckpointRestart final : public JobController {
 protected:
  void react(const FaultImpact&, std::span<const std::uint32_t> hit_domains) override {
    recover_by_restart(hit_domains);
  }
};

const ParamSection& checkpoint_restart_params() {
  static const ParamSection s{
      "checkpoint_restart",
      "Restart the whole job from the last checkpoint after every job fault. "
      "Uses /recovery and /checkpoint; no parameters of its own.",
      {}};
  return s;
}

// Steady state: the whole job runs if a full complement of groups exists, else it waits.
Phase snapshot_checkpoint_restart(const SnapshotInput& in) {
  const JobSpec& j = in.scenario->job;
  return full_group_capacity(*in.health, j.tp) >= static_cast<std::int64_t>(j.dp) * j.pp
             ? Phase::running(1.0)
             : Phase::stalled(Bucket::WaitingForCapacity);
}

std::unique_ptr<Strategy> make_checkpoint_restart(const Scenario&, const Json&) {
  return std::make_unique<CheckpointRestart>();
}

}  // namespace

std::int64_t full_group_capacity(const ClusterHealth& health, int tp) {
  std::int64_t c = 0;
  for (std::uint32_t d = 0; d < health.topology().domains(); ++d)
    c += health.healthy_in_domain(d) / tp;
  return c;
}

StrategyInfo strategy_entry_checkpoint_restart() {
  return {"checkpoint_restart", "restart the whole job from the last checkpoint",
          &checkpoint_restart_params(), &make_checkpoint_restart, &snapshot_checkpoint_restart};
}

}  // namespace goodput
