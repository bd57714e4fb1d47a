// The math of the harness's memory-bound kernels (memory_kernels.cu), written plainly in double
// precision: the CPU reference each kernel is verified against, and the constants (epsilons,
// AdamW's hyper-parameters) both use. Contract: header-only, standard library only (nvcc and the
// CPU tests include it); every function works on one row (or one parameter) as the kernel's
// contract in calibrate/profile/memory_kernels.hpp describes; close() is the verification rule.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace goodput::calib::memref {

inline constexpr double kNormEps = 1e-5;  // Megatron's layernorm_epsilon default

// AdamW as Megatron-LM's distributed optimizer runs it (Llama 3's beta2 0.95 and weight decay
// 0.1); step 10 so the bias corrections are not 1.
struct AdamHyper {
  double lr = 3e-4, beta1 = 0.9, beta2 = 0.95, eps = 1e-8, weight_decay = 0.1;
  int step = 10;
};
inline constexpr AdamHyper kAdam{};

inline std::vector<double> rmsnorm(const std::vector<double>& x, const std::vector<double>& g) {
  double ss = 0.0;
  for (double v : x) ss += v * v;
  const double r = 1.0 / std::sqrt(ss / static_cast<double>(x.size()) + kNormEps);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] * r * g[i];
  return y;
}

inline std::vector<double> layernorm(const std::vector<double>& x, const std::vector<double>& g,
                                     const std::vector<double>& b) {
  const auto n = static_cast<double>(x.size());
  double mean = 0.0;
  for (double v : x) mean += v;
  mean /= n;
  double var = 0.0;
  for (double v : x) var += (v - mean) * (v - mean);
  const double r = 1.0 / std::sqrt(var / n + kNormEps);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = (x[i] - mean) * r * g[i] + b[i];
  return y;
}

// x holds 2 c values: the gate x[0, c) and the up projection x[c, 2c).
inline std::vector<double> swiglu(const std::vector<double>& x) {
  const std::size_t c = x.size() / 2;
  std::vector<double> y(c);
  for (std::size_t i = 0; i < c; ++i) y[i] = x[i] / (1.0 + std::exp(-x[i])) * x[c + i];
  return y;
}

// The tanh approximation, as Megatron's fused bias-GeLU.
inline double gelu(double x) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

inline std::vector<double> softmax(const std::vector<double>& x) {
  const double mx = *std::max_element(x.begin(), x.end());
  double sum = 0.0;
  for (double v : x) sum += std::exp(v - mx);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::exp(x[i] - mx) / sum;
  return y;
}

struct AdamState {
  double p = 0.0, m = 0.0, v = 0.0;
};

// One AdamW step of one parameter with gradient g.
inline AdamState adam(AdamState s, double g, const AdamHyper& h = kAdam) {
  s.m = h.beta1 * s.m + (1.0 - h.beta1) * g;
  s.v = h.beta2 * s.v + (1.0 - h.beta2) * g * g;
  const double m_hat = s.m / (1.0 - std::pow(h.beta1, h.step));
  const double v_hat = s.v / (1.0 - std::pow(h.beta2, h.step));
  s.p -= h.lr * (m_hat / (std::sqrt(v_hat) + h.eps) + h.weight_decay * s.p);
  return s;
}

// The verification rule: |got - ref| <= rtol |ref| + atol.
inline bool close(double got, double ref, double rtol, double atol) {
  return std::isfinite(got) && std::abs(got - ref) <= rtol * std::abs(ref) + atol;
}

}  // namespace goodput::calib::memref
