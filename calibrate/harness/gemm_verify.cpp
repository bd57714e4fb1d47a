#include "calibrate/harness/gemm_verify.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace goodput::calib {

std::string GemmCheck::describe() const {
  return std::string(verification == Verification::passed ? "passed" : "FAILED") + " (" +
         std::to_string(bad_points) + " bad points, worst error/tolerance " +
         std::to_string(worst_ratio) + ")";
}

GemmCheck verify_gemm(const GemmCall& call, std::uint64_t seed, cudaStream_t stream,
                      double extra_atol_rel) {
  std::vector<SamplePoint> pts;
  const std::int64_t last_b = call.batch - 1;
  for (std::int64_t b : {std::int64_t{0}, last_b})
    for (std::int64_t i : {std::int64_t{0}, call.m - 1})
      for (std::int64_t j : {std::int64_t{0}, call.n - 1}) pts.push_back({b, i, j});
  std::mt19937_64 rng(seed);
  while (static_cast<int>(pts.size()) < kGemmVerifyPoints) {
    pts.push_back({static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(call.batch)),
                   static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(call.m)),
                   static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(call.n))});
  }
  const std::vector<SampleResult> res = sampled_reference(call, pts, stream);
  GemmCheck check;
  for (const SampleResult& r : res) {
    const double tol = kGemmVerifyRtol * std::fabs(r.reference) +
                       (kGemmVerifyAtolRel + extra_atol_rel) * r.abs_sum;
    const double err = std::fabs(r.got - r.reference);
    const double ratio = tol > 0.0 ? err / tol : (err > 0.0 ? INFINITY : 0.0);
    check.worst_ratio = std::max(check.worst_ratio, ratio);
    if (!(err <= tol)) ++check.bad_points;  // NaN counts as bad
  }
  check.verification = check.bad_points == 0 ? Verification::passed : Verification::failed;
  return check;
}

}  // namespace goodput::calib
