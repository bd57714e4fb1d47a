#include <doctest/doctest.h>

#include <cmath>

#include "models/job/checkpoint_policy.hpp"

using namespace goodput;

TEST_CASE("Young and Daly intervals match their formulas") {
  const double c = 60, m = 3 * 3600.0;
  CHECK(young_interval_s(c, m) == doctest::Approx(std::sqrt(2 * c * m)));
  const double x = c / (2 * m);
  CHECK(daly_interval_s(c, m) ==
        doctest::Approx(std::sqrt(2 * c * m) * (1 + std::sqrt(x) / 3 + x / 9) - c));
  CHECK(daly_interval_s(3 * m, m) == doctest::Approx(m));  // C >= 2M: tau = M
}

TEST_CASE("the availability-optimal interval minimises Daly's expected run time") {
  const double c = 60, m = 2 * 3600.0, r = 900;
  const double tau = availability_optimal_interval_s(c, m, r);
  const double best = daly_expected_overhead(tau, c, m, r);
  for (double f : {0.8, 0.9, 0.99, 1.01, 1.1, 1.25})
    CHECK(daly_expected_overhead(tau * f, c, m, r) > best);
  // For C << M the optimum is close to Daly's and Young's.
  CHECK(tau == doctest::Approx(daly_interval_s(c, m)).epsilon(0.05));
}
