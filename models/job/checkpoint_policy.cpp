#include "models/job/checkpoint_policy.hpp"

#include <cmath>

namespace goodput {

double young_interval_s(double c, double m) {
  return std::sqrt(2 * c * m);
}

double daly_interval_s(double c, double m) {
  if (c >= 2 * m) return m;
  const double x = c / (2 * m);
  return std::sqrt(2 * c * m) * (1 + std::sqrt(x) / 3 + x / 9) - c;
}

double daly_expected_overhead(double tau, double c, double m, double r) {
  return m * std::exp(r / m) * std::expm1((tau + c) / m) / tau;
}

double availability_optimal_interval_s(double c, double m, double r) {
  // T(tau) is unimodal in tau > 0; search in log space between 1e-4 and 100 times Young's tau.
  const double young = std::max(young_interval_s(c, m), 1e-3);
  double lo = std::log(young * 1e-4), hi = std::log(young * 100);
  const double g = (std::sqrt(5.0) - 1) / 2;
  auto f = [&](double lt) { return daly_expected_overhead(std::exp(lt), c, m, r); };
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double fa = f(a), fb = f(b);
  for (int i = 0; i < 200 && hi - lo > 1e-10; ++i) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = f(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = f(b);
    }
  }
  return std::exp((lo + hi) / 2);
}

}  // namespace goodput
