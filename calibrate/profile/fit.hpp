// Fitted cost model that lets a profile serve shapes it did not measure.
// GEMM: time = c * flops / (P * g(d)) + beta * bytes, g(d) = d / (d + d_half), d = min(m,n,k),
//   P = the profile's GEMM ceiling, bytes = bf16 operand and result traffic. d_half is shared;
//   (c, beta) are per (name, pass) (beta = 0 with < 3 entries), pooled over the linear layers
//   for keys the profile lacks; least squares on relative error.
//   Reshard (pack, unpack): time = t0 + s * bytes.
// Entries that failed verification never enter a fit. fit_report() is leave-one-out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct LinearTime {
  double t0 = 0.0, s_per_byte = 0.0;
  bool valid = false;
  double at(std::int64_t bytes) const { return t0 + s_per_byte * static_cast<double>(bytes); }
};

struct GemmScale {
  double c = 0.0;     // 1 / efficiency limit
  double beta = 0.0;  // seconds per byte of memory traffic
};

struct FitModel {
  double peak_flops = 0.0;
  double d_half = 0.0;
  std::map<std::string, GemmScale> scale;  // key: name + "/" + pass
  GemmScale pooled;                        // over the linear-layer keys
  bool has_gemm = false;
  std::map<std::string, LinearTime> reshard;  // key: kernel
  double copy_s_per_byte = 0.0;               // fallback: the copy ceiling
};

enum class FitParts { all, gemm, reshard };

// `skip_gemm` / `skip_reshard`: index of an entry to leave out (for leave-one-out).
FitModel fit_profile(const Profile& profile, std::optional<std::size_t> skip_gemm = std::nullopt,
                     std::optional<std::size_t> skip_reshard = std::nullopt,
                     FitParts parts = FitParts::all);

// Throw goodput::InputError(profile path, ...) when the profile has nothing to go on.
double predict_gemm_s(const FitModel& fit, const GemmQuery& query);
double predict_reshard_s(const FitModel& fit, const std::string& kernel, std::int64_t bytes);

}  // namespace goodput::calib
