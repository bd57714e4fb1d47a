// peer_memory: checkpoints to a peer node's CPU memory (in the style of Gemini, SOSP 2023) —
// cheap, frequent snapshots instead of storage checkpoints. A fault that hits the job rolls it
// back to the last snapshot held in peer memory; the replacement hardware (an idle GPU of the
// domain, else a spare domain: spare swap-in) gets its state from that peer (state copy), the
// communicators are rebuilt, and the job goes on without a storage load or a job restart.
// With no spare in scope the whole job restarts, restoring from peer memory as well.
// Its save costs (save_s, blocking) replace /checkpoint's, so an adaptive interval policy puts
// it at its own, much shorter, optimum. Not modelled: losing a snapshot and its peer copy at
// once (both would then come from storage).
// The worked example of ARCHITECTURE.md "add a strategy": this file plus a table row.
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

namespace {

class PeerMemory final : public JobController {
 protected:
  void react(const FaultImpact&, std::span<const std::uint32_t> hit_domains) override {
    const Step copy = pay(Mechanism::StateCopy), rebuild = pay(Mechanism::CommunicatorRebuild);
    if (layout_full()) return recover({copy, rebuild}, /*rollback=*/true);  // in-domain refill
    ctx().layout->retarget(job_groups(), {});
    if (layout_full())
      recover({pay(Mechanism::SpareSwapIn), copy, rebuild}, /*rollback=*/true);
    else
      recover_by_restart(hit_domains);
  }
  // A whole-job restart restores from peer memory, not storage.
  Step restore_step() const override { return pay(Mechanism::StateCopy); }
};

struct PeerMemoryParams {
  double save_s = 5;
};

const BoundSection<PeerMemoryParams>& peer_memory_fields() {
  static const BoundSection<PeerMemoryParams> s{
      "peer_memory",
      "Checkpoint to a peer's CPU memory; on a fault roll back to it and swap a spare in.",
      {
          field::number(&PeerMemoryParams::save_s, "save_s", "s", 0, param::kInf,
                        "training pause of one snapshot (GPU to host memory, then to the peer in "
                        "the background); replaces /checkpoint/save_s for this strategy"),
      }};
  return s;
}

CheckpointSpec peer_memory_checkpoint_costs(const Scenario& scenario, const Json& params) {
  CheckpointSpec c = scenario.checkpoint;
  c.save_s = peer_memory_fields().read(params).save_s;
  c.async = false;
  return c;
}

// Steady state: like hot_spares with checkpoint_restart as the fallback.
Phase snapshot_peer_memory(const SnapshotInput& in) {
  return find_strategy("checkpoint_restart")->snapshot(in);
}

std::unique_ptr<Strategy> make_peer_memory(const Scenario&, const Json&) {
  return std::make_unique<PeerMemory>();
}

}  // namespace

StrategyInfo strategy_entry_peer_memory() {
  return {"peer_memory",
          "checkpoint to a peer's memory; roll back to it and swap a spare in",
          &peer_memory_fields().section(),
          &make_peer_memory,
          &snapshot_peer_memory,
          &peer_memory_checkpoint_costs};
}

}  // namespace goodput
