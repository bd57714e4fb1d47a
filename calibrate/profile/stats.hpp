// Summary statistics of a series of timing samples.
// Contract: summarize() takes the raw samples (seconds, any order, at least one) and returns
// order statistics plus dispersion; quantiles interpolate linearly between order statistics
// (type 7, as numpy's default). Throws std::invalid_argument on an empty series.
#pragma once

#include <span>

namespace goodput::calib {

struct SampleStats {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double p10 = 0.0;
  double p90 = 0.0;
  double spread = 0.0;      // (p90 - p10) / median
  double rel_stderr = 0.0;  // sample stddev / sqrt(n) / median; 0 for n == 1
  int samples = 0;
};

SampleStats summarize(std::span<const double> samples);

// q in [0, 1]; `sorted` must be ascending and non-empty.
double quantile_sorted(std::span<const double> sorted, double q);

}  // namespace goodput::calib
