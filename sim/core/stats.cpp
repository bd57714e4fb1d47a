#include "sim/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace goodput {

double student_t_975(std::size_t df) {
  static const double kTable[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                  2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                  2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                  2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return 0;
  if (df <= 30) return kTable[df];
  // Cornish-Fisher expansion of the t quantile around the normal quantile z = 1.959964.
  const double z = 1.959963984540054, v = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z;
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

Summary summarize(const std::vector<double>& x) {
  Summary s;
  s.n = x.size();
  if (x.empty()) return s;
  double sum = 0;
  for (double v : x) sum += v;
  s.mean = sum / static_cast<double>(x.size());
  s.min = *std::min_element(x.begin(), x.end());
  s.max = *std::max_element(x.begin(), x.end());
  if (x.size() >= 2) {
    double ss = 0;
    for (double v : x) ss += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(ss / static_cast<double>(x.size() - 1));
    s.ci95 = student_t_975(x.size() - 1) * s.stddev / std::sqrt(static_cast<double>(x.size()));
  }
  return s;
}

Summary summarize_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::logic_error("paired samples of different sizes");
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return summarize(d);
}

}  // namespace goodput
