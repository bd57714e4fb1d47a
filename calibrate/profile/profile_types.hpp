// In-memory form of a calibration profile (the JSON format is documented in
// calibrate/README.md). Contract: plain data, one struct per JSON object, field names equal
// to JSON keys; std::optional marks keys whose value may be JSON null. Read and written only
// by profile_read.cpp / profile_write.cpp; consumers use the functions in profile.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/profile/memory_kernels.hpp"
#include "calibrate/profile/settings.hpp"
#include "calibrate/profile/shapes.hpp"
#include "sim/core/enum_names.hpp"

namespace goodput::calib {

// Version 2 added /memory_kernels and /models/N/layout; version 3 /attention (fused attention)
// and /settings/analytical_model/flash_attention. Older profiles (without them) still load, and
// are written back as they were.
inline constexpr int kProfileSchemaVersion = 3;
inline constexpr int kOldestProfileSchemaVersion = 1;
inline constexpr const char* kCalibrationVersion = "0.1.0";

enum class Source { measured, analytical };
enum class Verification { passed, failed, not_applicable };
// Their names in profiles, spelled once (enum_names.hpp).
inline constexpr EnumName<Source> kSourceNames[] = {{Source::measured, "measured"},
                                                    {Source::analytical, "analytical"}};
inline constexpr EnumName<Verification> kVerificationNames[] = {
    {Verification::passed, "passed"},
    {Verification::failed, "failed"},
    {Verification::not_applicable, "not_applicable"}};

struct TimeStats {
  double median = 0.0, min = 0.0, max = 0.0, mean = 0.0;
  double spread = 0.0;      // (p90 - p10) / median
  double rel_stderr = 0.0;  // stddev / sqrt(n) / median
  int samples = 0;          // 0 for analytical entries
  std::string stop;         // stopping-rule reason, or "analytical"
};

struct ClockRange {
  double min = 0.0, median = 0.0, max = 0.0;  // MHz
};

struct Clocks {
  std::optional<int> sm_max_mhz, mem_max_mhz;                   // device attributes
  std::optional<ClockRange> sm_observed_mhz, mem_observed_mhz;  // sampled during the run
  std::string observed_via;                                     // "nvml" | "none" | "datasheet"
};

struct DeviceInfo {
  std::string name;
  int sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::optional<std::int64_t> l2_bytes;
  std::string compute_capability;  // "9.0"
  int device_count = 0;            // visible devices (0 for analytical)
  Clocks clocks;
  std::optional<int> driver_version, cuda_runtime_version, cublas_version, nccl_version;
};

struct MeasureSettings {
  bool quick = false;
  StopSettings stop;
  std::int64_t l2_flush_bytes = 0;
  int gemm_verify_points = 0;
  double gemm_verify_rtol = 0.0, gemm_verify_atol_rel = 0.0;
  std::int64_t cublaslt_workspace_bytes = 0;
  std::string nccl;      // "measured" | "single_gpu" | "not_built"
  std::string scenario;  // scenario path, or "builtin"
};

// The analytical profile's flash-attention model (gpu_catalogue.hpp, GpuSpec::attention_*):
// causal attention at these shares of the datasheet BF16 peak, in attention_flops()'s count.
struct FlashAttentionModel {
  double fwd_efficiency = 0.0, bwd_efficiency = 0.0;
  std::string source;  // where the two figures come from
};

struct AnalyticalSettings {
  std::string gpu;        // the GpuSpec's name: a catalogue entry or a scenario's own
  std::string datasheet;  // citation of the peaks used
  double e_max = 0.0;     // GEMM efficiency limit for large shapes
  double d_half = 0.0;    // smallest GEMM dimension at which efficiency is e_max / 2
  double launch_s = 0.0;  // fixed per-kernel overhead
  double hbm_efficiency = 0.0;
  // null: attention priced as GEMMs on the curve above (version <= 2, or a GPU without figures)
  std::optional<FlashAttentionModel> flash_attention;
};

struct Settings {
  std::string gemm_impl;  // "cublasLt" | "analytical"
  std::string
      attention_impl;  // "cublas_causal_blocked" | "cublas_strided_batched" (older) | "analytical"
  std::string attention_scope;                         // what the attention entries include
  std::optional<MeasureSettings> measurement;          // iff source == measured
  std::optional<AnalyticalSettings> analytical_model;  // iff source == analytical
};

// What the sizes of the optimizer step and the loss softmax depend on beyond the layer shape.
struct StepLayout {
  int layers = 1;  // transformer layers of the whole model
  int vocab = 1;   // vocabulary (the loss softmax's row, split over TP)
  int pp = 1;      // pipeline stages
  int dp = 1;      // data-parallel replicas (the distributed optimizer's shards)
  bool operator==(const StepLayout&) const = default;
};

struct ProfiledModel {
  ModelShape shape;
  int tp_max = 1, tp_min = 1;
  std::optional<StepLayout> layout;  // null: unknown (only the layer's kernels were planned)
  bool operator==(const ProfiledModel&) const = default;
};

struct Ceilings {
  std::string kind;  // "measured" | "datasheet"
  double gemm_tflops = 0.0;
  double copy_gbps = 0.0;  // bytes read + written per second / 1e9
  std::int64_t gemm_m = 0, gemm_n = 0, gemm_k = 0;
  std::int64_t copy_bytes = 0;
};

struct GemmEntry {
  std::string model;    // ProfiledModel name the shape was taken from
  std::vector<int> tp;  // TP degrees of that model that run exactly this shape
  std::string name;     // qkv | attn_out | mlp_up | mlp_down | attention
  Pass pass = Pass::fwd;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;  // logical row-major C[m x n] += A[m x k] B[k x n]
  std::string layout;                           // cuBLAS column-major ops: "TN" | "NN" | "NT"
  std::string dtype = "bf16";
  TimeStats time_s;
  double tflops = 0.0, fraction_of_ceiling = 0.0;
  std::string algo;
  Verification verification = Verification::not_applicable;
};

struct ReshardEntry {
  int n1 = 0, n2 = 0;
  std::int64_t cols = 0, rows = 0;
  std::int64_t bytes = 0;  // payload moved by this kernel (each byte is read once, written once)
  std::string kernel;      // pack | unpack | d2d | peer | nccl_all_to_all
  std::string role;        // extra | core | any
  std::string dtype = "bf16";
  TimeStats time_s;
  double gbps = 0.0, fraction_of_ceiling = 0.0;
  Verification verification = Verification::not_applicable;
};

struct MemoryKernelEntry {
  std::string model;    // ProfiledModel name the size was taken from
  std::vector<int> tp;  // TP degrees of that model that ask for exactly this size
  MemoryKernel kernel = MemoryKernel::rmsnorm;
  std::int64_t rows = 0, cols = 0;  // rows x cols elements (adam: rows parameters, cols 1)
  std::int64_t bytes = 0;           // memory_kernel_bytes(kernel, rows, cols): read + written
  std::string dtype = "bf16";       // memory_kernel_dtype(kernel)
  TimeStats time_s;
  double gbps = 0.0, fraction_of_ceiling = 0.0;  // bytes / median time; / ceilings.copy_gbps
  Verification verification = Verification::not_applicable;
};

// One fused causal attention call (schema_version 3): cuDNN's SDPA timed by the harness, or the
// analytical profile's flash-attention estimate. fwd: O = softmax(mask(Q K^T / sqrt(d))) V;
// bwd: dQ, dK, dV from dO (recomputing the scores). FLOPs: attention_flops() (causal).
struct AttentionEntry {
  std::string model;      // ProfiledModel name the shape was taken from
  std::vector<int> tp;    // TP degrees of that model that run exactly this shape
  Pass pass = Pass::fwd;  // fwd | bwd_data (the backward, named as the attention GEMM entries)
  std::int64_t batch = 1, heads = 1, kv_heads = 1;  // micro-batch, local query and K/V heads
  std::int64_t seq_len = 1, head_dim = 1;
  bool causal = true;
  std::string impl;  // "cudnn_sdpa" | "analytical"
  std::string dtype = "bf16";
  TimeStats time_s;
  double tflops = 0.0, fraction_of_ceiling = 0.0;  // attention_flops / median; / gemm ceiling
  std::string engine;  // what ran it (cuDNN version and engine), or "analytical"
  Verification verification = Verification::not_applicable;
};

struct FitStats {
  std::string method;  // "leave_one_out"
  int held_out = 0;    // entries predicted
  double max_rel_error = 0.0, median_rel_error = 0.0;
};

struct FitSummary {
  FitStats gemm, reshard;
};

struct FitModel;  // derived from the entries, see fit.hpp

struct Profile {
  int schema_version = kProfileSchemaVersion;
  Source source = Source::measured;
  std::string generator;
  DeviceInfo device;
  Settings settings;
  std::vector<ProfiledModel> models;
  Ceilings ceilings;
  std::vector<GemmEntry> gemm;
  std::vector<ReshardEntry> reshard;
  std::vector<MemoryKernelEntry> memory_kernels;  // empty in a version 1 profile
  std::vector<AttentionEntry> attention;          // empty before version 3 or without cuDNN
  FitSummary fit;

  // Not serialized: where the profile was loaded from (for messages) and the fitted model
  // (built by load_profile / analytical_profile / refit; lookups fit on the fly if null).
  std::string path;
  std::shared_ptr<const FitModel> fit_model;
};

}  // namespace goodput::calib
