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

}  // namespace

const ParamSection& checkpoint_restart_params() {
  static const ParamSection s{"checkpoint_restart",
                              "Restart the whole job from the last checkpoint after every job fault. "
                              "Uses /recovery and /checkpoint; no parameters of its own.",
                              {}};
  return s;
}

std::unique_ptr<Strategy> make_checkpoint_restart(const Scenario&, const Json&) {
  return std::make_unique<CheckpointRestart>();
}

}  // namespace goodput
