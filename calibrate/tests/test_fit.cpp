#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "calibrate/profile/fit.hpp"
#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "calibrate/tests/profile_fixture.hpp"
#include "sim/core/error.hpp"

using namespace goodput::calib;

TEST_CASE("the fit reproduces exact entries") {
  const Profile p = test::test_profile();
  for (const GemmEntry& e : p.gemm) {
    CHECK(gemm_time_s(p, {e.name, e.pass, e.m, e.n, e.k, e.batch, ""}) == e.time_s.median);
  }
}

TEST_CASE("leave-one-out error of the fit on the analytical profiles is small") {
  for (const char* gpu : {"H100", "H200", "B200"}) {
    CAPTURE(gpu);
    const Profile p = analytical_profile(gpu, standard_models());
    const FitSummary f = fit_report(p);
    CHECK(f.gemm.held_out == static_cast<int>(p.gemm.size()));
    CHECK(f.gemm.max_rel_error < 0.05);
    CHECK(f.gemm.median_rel_error < 0.01);
    CHECK(f.reshard.held_out > 0);
    CHECK(f.reshard.max_rel_error < 0.05);
    // The stored report is the same computation.
    CHECK(p.fit.gemm.max_rel_error == doctest::Approx(f.gemm.max_rel_error));
  }
}

TEST_CASE("the fit recovers its own parameters and reports real errors on noisy data") {
  // Synthetic profile: time = flops / (P * 0.7 * d / (d + 300)), then 3% multiplicative noise.
  Profile p = test::test_profile();
  const double peak = p.ceilings.gemm_tflops * 1e12;
  for (GemmEntry& e : p.gemm) {
    const auto d = static_cast<double>(smallest_dim(e.m, e.n, e.k));
    e.time_s.median =
        gemm_flops(e.name, e.pass, e.m, e.n, e.k, e.batch) / (peak * 0.7 * d / (d + 300));
  }
  refit(p);
  CHECK(p.fit_model->d_half == doctest::Approx(300).epsilon(0.15));  // grid step 2^(1/3)
  CHECK(1.0 / p.fit_model->scale.at("mlp_up/fwd").c == doctest::Approx(0.7).epsilon(0.02));
  CHECK(fit_report(p).gemm.max_rel_error < 0.01);

  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(0.97, 1.03);
  for (GemmEntry& e : p.gemm) e.time_s.median *= noise(rng);
  const FitSummary f = fit_report(p);
  CHECK(f.gemm.max_rel_error > 0.005);  // the report sees the noise ...
  CHECK(f.gemm.max_rel_error < 0.10);   // ... and the fit is not thrown by it
}

TEST_CASE("fitted predictions for unmeasured shapes are sensible") {
  const Profile p = analytical_profile("H200", standard_models());
  // TP27 of the 480B model is outside the measured range: an interpolation, not an entry.
  const ModelShape big = standard_models()[0].shape;
  const LayerTime t28 = layer_time(p, big, 28);
  const LayerTime t27 = layer_time(p, big, 27);
  const LayerTime t32 = layer_time(p, big, 32);
  CHECK(t27.fwd_s > t28.fwd_s);
  CHECK(t28.fwd_s > t32.fwd_s);
  CHECK(t28.bwd_s > 1.5 * t28.fwd_s);
  // About 32/28 slower compute at TP28 than at TP32 (attention heads 5 vs 4 make it more).
  CHECK(t28.fwd_s / t32.fwd_s == doctest::Approx(32.0 / 28.0).epsilon(0.15));
  // Reshard: pack + unpack at the fitted bandwidth, close to the analytical model.
  const double bytes = 100e6;
  const double hbm = 4800e9 * 0.8;
  CHECK(reshard_time_s(p, 100'000'000) ==
        doctest::Approx(2 * (4e-6 + 2 * bytes / hbm)).epsilon(0.01));
  CHECK(reshard_time_s(p, 0) == 0.0);
  CHECK(attention_time_s(p, 5, 16384, 160, 1, Pass::bwd_data) >
        1.9 * attention_time_s(p, 5, 16384, 160, 1, Pass::fwd));
  CHECK_THROWS(attention_time_s(p, 5, 16384, 160, 1, Pass::bwd_weight));
}

TEST_CASE("a profile without GEMM entries cannot answer GEMM queries") {
  Profile p = test::test_profile();
  p.gemm.clear();
  p.fit_model.reset();
  CHECK_THROWS_AS(gemm_time_s(p, {"qkv", Pass::fwd, 10, 10, 10, 1, ""}), goodput::InputError);
}
