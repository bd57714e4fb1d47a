// Summary statistics across Monte Carlo seeds: mean, sample standard deviation and the
// half-width of a two-sided 95% confidence interval from Student's t distribution
// (exact quantiles tabulated to 30 degrees of freedom, a Cornish-Fisher expansion beyond).
// Paired differences (same seed, two strategies) use the same machinery on the differences.
#pragma once

#include <cstddef>
#include <vector>

namespace goodput {

struct Summary {
  double mean = 0;
  double stddev = 0;
  double ci95 = 0;  // half-width; 0 with fewer than two samples
  double min = 0;
  double max = 0;
  std::size_t n = 0;
};

// The two-sided 95% critical value of Student's t (its 0.975 quantile, from Boost.Math); 0 for
// no degrees of freedom.
double student_t_975(std::size_t degrees_of_freedom);
Summary summarize(const std::vector<double>& samples);
Summary summarize_difference(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace goodput
