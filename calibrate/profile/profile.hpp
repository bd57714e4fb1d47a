// Calibration profiles: the interface the simulator's cost model uses.
// Contract: load_profile() is strict (unknown/missing/ill-typed fields throw
// goodput::InputError with the file and JSON pointer); lookups answer from an exact entry when
// one matches, else from the fitted model (fit.hpp), and refuse entries that failed
// verification with an InputError naming the entry. Times are seconds for one execution on
// the busiest GPU. save_profile() is atomic; profile_hash() is FNV-1a 64 of the canonical JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "calibrate/profile/profile_types.hpp"
#include "calibrate/profile/shapes.hpp"

namespace goodput::calib {

struct LoadOptions {
  bool reject_failed = false;  // refuse the whole profile if any entry failed verification
};

Profile load_profile(const std::string& path, LoadOptions options = {});
void save_profile(const Profile& profile, const std::string& path);
std::string profile_text(const Profile& profile);  // canonical JSON, indented, newline-ended
std::string profile_hash(const Profile& profile);  // 16 lowercase hex digits

// (Re)builds profile.fit_model from the entries; load_profile/analytical_profile call it.
void refit(Profile& profile);

double gemm_time_s(const Profile& profile, const GemmQuery& query);

// Causal attention, one call on the busiest GPU (attention_call: the fused kernel's forward, or
// its backward as bwd_data), and where the time came from: the first of
//  - measured_fused: a measured profile's /attention entry (cuDNN SDPA) of exactly this shape;
//    at another shape, attention_flops at the FLOP/s its nearest entry of the same pass reached
//    (nearest in FLOPs; entries that failed verification are refused when exact, else skipped);
//  - measured_gemm_tiles: a measured profile's attention GEMM entries (causal tiles, the entry
//    of this shape or the fit; an older profile's dense "cublas_strided_batched" ones halved);
//  - flash_efficiency: an analytical profile with flash_attention (schema_version 3):
//    attention_flops / (ceilings.gemm_tflops x the pass's efficiency), in closed form;
//  - gemm_curve: an analytical profile without it (older, or a GPU that declares none): half
//    the dense attention GEMMs' time on its efficiency curve.
enum class AttentionSource { measured_fused, measured_gemm_tiles, flash_efficiency, gemm_curve };
std::string_view to_string(AttentionSource source);
struct AttentionTime {
  double time_s = 0.0;
  double tflops = 0.0;  // attention_flops / time_s / 1e12
  AttentionSource source = AttentionSource::gemm_curve;
};
AttentionTime attention_time(const Profile& profile, const AttentionQuery& query);
// attention_time of `heads_local` query and as many K/V heads: the causal time.
double attention_time_s(const Profile& profile, std::int64_t heads_local, std::int64_t seq_len,
                        std::int64_t head_dim, std::int64_t micro_batch, Pass pass = Pass::fwd);
// Local cost of moving `bytes` of gradient out of one rank and into another: fitted pack time
// plus fitted unpack time (the wire transfer is the topology's business).
double reshard_time_s(const Profile& profile, std::int64_t bytes);

// Memory-bound kernels (memory_kernels.hpp): the time of one call of `kernel` moving `bytes`
// (memory_kernel_bytes: read + written) and where the number came from. The profile's entries
// of that kernel give the achieved GB/s at their sizes: exact at a measured size, interpolated
// linearly in log(bytes) between the two nearest sizes, clamped to the nearest outside them, and
// never above the profile's HBM ceiling (ceilings.copy_gbps), so a kernel is never priced faster
// than bytes / that ceiling. A profile without entries of that kernel (a version 1 profile, or a
// kernel its models do not run) prices it as today's cost model prices element-wise work:
// bytes / (copy ceiling x the analytical model's hbm_efficiency where the ceilings are the
// datasheet's). An entry of that kernel that failed verification is refused (InputError naming
// it). bytes <= 0 costs 0.
enum class MemoryKernelSource { measured, datasheet, copy_ceiling_fallback };
// "profile measurement" | "datasheet" | "copy ceiling fallback": what explain-step prints.
std::string_view to_string(MemoryKernelSource source);
struct MemoryKernelTime {
  double time_s = 0.0;
  double gbps = 0.0;  // the bandwidth it was priced at (bytes / time_s / 1e9)
  MemoryKernelSource source = MemoryKernelSource::copy_ceiling_fallback;
};
MemoryKernelTime memory_kernel_time(const Profile& profile, MemoryKernel kernel, double bytes);
double memory_kernel_time_s(const Profile& profile, MemoryKernel kernel, double bytes);

// Forward and backward GEMM + causal attention (attention_time) time of one layer at TP degree
// tp (busiest GPU).
struct LayerTime {
  double fwd_s = 0.0, bwd_s = 0.0;
};
LayerTime layer_time(const Profile& profile, const ModelShape& shape, int tp);

double gemm_ceiling_tflops(const Profile& profile);
double copy_ceiling_gbps(const Profile& profile);
// The share of the copy ceiling a memory-bound kernel reaches where nothing measured it: 1 for a
// measured ceiling; for a datasheet ceiling the analytical model's hbm_efficiency
// (kDatasheetCopyEfficiency without one).
inline constexpr double kDatasheetCopyEfficiency = 0.80;
double copy_efficiency(const Profile& profile);
const std::string& device_name(const Profile& profile);

// Leave-one-out error of the fit over the profile's own entries.
FitSummary fit_report(const Profile& profile);

// Datasheet-based profile from a GPU's figures (analytical.cpp): a catalogue entry by name
// (gpu_catalogue.hpp; std::invalid_argument naming the valid ones for another) or a GpuSpec
// (a scenario's /cluster/gpu_spec; it needs bf16_dense_tflops and hbm_bandwidth_gbps > 0).
Profile analytical_profile(const GpuSpec& gpu, const std::vector<ProfiledModel>& models);
Profile analytical_profile(const GpuSpec& gpu, const ModelShape& shape, int tp_max, int tp_min);
Profile analytical_profile(const std::string& gpu, const std::vector<ProfiledModel>& models);
Profile analytical_profile(const std::string& gpu, const ModelShape& shape, int tp_max, int tp_min);

}  // namespace goodput::calib
