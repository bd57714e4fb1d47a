// Analytical (datasheet) profiles from the GPU catalogue's figures (gpu_catalogue.cpp, with
// their sources): dense BF16 peak, HBM bandwidth, SMs, memory, compute capability.
// Efficiency: e_max * d / (d + d_half) in the smallest GEMM dimension d, floored by HBM
// traffic at hbm_efficiency of peak bandwidth, plus a fixed launch overhead. Copies (reshard)
// and the memory-bound kernels: their bytes at hbm_efficiency of peak, plus the launch.
// Causal flash attention (/attention): attention_flops / (peak x the GPU's flash-attention
// efficiency, forward or backward), no launch term, where the GPU declares them; the /gemm
// attention entries stay on the GEMM curve (dense QK^T / PV, as cuBLAS GEMMs would run them).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"

namespace goodput::calib {
namespace {

constexpr double kEMax = 0.80;     // large bf16 GEMMs reach ~75-80% of datasheet peak
constexpr double kDHalf = 64.0;    // efficiency halves when the smallest dim is 64
constexpr double kLaunchS = 4e-6;  // kernel launch + tail
constexpr double kHbmEfficiency = kDatasheetCopyEfficiency;  // achievable share of HBM peak

const GpuSpec& catalogue_entry(const std::string& gpu) {
  if (const GpuSpec* g = find_gpu(gpu)) return *g;
  throw std::invalid_argument("unknown GPU \"" + gpu + "\" (valid: " + gpu_names_text() + ")");
}

TimeStats exact_time(double t) {
  return TimeStats{t, t, t, t, 0.0, 0.0, 0, "analytical"};
}

}  // namespace

Profile analytical_profile(const GpuSpec& ds, const std::vector<ProfiledModel>& models) {
  if (!(ds.bf16_dense_tflops > 0) || !(ds.hbm_bandwidth_gbps > 0))
    throw std::invalid_argument("GPU \"" + ds.name + "\" needs a BF16 peak and an HBM bandwidth");
  const double peak = ds.bf16_dense_tflops * 1e12;
  const double hbm = ds.hbm_bandwidth_gbps * 1e9 * kHbmEfficiency;
  Profile p;
  p.source = Source::analytical;
  p.generator = std::string("goodput-profile-analytical ") + kCalibrationVersion;
  p.device.name = ds.product_or_name() + " (datasheet)";
  p.device.sm_count = ds.sm_count;
  p.device.memory_bytes = static_cast<std::int64_t>(std::llround(ds.hbm_capacity_gb * 1e9));
  p.device.compute_capability = ds.compute_capability;
  p.device.clocks.observed_via = "datasheet";
  p.settings.gemm_impl = "analytical";
  p.settings.attention_impl = "analytical";
  const bool flash = ds.attention_fwd_efficiency > 0 && ds.attention_bwd_efficiency > 0;
  p.settings.attention_scope =
      std::string(flash ? "attention: fused causal flash attention at the datasheet BF16 peak x "
                          "its efficiency (settings.analytical_model.flash_attention); "
                        : "attention: no flash-attention efficiency declared for this GPU, so "
                          "priced as the GEMMs below, half of them (causal); ") +
      "gemm attention entries: QK^T and PV GEMMs (fwd), their four backward GEMMs (bwd_data), "
      "dense, on the GEMM curve";
  p.settings.analytical_model =
      AnalyticalSettings{ds.name, ds.peaks_source, kEMax, kDHalf, kLaunchS, kHbmEfficiency, {}};
  if (flash)
    p.settings.analytical_model->flash_attention = FlashAttentionModel{
        ds.attention_fwd_efficiency, ds.attention_bwd_efficiency, ds.attention_source};
  p.models = models;
  p.ceilings = Ceilings{"datasheet", ds.bf16_dense_tflops, ds.hbm_bandwidth_gbps, 0, 0, 0, 0};

  const CalibrationPlan plan = make_plan(models, /*quick=*/false);
  for (const GemmJob& job : plan.gemm) {
    const GemmQuery& q = job.query;
    const double flops = gemm_flops(q);
    const double calls = flops / (2.0 * double(q.m) * double(q.n) * double(q.k) * double(q.batch));
    const double bytes = gemm_bytes(q);
    const auto d = static_cast<double>(smallest_dim(q.m, q.n, q.k));
    const double eff = kEMax * d / (d + kDHalf);
    const double t = kLaunchS * calls + std::max(flops / (peak * eff), bytes / hbm);
    GemmEntry e = entry_of(job);
    e.time_s = exact_time(t);
    e.tflops = flops / t / 1e12;
    e.fraction_of_ceiling = e.tflops / ds.bf16_dense_tflops;
    e.algo = "analytical";
    e.verification = Verification::not_applicable;
    p.gemm.push_back(e);
  }
  for (const ReshardJob& job : plan.reshard) {
    const double t = kLaunchS + 2.0 * double(job.bytes) / hbm;
    ReshardEntry e = entry_of(job);
    e.time_s = exact_time(t);
    e.gbps = 2.0 * double(job.bytes) / t / 1e9;
    e.fraction_of_ceiling = e.gbps / ds.hbm_bandwidth_gbps;
    e.verification = Verification::not_applicable;
    p.reshard.push_back(e);
  }
  // Memory-bound kernels: their bytes at the copy ceiling's share of the HBM peak, plus a launch.
  for (const MemoryKernelJob& job : plan.memory_kernels) {
    const double t = kLaunchS + double(job.bytes) / hbm;
    MemoryKernelEntry e = entry_of(job);
    e.time_s = exact_time(t);
    e.gbps = double(job.bytes) / t / 1e9;
    e.fraction_of_ceiling = e.gbps / ds.hbm_bandwidth_gbps;
    e.verification = Verification::not_applicable;
    p.memory_kernels.push_back(e);
  }
  if (flash) {
    for (const AttentionJob& job : plan.attention) {
      const double flops = attention_flops(job.query);
      const double eff =
          job.query.pass == Pass::fwd ? ds.attention_fwd_efficiency : ds.attention_bwd_efficiency;
      const double t = flops / (peak * eff);
      AttentionEntry e = entry_of(job);
      e.impl = "analytical";
      e.time_s = exact_time(t);
      e.tflops = flops / t / 1e12;
      e.fraction_of_ceiling = e.tflops / ds.bf16_dense_tflops;
      e.engine = "analytical";
      e.verification = Verification::not_applicable;
      p.attention.push_back(e);
    }
  }
  p.fit = fit_report(p);
  refit(p);
  return p;
}

Profile analytical_profile(const std::string& gpu, const std::vector<ProfiledModel>& models) {
  return analytical_profile(catalogue_entry(gpu), models);
}

Profile analytical_profile(const GpuSpec& gpu, const ModelShape& shape, int tp_max, int tp_min) {
  ProfiledModel m;
  m.shape = shape;
  m.tp_max = tp_max;
  m.tp_min = tp_min;
  if (tp_min < 1 || tp_min > tp_max) throw std::invalid_argument("need 1 <= tp_min <= tp_max");
  validate(shape);
  return analytical_profile(gpu, std::vector<ProfiledModel>{m});
}

Profile analytical_profile(const std::string& gpu, const ModelShape& shape, int tp_max,
                           int tp_min) {
  return analytical_profile(catalogue_entry(gpu), shape, tp_max, tp_min);
}

}  // namespace goodput::calib
