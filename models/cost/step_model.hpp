// The costs of one training step as it runs, per layer and per pipeline stage, on the busiest
// GPU of a TP group of degree t (uneven shards: ceil(heads / t), ceil(ffn / t)).
// Contract: layer_breakdown() and stage_breakdown() take GEMM times from the calibration
// profile (exact entry or its fit) and add what the profile does not measure:
//  - attention is causal: half of the profile's full QK^T / PV (and backward) GEMM time;
//  - memory-bound element-wise work (2 norms, 2 residual adds, the MLP activation; backward 2x)
//    at the profile's copy bandwidth, split over t ranks with sequence parallelism;
//  - TP collectives over the domain's fabric (ring, (t-1)/t of the bytes per GPU each way):
//    per layer 2 all-reduces of the activations forward and 2 backward, or with sequence
//    parallelism the same volume as reduce-scatter + all-gather pairs (the extra backward
//    all-gather of sequence parallelism overlaps the weight-gradient GEMMs and is not counted);
//  - recomputation: selective recomputes the attention core in backward, full the whole
//    layer's forward (its collectives too);
//  - the LM head (logits GEMM, fwd + bwd) and the loss on the last stage;
//  - the P2P send of one micro-batch's activations to the next stage over the scale-out
//    network, split over the t ranks (scatter/gather);
//  - the DP gradient reduce-scatter + parameter all-gather (distributed optimizer, bf16) over
//    the scale-out network, of which dp_overlap hides behind the backward pass and the next
//    forward; and the optimizer step (Adam, its DP shard, 32 bytes of HBM traffic per parameter).
// Compute terms scale with 1 / speed (power boost); communication terms do not.
// model_flops counts what MFU counts: 6 x params x tokens for the layers and the LM head plus
// causal attention (6 s^2 h per sequence per layer), no recomputation, per GPU.
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "models/scenario/scenario.hpp"

namespace goodput {

struct StepSetup {
  calib::ModelShape shape;
  double layers = 1, vocab = 0;
  int tp = 1, pp = 1, dp = 1, microbatches = 1, virtual_stages = 1;
  Recompute recompute = Recompute::None;
  bool sequence_parallel = true;
  double nvlink_Bps = 0, scaleout_Bps = 0, hbm_Bps = 0;  // bytes per second per GPU
  double dp_overlap = 0.9;
  double peak_flops = 0;  // the profile's GEMM ceiling (MFU denominator)
};
StepSetup step_setup(const Scenario& scenario, const calib::ModelShape& shape,
                     const calib::Profile& profile);

struct Term {
  std::string name;
  double fwd_s = 0, bwd_s = 0;
};

// One layer, one micro-batch, at speed 1.
struct LayerBreakdown {
  std::vector<Term> gemms;  // qkv, attn_out, mlp_up, mlp_down (bwd = bwd_data + bwd_weight)
  Term attention;           // causal
  Term elementwise;
  Term tp_comm;
  double recompute_compute_s = 0, recompute_comm_s = 0;  // added to backward
  double model_flops = 0;                                // per GPU, fwd + bwd
  double compute_fwd_s() const;
  double compute_bwd_s() const;  // incl. recomputed compute
  double comm_fwd_s() const { return tp_comm.fwd_s; }
  double comm_bwd_s() const { return tp_comm.bwd_s + recompute_comm_s; }
};
LayerBreakdown layer_breakdown(const StepSetup& setup, const calib::Profile& profile, int degree);

// One device of the pipeline (all its virtual stages), one micro-batch unless noted.
struct StageBreakdown {
  int degree = 0;
  double layers = 0;
  LayerBreakdown layer;
  Term head;  // LM head + loss (last stage only)
  double head_flops = 0;
  double p2p_s = 0;  // one chunk's activations (or input gradients) to a neighbour
  double params_per_gpu = 0;
  double dp_sync_s = 0;     // per step: gradient reduce-scatter + parameter all-gather
  double dp_exposed_s = 0;  // (1 - dp_overlap) x dp_sync_s
  double optimizer_s = 0;   // per step
  double compute_fwd_s() const { return layers * layer.compute_fwd_s() + head.fwd_s; }
  double compute_bwd_s() const { return layers * layer.compute_bwd_s() + head.bwd_s; }
  double comm_fwd_s() const { return layers * layer.comm_fwd_s(); }
  double comm_bwd_s() const { return layers * layer.comm_bwd_s(); }
  double model_flops() const { return layers * layer.model_flops + head_flops; }  // per micro-batch
  StageTimes times(double speed) const;
};
StageBreakdown stage_breakdown(const StepSetup& setup, const calib::Profile& profile, int degree,
                               bool last_stage);

// Model FLOPs per GPU per step of a healthy replica (pp - 1 stages like `mid`, one like `last`).
double step_model_flops_per_gpu(const StepSetup& setup, const StageBreakdown& mid,
                                const StageBreakdown& last);

}  // namespace goodput
