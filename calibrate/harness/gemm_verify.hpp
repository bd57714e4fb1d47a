// Verification of a GEMM's output against the fp64 sampled reference (kernels.hpp), once,
// outside the timed loop. Contract: picks kGemmVerifyPoints output elements (corners plus
// seeded random ones), and passes when every point satisfies
// |got - ref| <= kGemmVerifyRtol * |ref| + kGemmVerifyAtolRel * sum|a b| (settings.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib {

struct GemmCheck {
  Verification verification = Verification::failed;
  int bad_points = 0;
  double worst_ratio = 0.0;  // max |err| / tolerance over the points
  std::string describe() const;
};

GemmCheck verify_gemm(const GemmCall& call, std::uint64_t seed, cudaStream_t stream);

}  // namespace goodput::calib
