#include "calibrate/harness/run_calibration.hpp"

#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "calibrate/harness/attention_bench.hpp"
#include "calibrate/harness/bench_context.hpp"
#include "calibrate/harness/device_info.hpp"
#include "calibrate/harness/fused_attention_bench.hpp"
#include "calibrate/harness/gemm_bench.hpp"
#include "calibrate/harness/memory_bench.hpp"
#include "calibrate/harness/multi_gpu_bench.hpp"
#include "calibrate/harness/reshard_bench.hpp"
#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/profile_check.hpp"
#include "sim/core/progress_line.hpp"

namespace goodput::calib {
namespace {

template <class... Args>
std::string fmt(const char* f, Args... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string gemm_progress(const GemmEntry& e) {
  std::ostringstream s;
  s << gemm_label(e);
  s << fmt(": %.3f ms, %.0f TFLOP/s, %.2f of ceiling", e.time_s.median * 1e3, e.tflops,
           e.fraction_of_ceiling);
  s << ", " << (e.verification == Verification::passed ? "verified" : "VERIFICATION FAILED");
  return s.str();
}

std::string memory_label(const MemoryKernelEntry& e) {
  std::ostringstream s;
  s << e.model << " " << to_string(e.kernel) << " " << e.rows << "x" << e.cols << " " << e.bytes
    << " B";
  s << fmt(": %.3f ms, %.0f GB/s, %.2f of ceiling", e.time_s.median * 1e3, e.gbps,
           e.fraction_of_ceiling);
  s << ", " << (e.verification == Verification::passed ? "verified" : "VERIFICATION FAILED");
  return s.str();
}

std::string reshard_label(const ReshardEntry& e) {
  std::ostringstream s;
  s << "reshard " << e.kernel << " (" << e.role << ") " << e.n1 << "->" << e.n2 << " " << e.rows
    << "x" << e.cols << " " << e.bytes << " B";
  s << fmt(": %.3f ms, %.0f GB/s, %.2f of ceiling", e.time_s.median * 1e3, e.gbps,
           e.fraction_of_ceiling);
  s << ", " << (e.verification == Verification::passed ? "verified" : "VERIFICATION FAILED");
  return s.str();
}

MeasureSettings measure_settings(const RunOptions& o, const BenchContext& ctx) {
  MeasureSettings m;
  m.quick = o.quick;
  m.stop = ctx.stop();
  m.l2_flush_bytes = l2_flush_bytes(ctx.device());
  m.gemm_verify_points = kGemmVerifyPoints;
  m.gemm_verify_rtol = kGemmVerifyRtol;
  m.gemm_verify_atol_rel = kGemmVerifyAtolRel;
  m.cublaslt_workspace_bytes = ctx.workspace_bytes();
  m.nccl = nccl_status(ctx.device().device_count);
  m.scenario = o.scenario;
  return m;
}

}  // namespace

Profile run_calibration(const RunOptions& options, const std::vector<ProfiledModel>& models) {
  DeviceInfo device = select_device(options.device);  // NoDeviceError: nothing measured
  BenchContext ctx(device, options.quick ? kQuickStop : kFullStop);
  ClockSampler clocks(options.device);
  const CalibrationPlan plan = make_plan(models, options.quick);

  // Multi-GPU transfers: the first gather payload (extra rank, QKV, TP max - 1) of each model.
  std::vector<ReshardJob> transfers;
  if (device.device_count >= 2) {
    for (const ReshardJob& j : plan.reshard) {
      if (j.kernel == "pack" && j.role == "extra" &&
          (transfers.empty() || transfers.back().rows != j.rows)) {
        transfers.push_back(j);
      }
    }
  }
  const bool nccl = nccl_status(device.device_count) == "measured";
  const FusedAttentionSupport fused = fused_attention_support();
  const int total =
      2 + static_cast<int>(plan.gemm.size() + plan.reshard.size() + plan.memory_kernels.size() +
                           (fused.available ? plan.attention.size() : 0) +
                           transfers.size() * (nccl ? 2 : 1));
  ProgressLine progress(true);
  progress.begin("measurements");
  int done = 0;
  auto step = [&](const std::string& result) { progress.step(++done, total, result); };
  progress.note("goodput-calibrate: " + device.name + " (device " + std::to_string(options.device) +
                " of " + std::to_string(device.device_count) + "), " + std::to_string(total) +
                " measurements" + (options.quick ? " (quick)" : ""));

  Profile p;
  p.source = Source::measured;
  p.generator = std::string("goodput-calibrate ") + kCalibrationVersion;
  p.models = models;
  p.ceilings.kind = "measured";
  clocks.sample();
  if (bench_gemm_ceiling(ctx, p.ceilings) != Verification::passed) {
    throw std::runtime_error(
        "the ceiling GEMM failed verification: this GPU or its cuBLAS is not trustworthy");
  }
  step(fmt("ceiling GEMM 8192^3: %.0f TFLOP/s", p.ceilings.gemm_tflops));
  if (bench_copy_ceiling(ctx, p.ceilings) != Verification::passed) {
    throw std::runtime_error("the ceiling copy failed verification: this GPU is not trustworthy");
  }
  step(fmt("ceiling copy 1 GiB: %.0f GB/s (read + write)", p.ceilings.copy_gbps));
  clocks.sample();

  int failed = 0;
  for (const GemmJob& job : plan.gemm) {
    p.gemm.push_back(bench_gemm(ctx, job));
    clocks.sample();
    failed += p.gemm.back().verification == Verification::failed;
    step(gemm_progress(p.gemm.back()));
  }
  for (const ReshardJob& job : plan.reshard) {
    p.reshard.push_back(bench_reshard(ctx, job));
    clocks.sample();
    failed += p.reshard.back().verification == Verification::failed;
    step(reshard_label(p.reshard.back()));
  }
  for (const MemoryKernelJob& job : plan.memory_kernels) {
    p.memory_kernels.push_back(bench_memory_kernel(ctx, job));
    clocks.sample();
    failed += p.memory_kernels.back().verification == Verification::failed;
    step(memory_label(p.memory_kernels.back()));
  }
  if (fused.available) {
    for (const AttentionJob& job : plan.attention) {
      if (std::optional<AttentionEntry> e = bench_fused_attention(ctx, job)) {
        p.attention.push_back(*e);
        failed += e->verification == Verification::failed;
        step(fmt("%s fused attention %s: %.3f ms, %.0f TFLOP/s, %.2f of ceiling", e->model.c_str(),
                 std::string(to_string(e->pass)).c_str(), e->time_s.median * 1e3, e->tflops,
                 e->fraction_of_ceiling));
      } else {
        step("fused attention: not supported at this shape");
      }
      clocks.sample();
    }
  } else {
    progress.note("goodput-calibrate: fused attention not measured: " + fused.why_not);
  }
  for (const ReshardJob& job : transfers) {
    for (ReshardEntry& e : bench_multi_gpu(ctx, job)) {
      failed += e.verification == Verification::failed;
      p.reshard.push_back(e);
      step(reshard_label(e));
    }
  }
  progress.finish();
  if (failed > 0) {
    std::fprintf(stderr,
                 "goodput-calibrate: WARNING: %d entries failed verification; they are recorded as "
                 "\"failed\" and the simulator will refuse them\n",
                 failed);
  }

  p.device = device;
  clocks.fill(p.device.clocks);
  p.settings.gemm_impl = "cublasLt";
  p.settings.attention_impl = attention_impl();
  p.settings.attention_scope = attention_scope() + "; fused attention (/attention): " +
                               (fused.available ? "cuDNN SDPA, causal, bf16 (" + fused.library + ")"
                                                : "not measured: " + fused.why_not);
  p.settings.measurement = measure_settings(options, ctx);
  p.fit = fit_report(p);
  refit(p);
  return p;
}

}  // namespace goodput::calib
