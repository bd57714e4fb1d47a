// Analytical (datasheet) profiles. Peaks are dense (no 2:4 sparsity) BF16 tensor-core
// throughput and HBM bandwidth from NVIDIA's datasheets:
//   H100 SXM5: 989 TFLOP/s, 3.35 TB/s, 132 SMs, 80 GB   (NVIDIA H100 Tensor Core GPU datasheet)
//   H200 SXM:  989 TFLOP/s, 4.8 TB/s, 132 SMs, 141 GB   (NVIDIA H200 Tensor Core GPU datasheet)
//   B200 (HGX, 1000 W): 2250 TFLOP/s, 8 TB/s, 148 SMs, 180 GB usable
//                       (NVIDIA HGX/DGX B200 datasheets: 4.5 PFLOP/s BF16 with sparsity)
//   GB200 (NVL72, 1200 W): 2500 TFLOP/s, 8 TB/s, 148 SMs, 186 GB
//                       (NVIDIA GB200 NVL72 datasheet, per superchip of 2 GPUs: 10 PFLOP/s
//                       BF16 with sparsity = 5 dense, HBM3e 372 GB at 16 TB/s)
// Efficiency: e_max * d / (d + d_half) in the smallest GEMM dimension d, floored by HBM
// traffic at hbm_efficiency of peak bandwidth, plus a fixed launch overhead. Copies (reshard)
// and the memory-bound kernels: their bytes at hbm_efficiency of peak, plus the launch.
#include <algorithm>
#include <stdexcept>

#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"

namespace goodput::calib {
namespace {

struct Datasheet {
  const char* gpu;
  const char* name;
  const char* citation;
  double peak_tflops;
  double hbm_gbps;
  int sms;
  std::int64_t memory_bytes;
  const char* cc;
};

constexpr Datasheet kDatasheets[] = {
    {"H100", "NVIDIA H100 SXM5 (datasheet)",
     "NVIDIA H100 Tensor Core GPU datasheet: BF16 989 TFLOP/s dense (1979 sparse), HBM3 3.35 TB/s",
     989.0, 3350.0, 132, 80'000'000'000, "9.0"},
    {"H200", "NVIDIA H200 SXM (datasheet)",
     "NVIDIA H200 Tensor Core GPU datasheet: BF16 989 TFLOP/s dense (1979 sparse), HBM3e 4.8 TB/s",
     989.0, 4800.0, 132, 141'000'000'000, "9.0"},
    {"B200", "NVIDIA B200 HGX 1000 W (datasheet)",
     "NVIDIA HGX/DGX B200 datasheets: BF16 2.25 PFLOP/s dense (4.5 sparse), HBM3e 8 TB/s", 2250.0,
     8000.0, 148, 180'000'000'000, "10.0"},
    {"GB200", "NVIDIA GB200 NVL72 (datasheet)",
     "NVIDIA GB200 NVL72 datasheet: per GB200 superchip (2 GPUs) BF16 10 PFLOP/s sparse = 5 dense, "
     "HBM3e 372 GB, 16 TB/s; per GPU 2.5 PFLOP/s dense, 186 GB, 8 TB/s",
     2500.0, 8000.0, 148, 186'000'000'000, "10.0"},
};

constexpr double kEMax = 0.80;           // large bf16 GEMMs reach ~75-80% of datasheet peak
constexpr double kDHalf = 64.0;          // efficiency halves when the smallest dim is 64
constexpr double kLaunchS = 4e-6;        // kernel launch + tail
constexpr double kHbmEfficiency = 0.80;  // achievable fraction of HBM peak for copies

const Datasheet& datasheet(const std::string& gpu) {
  for (const Datasheet& d : kDatasheets) {
    if (gpu == d.gpu) return d;
  }
  throw std::invalid_argument("unknown GPU \"" + gpu + "\" (valid: H100, H200, B200, GB200)");
}

TimeStats exact_time(double t) {
  return TimeStats{t, t, t, t, 0.0, 0.0, 0, "analytical"};
}

}  // namespace

Profile analytical_profile(const std::string& gpu, const std::vector<ProfiledModel>& models) {
  const Datasheet& ds = datasheet(gpu);
  const double peak = ds.peak_tflops * 1e12;
  const double hbm = ds.hbm_gbps * 1e9 * kHbmEfficiency;
  Profile p;
  p.source = Source::analytical;
  p.generator = std::string("goodput-profile-analytical ") + kCalibrationVersion;
  p.device.name = ds.name;
  p.device.sm_count = ds.sms;
  p.device.memory_bytes = ds.memory_bytes;
  p.device.compute_capability = ds.cc;
  p.device.clocks.observed_via = "datasheet";
  p.settings.gemm_impl = "analytical";
  p.settings.attention_impl = "analytical";
  p.settings.attention_scope = "QK^T and PV GEMMs (fwd), their four backward GEMMs (bwd_data)";
  p.settings.analytical_model =
      AnalyticalSettings{ds.gpu, ds.citation, kEMax, kDHalf, kLaunchS, kHbmEfficiency};
  p.models = models;
  p.ceilings = Ceilings{"datasheet", ds.peak_tflops, ds.hbm_gbps, 0, 0, 0, 0};

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
    e.fraction_of_ceiling = e.tflops / ds.peak_tflops;
    e.algo = "analytical";
    e.verification = Verification::not_applicable;
    p.gemm.push_back(e);
  }
  for (const ReshardJob& job : plan.reshard) {
    const double t = kLaunchS + 2.0 * double(job.bytes) / hbm;
    ReshardEntry e = entry_of(job);
    e.time_s = exact_time(t);
    e.gbps = 2.0 * double(job.bytes) / t / 1e9;
    e.fraction_of_ceiling = e.gbps / ds.hbm_gbps;
    e.verification = Verification::not_applicable;
    p.reshard.push_back(e);
  }
  // Memory-bound kernels: their bytes at the copy ceiling's share of the HBM peak, plus a launch.
  for (const MemoryKernelJob& job : plan.memory_kernels) {
    const double t = kLaunchS + double(job.bytes) / hbm;
    MemoryKernelEntry e = entry_of(job);
    e.time_s = exact_time(t);
    e.gbps = double(job.bytes) / t / 1e9;
    e.fraction_of_ceiling = e.gbps / ds.hbm_gbps;
    e.verification = Verification::not_applicable;
    p.memory_kernels.push_back(e);
  }
  p.fit = fit_report(p);
  refit(p);
  return p;
}

Profile analytical_profile(const std::string& gpu, const ModelShape& shape, int tp_max,
                           int tp_min) {
  ProfiledModel m;
  m.shape = shape;
  m.tp_max = tp_max;
  m.tp_min = tp_min;
  if (tp_min < 1 || tp_min > tp_max) throw std::invalid_argument("need 1 <= tp_min <= tp_max");
  validate(shape);
  return analytical_profile(gpu, std::vector<ProfiledModel>{m});
}

}  // namespace goodput::calib
