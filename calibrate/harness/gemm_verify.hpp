// Verification of a GEMM's output against the fp64 sampled reference (kernels.hpp), once,
// outside the timed loop. Contract: picks kGemmVerifyPoints output elements (corners plus
// seeded random ones), and passes when every point satisfies
// |got - ref| <= kGemmVerifyRtol * |ref| + (kGemmVerifyAtolRel + extra_atol_rel) * sum|a b|
// (settings.hpp); extra_atol_rel is the bf16 split-K allowance of the algorithm, else 0.
#pragma once

#include <cstdint>
#include <string>

#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/profile_types.hpp"
#include "calibrate/profile/settings.hpp"

namespace goodput::calib {

struct GemmCheck {
  Verification verification = Verification::failed;
  int bad_points = 0;
  double worst_ratio = 0.0;  // max |err| / tolerance over the points
  std::string describe() const;
};

GemmCheck verify_gemm(const GemmCall& call, std::uint64_t seed, cudaStream_t stream,
                      double extra_atol_rel = 0.0);

// The extra allowance for an algorithm that sums `splits` partial results in bf16.
inline double bf16_reduction_allowance(int splits) {
  return splits > 1 ? splits * kGemmVerifyBf16ReductionRel : 0.0;
}

}  // namespace goodput::calib
