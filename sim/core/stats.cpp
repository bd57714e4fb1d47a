#include "sim/core/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <stdexcept>

namespace goodput {

double student_t_975(std::size_t df) {
  if (df == 0) return 0;
  const boost::math::students_t t(static_cast<double>(df));
  return boost::math::quantile(boost::math::complement(t, 0.025));
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
