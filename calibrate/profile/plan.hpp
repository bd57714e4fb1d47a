// What one calibration run measures: the unique GEMM shapes, reshard kernels and memory-bound
// kernel sizes of a list of models over their TP ranges. Contract: make_plan() is
// deterministic; shapes that several TP degrees share (uneven shards often coincide) are
// measured once and list every degree; quick mode keeps only tp_max and tp_min and one reshard
// geometry per model (the memory-bound kernels are planned alike in both modes). The fused
// attention calls (forward and backward) follow the GEMMs' degrees. The harness
// and analytical_profile() both build their entries from this plan.
//
// Memory-bound kernels (memory_kernel_jobs): at t = tp_max and t = tp_min only, since their
// bandwidth changes slowly with size and the lookup interpolates between measured sizes (every
// degree in between asks for a size inside that range); tokens = micro_batch x seq_len:
//  - the norm (rmsnorm when the MLP is gated, as in Llama; layernorm otherwise, as in GPT):
//    ceil(tokens / t) x hidden, the sequence-parallel share, and at t = 1, tokens x hidden,
//    what every degree runs without sequence parallelism;
//  - the activation (swiglu when gated, gelu otherwise): tokens x ffn_local(t);
//  - with a layout: the loss softmax, tokens x ceil(vocab / t), and the Adam step over the
//    busiest stage's optimizer shard, ceil(stage_params / (t dp)) parameters, where
//    stage_params = ceil(layers / pp) layer_params + vocab hidden (the embedding or the LM head;
//    both when pp = 1).
// A size moving more than kMemoryKernelMaxBytes is measured with fewer rows (its bandwidth is
// flat there); the lookup clamps above the largest size measured.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct GemmJob {
  std::string model;
  std::vector<int> tp;
  GemmQuery query;
};

struct ReshardJob {
  int n1 = 0, n2 = 0;
  std::int64_t cols = 0, rows = 0;
  std::string kernel;  // pack | unpack | d2d
  std::string role;    // extra | core | any
  int rank = 0;        // the busiest rank of that role (for pack/unpack)
  std::int64_t bytes = 0;
};

struct MemoryKernelJob {
  std::string model;
  std::vector<int> tp;  // the degrees asking for this size (1: without sequence parallelism)
  MemoryKernel kernel = MemoryKernel::rmsnorm;
  std::int64_t rows = 0, cols = 0;
  std::int64_t bytes = 0;  // memory_kernel_bytes(kernel, rows, cols)
};

// One fused causal attention call (cuDNN SDPA where the harness was built with cuDNN), forward
// or backward, at every degree the GEMMs are planned at; degrees with the same local heads share
// one job.
struct AttentionJob {
  std::string model;
  std::vector<int> tp;
  AttentionQuery query;
};

struct CalibrationPlan {
  std::vector<GemmJob> gemm;
  std::vector<ReshardJob> reshard;
  std::vector<MemoryKernelJob> memory_kernels;
  std::vector<AttentionJob> attention;
};

// Largest traffic one memory-kernel job is planned with (read + written): 4 GiB, a few
// milliseconds on any current GPU and far beyond where a streaming kernel's bandwidth levels off.
inline constexpr std::int64_t kMemoryKernelMaxBytes = std::int64_t{4} << 30;

inline constexpr std::int64_t kGradElemBytes = 2;  // bf16 gradients

CalibrationPlan make_plan(const std::vector<ProfiledModel>& models, bool quick);

// A job's profile entry with what the plan says filled in (model, degrees, shape / geometry);
// the measurement (or the analytical estimate) fills the rest.
GemmEntry entry_of(const GemmJob& job);
ReshardEntry entry_of(const ReshardJob& job);
MemoryKernelEntry entry_of(const MemoryKernelJob& job);
AttentionEntry entry_of(const AttentionJob& job);

// The memory-bound kernel jobs of one model (see above), already merged by size.
std::vector<MemoryKernelJob> memory_kernel_jobs(const ProfiledModel& model);

// Parameters of the busiest pipeline stage's optimizer shard at TP degree t (see above).
std::int64_t adam_shard_params(const ModelShape& shape, const StepLayout& layout, int tp);

// The reshard matrices of one layer: (rows, cols) = (hidden, qkv columns) and
// (hidden, MLP up columns), the widest column-split weights.
std::vector<std::int64_t> reshard_matrix_cols(const ModelShape& shape);

}  // namespace goodput::calib
