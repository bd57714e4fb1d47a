// First-run review of a measured profile: every entry against the analytical (datasheet) model
// and against the device's own measured ceilings. Contract: check_profile() never throws on
// data; it flags (a) entries that failed verification, (b) large GEMMs (smallest dimension >=
// kCheckLargeDim) below kCheckGemmFraction of the measured GEMM ceiling, (c) large pack/unpack/d2d
// copies (>= kCheckLargeCopyBytes) below kCheckCopyFraction of the measured copy bandwidth, (d)
// memory-bound kernels faster than kCheckMemoryOverCeiling x the measured copy bandwidth (their
// bytes or the L2 flush would be wrong), and notes (not flags) entries whose time differs from
// the analytical model by more than kCheckAnalyticalRatio either way.
// to_markdown() renders the result (tools/device-run.sh writes it as check.md).
#pragma once

#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

// A large GEMM on H100/H200 reaches 70-80 % of dense peak in cuBLAS; 70 % of the *measured*
// 8192^3 ceiling is a floor any healthy shape of that size clears.
inline constexpr double kCheckGemmFraction = 0.70;
inline constexpr std::int64_t kCheckLargeDim = 2048;
// A vectorised copy kernel should move data within 30 % of cudaMemcpy's device-to-device rate.
inline constexpr double kCheckCopyFraction = 0.70;
// ... when the copy is large enough for bandwidth to dominate: a kernel launch and its tail cost
// a few microseconds, which is 25 % of a 64 MiB copy at 4 TB/s and most of a 4 MiB one (the
// H200's 2.5 MiB core shards took 6-9 us). Smaller copies are reported, not checked.
inline constexpr std::int64_t kCheckLargeCopyBytes = std::int64_t{64} << 20;
// A memory-bound kernel may beat cudaMemcpy's device-to-device rate by a few per cent, never by
// 15 %: beyond that its byte count or the L2 flush is wrong. Slower ones are reported only (a
// simple kernel with a reduction per row need not reach the copy rate).
inline constexpr double kCheckMemoryOverCeiling = 1.15;
// Beyond a factor of 2 from the datasheet model something (model or measurement) is off.
inline constexpr double kCheckAnalyticalRatio = 2.0;

struct CheckRow {
  std::string kind;   // "gemm" | "reshard" | "memory" | "ceiling"
  std::string label;  // human-readable entry
  double measured_s = 0.0;
  double analytical_s = 0.0;  // 0 when the analytical profile has no such entry
  double fraction = 0.0;      // of the measured ceiling (GEMM: TFLOP/s, reshard, memory: GB/s)
  bool checked = false;       // subject to a ceiling threshold
  std::string flag;           // empty: fine
  std::string note;           // e.g. far from the analytical model
};

struct CheckReport {
  std::string device, datasheet_gpu;
  double gemm_ceiling_tflops = 0.0, datasheet_gemm_tflops = 0.0;
  double copy_ceiling_gbps = 0.0, datasheet_copy_gbps = 0.0;
  std::vector<CheckRow> rows;
  int flagged = 0, noted = 0;
};

// The GPU catalogue's entry a CUDA device name is ("NVIDIA GB200" -> "GB200", "NVIDIA
// A100-SXM4-80GB" -> "A100-80GB"); empty when unknown.
std::string datasheet_gpu_of(const std::string& device_name);
// "model name pass tpA,B MxNxK[xbatch]": how a GEMM entry is named in checks and progress lines.
std::string gemm_label(const GemmEntry& e);

// `analytical` should be analytical_profile(gpu, measured.models).
CheckReport check_profile(const Profile& measured, const Profile& analytical);

std::string to_markdown(const CheckReport& report);

}  // namespace goodput::calib
