// The GPU catalogue's entries (see gpu_catalogue.hpp for the conventions). The peaks and power
// sources of H100, H200, B200 and GB200 are the citations the shipped analytical profiles and
// power defaults have carried since they were first written; changing a peaks_source changes that
// GPU's analytical profile (and its hash).
#include "calibrate/profile/gpu_catalogue.hpp"

namespace goodput::calib {

namespace {

std::vector<GpuSpec> make_catalogue() {
  std::vector<GpuSpec> c;
  GpuSpec& a100 = c.emplace_back();
  a100.name = "A100-80GB";
  a100.product = "NVIDIA A100 SXM4 80GB";
  a100.bf16_dense_tflops = 312;
  a100.fp8_dense_tflops = 0;
  a100.hbm_bandwidth_gbps = 2039;
  a100.hbm_capacity_gb = 80;
  a100.nvlink_gbps = 300;
  a100.sm_count = 108;
  a100.compute_capability = "8.0";
  a100.nominal_power_w = 400;
  a100.max_power_w = 400;
  a100.peaks_source =
      "NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM: BF16 312 TFLOP/s dense (624 "
      "sparse), HBM2e 2,039 GB/s";
  a100.spec_source =
      "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e, no FP8 tensor cores (FP8 came with "
      "Hopper: fp8_dense_tflops 0); NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs, "
      "compute capability 8.0";
  a100.nvlink_source =
      "NVIDIA A100 Tensor Core GPU datasheet: third-generation NVLink, 600 GB/s per GPU (both "
      "directions), 300 GB/s each way";
  a100.power_source =
      "NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM: max thermal design power 400 W; no "
      "boost headroom";
  a100.attention_fwd_efficiency = 0.73;
  a100.attention_bwd_efficiency = 0.504;
  a100.attention_source =
      "FlashAttention-2 (Dao, arXiv 2307.08691), Section 4.1 and Figures 4-6: A100 80GB SXM4, "
      "BF16/FP16, head dim 64 and 128, seq 512-16k, with and without causal mask: forward up to "
      "230 TFLOP/s, 73% of the 312 peak; backward up to 63% in the paper's FLOP count (2.5x the "
      "forward), 0.63 x 2 / 2.5 = 0.504 in goodput's (2x). These are the paper's best settings, "
      "not its causal head-dim-128 bars (not read off here), so causal A100 attention may run "
      "slower";
  a100.cuda_name = "A100-SXM4-80GB";

  GpuSpec& h100 = c.emplace_back();
  h100.name = "H100";
  h100.product = "NVIDIA H100 SXM5";
  h100.bf16_dense_tflops = 989;
  h100.fp8_dense_tflops = 1979;
  h100.hbm_bandwidth_gbps = 3350;
  h100.hbm_capacity_gb = 80;
  h100.nvlink_gbps = 450;
  h100.sm_count = 132;
  h100.compute_capability = "9.0";
  h100.nominal_power_w = 700;
  h100.max_power_w = 700;
  h100.peaks_source =
      "NVIDIA H100 Tensor Core GPU datasheet: BF16 989 TFLOP/s dense (1979 sparse), HBM3 3.35 TB/s";
  h100.spec_source =
      "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: FP8 1,979 TFLOP/s dense (3,958 sparse), "
      "80 GB HBM3; NVIDIA H100 Tensor Core GPU Architecture whitepaper: 132 SMs (SXM5), compute "
      "capability 9.0";
  h100.nvlink_source =
      "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: fourth-generation NVLink, 900 GB/s per GPU "
      "(both directions), 450 GB/s each way";
  h100.power_source =
      "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: max thermal design power up to 700 W "
      "(configurable); the SXM board is rated no higher, so no boost headroom";
  h100.attention_fwd_efficiency = 0.609;
  h100.attention_bwd_efficiency = 0.452;
  h100.attention_source =
      "FlashAttention-3 (Shah et al., arXiv 2407.08608), H100 80GB SXM5, BF16, head dim 128, "
      "seq 8k: forward with causal mask 602 TFLOP/s (Figure 5; 616 at 16k), 602 / 989 = 0.609; "
      "backward 559 TFLOP/s (Figure 6, without causal mask: the paper shows no causal backward) "
      "in the paper's FLOP count (2.5x the forward), 559 x 2 / 2.5 / 989 = 0.452 in goodput's "
      "(2x)";
  h100.cuda_name = "H100";

  GpuSpec& h200 = c.emplace_back();
  h200.name = "H200";
  h200.product = "NVIDIA H200 SXM";
  h200.bf16_dense_tflops = 989;
  h200.fp8_dense_tflops = 1979;
  h200.hbm_bandwidth_gbps = 4800;
  h200.hbm_capacity_gb = 141;
  h200.nvlink_gbps = 450;
  h200.sm_count = 132;
  h200.compute_capability = "9.0";
  h200.nominal_power_w = 700;
  h200.max_power_w = 700;
  h200.peaks_source =
      "NVIDIA H200 Tensor Core GPU datasheet: BF16 989 TFLOP/s dense (1979 sparse), HBM3e 4.8 "
      "TB/s";
  h200.spec_source =
      "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM: FP8 1,979 TFLOP/s dense (3,958 sparse), "
      "141 GB HBM3e; the H100's GH100 GPU: 132 SMs, compute capability 9.0";
  h200.nvlink_source =
      "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM: NVLink 900 GB/s per GPU (both "
      "directions), 450 GB/s each way";
  h200.power_source =
      "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM: max thermal design power up to 700 W "
      "(configurable); no boost headroom";
  h200.attention_fwd_efficiency = 0.609;
  h200.attention_bwd_efficiency = 0.452;
  h200.attention_source =
      "assumption: the H100's FlashAttention-3 figures (arXiv 2407.08608, Figures 5-6, head dim "
      "128, seq 8k: forward causal 0.609, backward 0.452 of 989 TFLOP/s in goodput's FLOP count): "
      "the H200 has the same GH100 tensor cores and clocks, and flash attention is compute-bound "
      "at these sizes, so its faster HBM3e does not move it";
  h200.cuda_name = "H200";

  GpuSpec& b200 = c.emplace_back();
  b200.name = "B200";
  b200.product = "NVIDIA B200 HGX 1000 W";
  b200.bf16_dense_tflops = 2250;
  b200.fp8_dense_tflops = 4500;
  b200.hbm_bandwidth_gbps = 8000;
  b200.hbm_capacity_gb = 180;
  b200.nvlink_gbps = 900;
  b200.sm_count = 148;
  b200.compute_capability = "10.0";
  b200.nominal_power_w = 1000;
  b200.max_power_w = 1200;
  b200.peaks_source =
      "NVIDIA HGX/DGX B200 datasheets: BF16 2.25 PFLOP/s dense (4.5 sparse), HBM3e 8 TB/s";
  b200.spec_source =
      "NVIDIA HGX B200 datasheet, per 8 GPUs: FP8 72 PFLOP/s sparse (4.5 dense per GPU), 1.44 TB "
      "HBM3e (180 GB per GPU); Blackwell B200: 148 SMs, compute capability 10.0";
  b200.nvlink_source =
      "NVIDIA HGX B200 datasheet: fifth-generation NVLink, 1.8 TB/s per GPU (both directions), "
      "900 GB/s each way";
  b200.power_source =
      "nominal: NVIDIA HGX B200 / DGX B200 datasheets, 1000 W per GPU (the configuration of "
      "calibrate/profiles/b200-analytical.json); maximum: the same Blackwell B200 GPU is rated "
      "and configured at up to 1200 W in GB200 NVL72 (NVIDIA GB200 NVL72 datasheet), so a "
      "rack-scale tray built for it has 1.2x headroom (an HGX baseboard does not: set "
      "/cluster/gpu_max_power_w to 1000)";
  b200.attention_fwd_efficiency = 0.717;
  b200.attention_bwd_efficiency = 0.532;
  b200.attention_source =
      "forward: FlashAttention-4 (arXiv 2603.05451), abstract: B200, BF16, up to "
      "1613 TFLOP/s (71% utilization), 1613 / 2250 = 0.717 (its best setting; the paper's "
      "per-shape causal figures are not read off here); backward: assumption, no citable B200 "
      "figure found: the forward times the H100's backward/forward ratio under FlashAttention-3 "
      "(0.452 / 0.609, arXiv 2407.08608 Figures 5-6), 0.717 x 0.742 = 0.532";
  b200.cuda_name = "B200";

  GpuSpec& gb200 = c.emplace_back();
  gb200.name = "GB200";
  gb200.product = "NVIDIA GB200 NVL72";
  gb200.bf16_dense_tflops = 2500;
  gb200.fp8_dense_tflops = 5000;
  gb200.hbm_bandwidth_gbps = 8000;
  gb200.hbm_capacity_gb = 186;
  gb200.nvlink_gbps = 900;
  gb200.sm_count = 148;
  gb200.compute_capability = "10.0";
  gb200.nominal_power_w = 1200;
  gb200.max_power_w = 1200;
  gb200.peaks_source =
      "NVIDIA GB200 NVL72 datasheet: per GB200 superchip (2 GPUs) BF16 10 PFLOP/s sparse = 5 "
      "dense, HBM3e 372 GB, 16 TB/s; per GPU 2.5 PFLOP/s dense, 186 GB, 8 TB/s";
  gb200.spec_source =
      "NVIDIA GB200 NVL72 datasheet, per superchip (2 GPUs): FP8 20 PFLOP/s sparse (5 dense per "
      "GPU), 372 GB HBM3e (186 GB per GPU); Blackwell B200: 148 SMs, compute capability 10.0";
  gb200.nvlink_source =
      "NVIDIA GB200 NVL72 datasheet: fifth-generation NVLink, 1.8 TB/s per GPU (both "
      "directions), 900 GB/s each way, all 72 GPUs in one domain";
  gb200.power_source =
      "NVIDIA GB200 NVL72 datasheet: each B200 GPU of a GB200 superchip configured at 1200 W, "
      "its rated maximum; no boost headroom";
  gb200.attention_fwd_efficiency = 0.717;
  gb200.attention_bwd_efficiency = 0.532;
  gb200.attention_source =
      "assumption: the B200's figures (forward 0.717 from FlashAttention-4, arXiv 2603.05451, "
      "1613 TFLOP/s of 2250 on B200 BF16; backward 0.532 by the H100's FlashAttention-3 "
      "backward/forward ratio), taken as shares of the GB200's own 2500 TFLOP/s peak: the same "
      "Blackwell GPU at a higher power limit";
  gb200.cuda_name = "GB200";
  return c;
}

}  // namespace

const std::vector<GpuSpec>& gpu_catalogue() {
  static const std::vector<GpuSpec> catalogue = make_catalogue();
  return catalogue;
}

const GpuSpec* find_gpu(const std::string& name) {
  for (const GpuSpec& g : gpu_catalogue())
    if (g.name == name) return &g;
  return nullptr;
}

std::vector<std::string> gpu_names() {
  std::vector<std::string> out;
  for (const GpuSpec& g : gpu_catalogue()) out.push_back(g.name);
  return out;
}

std::string gpu_names_text() {
  std::string out;
  for (const GpuSpec& g : gpu_catalogue()) out += (out.empty() ? "" : ", ") + g.name;
  return out;
}

const GpuSpec* gpu_of_device_name(const std::string& device_name) {
  const GpuSpec* best = nullptr;
  for (const GpuSpec& g : gpu_catalogue())
    if (!g.cuda_name.empty() && device_name.find(g.cuda_name) != std::string::npos &&
        (!best || g.cuda_name.size() > best->cuda_name.size()))
      best = &g;
  return best;
}

}  // namespace goodput::calib
