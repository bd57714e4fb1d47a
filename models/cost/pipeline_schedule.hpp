// Pipeline schedules as an exact dependency computation (not a closed form).
// Contract: pipeline_step_s() lays out one training step of a replica as the ops each device
// (pipeline stage) runs in its schedule's fixed order — 1F1B when virtual_stages is 1, Megatron's
// interleaved 1F1B otherwise (micro-batches in groups of pp, chunk c of device s is virtual
// stage c * pp + s) — and starts every op when its device is free and its input has arrived:
// the previous virtual stage's forward of that micro-batch (or the next one's backward) plus
// the sending stage's P2P time. A stage's tail (exposed gradient sync, optimizer) follows its
// last op; the step ends when the last stage's tail ends. Each stage's forward/backward time
// is for one full micro-batch through all of its layers (all v chunks); a chunk takes 1/v of
// it. `last_fraction` < 1 shortens the last micro-batch (fewer tokens; its ops scale by it).
// Closed forms it reproduces with equal stages, no P2P and no tails: (m + pp - 1)(f + b) for
// 1F1B and m (f + b) + (pp - 1)(f + b) / v interleaved (m a multiple of pp). Deterministic;
// throws std::invalid_argument for an empty or inconsistent spec, or one above kMaxScheduleOps
// (the cost model refuses such a scenario first, naming its /job keys).
#pragma once

#include <cstddef>
#include <vector>

namespace goodput {

// The ops one evaluation lays out: a forward and a backward per micro-batch, chunk and stage.
inline double schedule_ops(std::size_t pp, int microbatches, int virtual_stages) {
  return 2.0 * static_cast<double>(pp) * microbatches * virtual_stages;
}
// The most ops one evaluation may take (about 25 MB of buffers and 10-20 ms); a cost model
// evaluates the schedule some tens of times per degraded replica shape and per boost degree
// (README "Work budget").
inline constexpr double kMaxScheduleOps = 1e6;

struct StageTimes {
  double fwd_s = 0, bwd_s = 0;          // one micro-batch through the whole stage
  double p2p_fwd_s = 0, p2p_bwd_s = 0;  // sending one chunk's activations / input gradients
  double tail_s = 0;                    // after the stage's last backward
};

struct PipelineSpec {
  int microbatches = 1;
  int virtual_stages = 1;
  double last_fraction = 1.0;      // (0, 1]
  std::vector<StageTimes> stages;  // one per device, in pipeline order
};

double pipeline_step_s(const PipelineSpec& spec);

}  // namespace goodput
