#include "models/cost/power_curve.hpp"

#include <limits>
#include <stdexcept>

namespace goodput {

PowerCurve::PowerCurve()
    : PowerCurve({1.0, 1.1, 1.2}, {1.0, 1.1 * (1 - 0.028), 1.2 * (1 - 0.065)}) {}

PowerCurve::PowerCurve(std::vector<double> power, std::vector<double> speed, bool flat)
    : p_(std::move(power)), s_(std::move(speed)), flat_(flat) {
  if (p_.size() < 2 || p_.size() != s_.size())
    throw std::invalid_argument("power curve needs >= 2 (power, speed) points");
  for (std::size_t i = 1; i < p_.size(); ++i)
    if (!(p_[i] > p_[i - 1]) || !(s_[i] > s_[i - 1]))
      throw std::invalid_argument("power curve points must increase in power and speed");
}

double PowerCurve::speed(double power) const {
  if (flat_ && power >= p_.back()) return s_.back();
  std::size_t i = 1;
  while (i + 1 < p_.size() && power > p_[i]) ++i;
  const double f = (power - p_[i - 1]) / (p_[i] - p_[i - 1]);
  return s_[i - 1] + f * (s_[i] - s_[i - 1]);
}

double PowerCurve::power_for_speed(double s) const {
  if (flat_ && s > s_.back()) return std::numeric_limits<double>::infinity();
  std::size_t i = 1;
  while (i + 1 < s_.size() && s > s_[i]) ++i;
  const double f = (s - s_[i - 1]) / (s_[i] - s_[i - 1]);
  return p_[i - 1] + f * (p_[i] - p_[i - 1]);
}

}  // namespace goodput
