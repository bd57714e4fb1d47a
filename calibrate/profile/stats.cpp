#include "calibrate/profile/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace goodput::calib {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("quantile of an empty series");
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

SampleStats summarize(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("summary of an empty series");
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  SampleStats s;
  s.samples = static_cast<int>(sorted.size());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = quantile_sorted(sorted, 0.5);
  s.p10 = quantile_sorted(sorted, 0.1);
  s.p90 = quantile_sorted(sorted, 0.9);
  double sum = 0.0;
  for (double x : sorted) sum += x;
  const double n = static_cast<double>(sorted.size());
  s.mean = sum / n;
  if (sorted.size() > 1 && s.median > 0.0) {
    double ss = 0.0;
    for (double x : sorted) ss += (x - s.mean) * (x - s.mean);
    const double stddev = std::sqrt(ss / (n - 1.0));
    s.rel_stderr = stddev / std::sqrt(n) / s.median;
  }
  s.spread = s.median > 0.0 ? (s.p90 - s.p10) / s.median : 0.0;
  return s;
}

}  // namespace goodput::calib
