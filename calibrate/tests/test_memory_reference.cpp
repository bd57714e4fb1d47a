// The CPU reference of the memory-bound kernels (harness/memory_reference.hpp) against closed
// forms: what the GPU kernels are verified against must itself be right.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "calibrate/harness/memory_reference.hpp"

using namespace goodput::calib;

TEST_CASE("norm references: RMSNorm of a constant row, LayerNorm's zero mean and unit variance") {
  const std::vector<double> ones(64, 1.0);
  const std::vector<double> c(64, -0.75);
  for (double y : memref::rmsnorm(c, ones))
    CHECK(y == doctest::Approx(-0.75 / std::sqrt(0.75 * 0.75 + memref::kNormEps)));
  std::vector<double> x(100);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 3.0 + std::sin(static_cast<double>(i));
  const std::vector<double> y =
      memref::layernorm(x, std::vector<double>(100, 1.0), std::vector<double>(100, 0.0));
  const double mean = std::accumulate(y.begin(), y.end(), 0.0) / 100.0;
  double var = 0.0;
  for (double v : y) var += (v - mean) * (v - mean);
  CHECK(mean == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(var / 100.0 == doctest::Approx(1.0).epsilon(1e-4));  // eps 1e-5 against variance ~0.5
  // Scale and shift: g = 2, b = 1 doubles and shifts the normalised row.
  const std::vector<double> z =
      memref::layernorm(x, std::vector<double>(100, 2.0), std::vector<double>(100, 1.0));
  for (std::size_t i = 0; i < z.size(); ++i) CHECK(z[i] == doctest::Approx(2.0 * y[i] + 1.0));
}

TEST_CASE("activation references: SwiGLU's halves, GeLU's odd part") {
  // gate 0 gives 0; a large gate passes the gate times the up value.
  const std::vector<double> y = memref::swiglu({0.0, 30.0, -30.0, 5.0, 2.0, 3.0});
  REQUIRE(y.size() == 3);
  CHECK(y[0] == 0.0);
  CHECK(y[1] == doctest::Approx(60.0));
  CHECK(std::abs(y[2]) < 1e-10);
  // gelu(x) - gelu(-x) = x for the tanh form; gelu(0) = 0.
  for (double x : {0.3, 0.5, 1.0, 2.5})
    CHECK(memref::gelu(x) - memref::gelu(-x) == doctest::Approx(x));
  CHECK(memref::gelu(0.0) == 0.0);
  CHECK(memref::gelu(1.0) == doctest::Approx(0.841192).epsilon(1e-5));  // tanh form at 1
}

TEST_CASE("softmax reference sums to 1 and ignores a shift") {
  const std::vector<double> x{0.5, -1.0, 0.75, 0.9, -0.6};
  const std::vector<double> p = memref::softmax(x);
  CHECK(std::accumulate(p.begin(), p.end(), 0.0) == doctest::Approx(1.0));
  std::vector<double> shifted = x;
  for (double& v : shifted) v += 100.0;
  const std::vector<double> q = memref::softmax(shifted);
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(q[i] == doctest::Approx(p[i]));
  for (double v : memref::softmax(std::vector<double>(8, 0.3))) CHECK(v == doctest::Approx(0.125));
}

TEST_CASE("AdamW reference: the first step moves by lr along the gradient's sign, plus decay") {
  memref::AdamHyper h;
  h.step = 1;  // m_hat = g, v_hat = g^2 after one step from zero moments
  for (double g : {0.25, -0.8}) {
    const memref::AdamState s = memref::adam({0.5, 0.0, 0.0}, g, h);
    CHECK(s.m == doctest::Approx((1 - h.beta1) * g));
    CHECK(s.v == doctest::Approx((1 - h.beta2) * g * g));
    const double step = h.lr * (g / (std::abs(g) + h.eps) + h.weight_decay * 0.5);
    CHECK(s.p == doctest::Approx(0.5 - step).epsilon(1e-12));
  }
  // The harness's step 10 corrects the moments by 1 - beta^10.
  const memref::AdamState t = memref::adam({1.0, 0.01, 0.02}, 0.5);
  const double m = 0.9 * 0.01 + 0.1 * 0.5, v = 0.95 * 0.02 + 0.05 * 0.25;
  const double upd =
      (m / (1 - std::pow(0.9, 10))) / (std::sqrt(v / (1 - std::pow(0.95, 10))) + 1e-8);
  CHECK(t.p == doctest::Approx(1.0 - 3e-4 * (upd + 0.1)).epsilon(1e-12));
}

TEST_CASE("the verification rule: relative plus absolute, never a NaN") {
  CHECK(memref::close(1.0 + 1.0 / 256, 1.0, 1.0 / 128, 0.0));
  CHECK_FALSE(memref::close(1.0 + 1.0 / 64, 1.0, 1.0 / 128, 0.0));
  CHECK(memref::close(1e-6, 0.0, 0.0, 1e-5));
  CHECK_FALSE(memref::close(std::nan(""), 0.0, 1.0, 1.0));
}
