#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "calibrate/profile/stats.hpp"

using goodput::calib::summarize;

TEST_CASE("summarize: order statistics and dispersion of known samples") {
  const std::vector<double> x{3.0, 1.0, 2.0, 5.0, 4.0};
  const auto s = summarize(x);
  CHECK(s.samples == 5);
  CHECK(s.median == doctest::Approx(3.0));
  CHECK(s.min == doctest::Approx(1.0));
  CHECK(s.max == doctest::Approx(5.0));
  CHECK(s.mean == doctest::Approx(3.0));
  CHECK(s.p10 == doctest::Approx(1.4));
  CHECK(s.p90 == doctest::Approx(4.6));
  CHECK(s.spread == doctest::Approx(3.2 / 3.0));
  // stddev of 1..5 is sqrt(2.5); stderr = sqrt(2.5)/sqrt(5); relative to the median 3.
  CHECK(s.rel_stderr == doctest::Approx(std::sqrt(2.5) / std::sqrt(5.0) / 3.0));
}

TEST_CASE("summarize: even count, constant series, single sample") {
  CHECK(summarize(std::vector<double>{4.0, 1.0, 3.0, 2.0}).median == doctest::Approx(2.5));
  const auto c = summarize(std::vector<double>(7, 2e-3));
  CHECK(c.spread == 0.0);
  CHECK(c.rel_stderr == 0.0);
  const auto one = summarize(std::vector<double>{1e-3});
  CHECK(one.median == 1e-3);
  CHECK(one.rel_stderr == 0.0);
  CHECK_THROWS_AS(summarize(std::vector<double>{}), std::invalid_argument);
}
