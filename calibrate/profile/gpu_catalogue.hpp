// The GPU catalogue: the one declared table of the GPU types goodput knows, each figure with the
// datasheet it comes from. Everything that needs a GPU's hardware figures reads them here: the
// analytical profiles (peaks, SMs, memory), the scenario's power defaults
// (/cluster/gpu_nominal_power_w, gpu_max_power_w) and the step model's NVLink bandwidth. A
// scenario names an entry in /cluster/gpu or describes its own GPU with the same keys in
// /cluster/gpu_spec; `goodput describe hardware` prints the table.
// Conventions: FLOP/s are dense (no 2:4 sparsity), per GPU; GB are 1e9 bytes; nvlink_gbps is one
// direction per GPU (half the datasheet's bidirectional "NVLink bandwidth per GPU"), as the step
// model's ring collectives use it. Standard library only (calibrate/ builds standalone).
#pragma once

#include <string>
#include <vector>

namespace goodput::calib {

struct GpuSpec {
  std::string name;     // the key /cluster/gpu names: "H100", "A100-80GB", ...
  std::string product;  // "NVIDIA H100 SXM5" (profiles name their device "<product> (datasheet)")
  double bf16_dense_tflops = 0;
  double fp8_dense_tflops = 0;    // 0: no FP8 tensor cores (A100)
  double hbm_bandwidth_gbps = 0;  // GB/s
  double hbm_capacity_gb = 0;     // GB
  double nvlink_gbps = 0;         // GB/s per GPU, one direction
  int sm_count = 0;               // 0: not known
  std::string compute_capability;
  double nominal_power_w = 0;  // TDP of the configuration the figures assume (0: none declared)
  double max_power_w = 0;      // rated maximum board power (0: none declared)
  // Flash attention (causal, BF16, fused softmax): the share of bf16_dense_tflops it reaches,
  // forward and backward, in goodput's FLOP count (calib::attention_flops: forward 2 s^2 d per
  // head causal, backward twice the forward; FlashAttention's benchmarks count the backward as
  // 2.5x the forward, so a published backward figure is scaled by 2 / 2.5). 0: none declared
  // (the analytical profile then prices attention as GEMMs on its efficiency curve).
  double attention_fwd_efficiency = 0;
  double attention_bwd_efficiency = 0;
  // Sources, one per figure group: peaks (BF16, HBM bandwidth: what the analytical profile uses,
  // written into it as its datasheet citation), spec (FP8, HBM capacity, SMs, compute
  // capability), NVLink, power, attention (the flash-attention efficiencies).
  std::string peaks_source, spec_source, nvlink_source, power_source, attention_source;
  std::string cuda_name;  // a CUDA device name containing this is this GPU ("" for none)

  std::string product_or_name() const { return product.empty() ? name : product; }
  bool operator==(const GpuSpec&) const = default;
};

// The catalogue, in generation order (A100-80GB, H100, H200, B200, GB200).
const std::vector<GpuSpec>& gpu_catalogue();
// The entry named `name` (exact); null when the catalogue lacks it.
const GpuSpec* find_gpu(const std::string& name);
// The entries' names.
std::vector<std::string> gpu_names();
// "A100-80GB, H100, H200, B200, GB200".
std::string gpu_names_text();
// The entry whose cuda_name a CUDA device name contains (the longest such), or null.
const GpuSpec* gpu_of_device_name(const std::string& device_name);

}  // namespace goodput::calib
