// The costs of one training step as it runs, per layer and per pipeline stage, on the busiest
// GPU of a TP group of degree t (uneven shards: ceil(heads / t), ceil(ffn / t)). Every term
// says where its number came from (Term::source): a profile measurement, the datasheet
// roofline of an analytical profile, or a stated assumption.
// Contract: layer_breakdown() and stage_breakdown() take GEMM times from the calibration
// profile (exact entry or its fit) and add what the profile does not measure:
//  - attention is causal and fused (a flash-style kernel: softmax inside it, masked tiles
//    skipped), priced by calib::attention_time: a measured fused (cuDNN SDPA) entry, else the
//    measured attention GEMM tiles, else the analytical profile's flash-attention efficiency
//    (causal FLOPs / (peak x efficiency), forward and backward), else half its dense GEMMs;
//  - memory-bound kernels, bytes read + written, priced by the profile's memory-kernel entries
//    where it has them (norm, activation, the loss softmax, Adam: calib::memory_kernel_time,
//    measured or datasheet) and at its copy bandwidth otherwise: per layer the
//    2 norms (read + write), 2 residual adds (2 reads + 1 write), rotary embedding of q and k
//    (read + write), the MLP activation (SwiGLU: 2 reads + 1 write of the local FFN slice; GeLU:
//    read + write) and, with /job/model/dropout, 2 dropouts (read + write + a 1-byte mask);
//    backward 2x; all but the activation and rotary split over t ranks with sequence
//    parallelism;
//  - TP collectives over the domain's fabric (ring, (t-1)/t of the bytes per GPU each way):
//    per layer 2 all-reduces of the activations forward and 2 backward, or with sequence
//    parallelism the same volume as reduce-scatter + all-gather pairs (the extra backward
//    all-gather of sequence parallelism overlaps the weight-gradient GEMMs and is not counted);
//  - recomputation: selective recomputes the attention core in backward, full the whole
//    layer's forward (its collectives too);
//  - the first stage's embedding lookup (vocabulary-parallel: a gather, then one TP collective
//    of the activations forward: an all-reduce, or a reduce-scatter with sequence parallelism,
//    whose backward all-gathers the gradient; backward a scatter-add into the table's gradient);
//  - the last stage's LM head (logits GEMM, fwd + bwd), the TP collective that gathers its
//    input (and scatters its gradient), and the softmax cross-entropy (read the logits, write
//    their gradient);
//  - the P2P send of one micro-batch's activations to the next stage over the scale-out
//    network, split over the t ranks (scatter/gather);
//  - per step: the DP gradient reduce-scatter + parameter all-gather (distributed optimizer,
//    bf16) over the scale-out network, of which dp_overlap hides behind the backward pass and
//    the next forward; gradient clipping (the global norm reads the fp32 gradient of the DP
//    shard, the scaling reads and writes it: 12 bytes per parameter of the shard); the Adam step
//    over the DP shard (28 bytes of HBM traffic per parameter, calib::kAdamBytesPerParam).
// Context parallelism (/job/cp): the shape is one CP rank's (seq_len / cp tokens per sequence);
// attention is cp x that shape's (1/cp of the whole sequence's), plus the ring exchange of K and
// V not hidden behind it; the DP sync and the optimizer's shard span dp x cp ranks.
// Stages hold whole layers: StepSetup::stage_layers (from /job/stage_layers or an even split).
// Compute terms scale with 1 / speed (power boost); communication terms do not.
// model_flops counts what MFU counts: 6 x params x tokens for the layers and the LM head plus
// causal attention (6 s^2 h per sequence per layer), no recomputation, per GPU.
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "models/scenario/scenario.hpp"
#include "models/scenario/stage_layers.hpp"

namespace goodput {

struct StepSetup {
  calib::ModelShape shape;
  double vocab = 0;
  std::vector<int> stage_layers;  // whole layers of each pipeline stage (pp entries)
  int tp = 1, pp = 1, dp = 1, cp = 1, microbatches = 1, virtual_stages = 1;
  Recompute recompute = Recompute::None;
  bool sequence_parallel = true;
  bool rotary = true, dropout = false;
  double nvlink_Bps = 0, scaleout_Bps = 0, hbm_Bps = 0;  // bytes per second per GPU
  double cp_Bps = 0;  // the CP ring's link: the domain's fabric if tp x cp fits it, else scale-out
  double dp_overlap = 0.9;
  double peak_flops = 0;  // the profile's GEMM ceiling (MFU denominator)
  // Where the figures above came from, for Term::source.
  std::string gemm_source, hbm_source, nvlink_source, scaleout_source, cp_source;
  double layers() const;
};
StepSetup step_setup(const Scenario& scenario, const calib::ModelShape& shape,
                     const calib::Profile& profile);

struct Term {
  std::string name;
  double fwd_s = 0, bwd_s = 0;
  std::string source;  // where the number came from
  bool comm = false;   // communication: does not scale with power
};

// One layer, one micro-batch, at speed 1.
struct LayerBreakdown {
  std::vector<Term> gemms;   // qkv, attn_out, mlp_up, mlp_down (bwd = bwd_data + bwd_weight)
  Term attention;            // causal
  std::vector<Term> memory;  // memory-bound kernels
  Term tp_comm;
  Term cp_comm;  // context parallelism's ring exchange, exposed part (zero without CP)
  double recompute_compute_s = 0, recompute_comm_s = 0;  // added to backward
  double model_flops = 0;                                // per GPU, fwd + bwd
  double compute_fwd_s() const;
  double compute_bwd_s() const;  // incl. recomputed compute
  double comm_fwd_s() const;
  double comm_bwd_s() const;  // incl. recomputed collectives
};
LayerBreakdown layer_breakdown(const StepSetup& setup, const calib::Profile& profile, int degree);

// One device of the pipeline (all its virtual stages), one micro-batch unless noted.
struct StageBreakdown {
  int degree = 0;
  int index = 0;  // pipeline position
  double layers = 0;
  LayerBreakdown layer;
  std::vector<Term> ends;  // embedding (first stage), LM head, its collective and loss (last)
  double head_flops = 0;
  double p2p_s = 0;  // one chunk's activations (or input gradients) to a neighbour
  std::string p2p_source;
  double params_per_gpu = 0;
  double dp_sync_s = 0;     // per step: gradient reduce-scatter + parameter all-gather
  double dp_exposed_s = 0;  // (1 - dp_overlap) x dp_sync_s
  double grad_clip_s = 0;   // per step
  double optimizer_s = 0;   // per step
  std::string dp_source, grad_clip_source, optimizer_source;
  double ends_s(bool comm, bool backward) const;  // the ends' communication or compute
  double compute_fwd_s() const { return layers * layer.compute_fwd_s() + ends_s(false, false); }
  double compute_bwd_s() const { return layers * layer.compute_bwd_s() + ends_s(false, true); }
  double comm_fwd_s() const { return layers * layer.comm_fwd_s() + ends_s(true, false); }
  double comm_bwd_s() const { return layers * layer.comm_bwd_s() + ends_s(true, true); }
  double tail_s() const { return dp_exposed_s + grad_clip_s + optimizer_s; }
  double model_flops() const { return layers * layer.model_flops + head_flops; }  // per micro-batch
  StageTimes times(double speed) const;
};
// Stage `index` (0 .. pp - 1) at TP degree `degree`. `layer` may be given (layer_breakdown at
// that degree) to skip recomputing it.
StageBreakdown stage_breakdown(const StepSetup& setup, const calib::Profile& profile, int degree,
                               int index, const LayerBreakdown* layer = nullptr);

// Model FLOPs per GPU per step of a healthy replica (the stages at TP degree setup.tp).
double step_model_flops_per_gpu(const StepSetup& setup, const std::vector<StageBreakdown>& stages);

}  // namespace goodput
