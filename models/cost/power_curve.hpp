// Power -> speed of a GPU's compute, piecewise linear through data points (power multiplier of
// the nominal power, speed multiplier). Past the last point: `linear` continues the last
// segment's slope (an extrapolation), `flat` gains no further speed (/cost/curve_extension).
// Below the first point the first segment's slope. Default points: the NTP paper's TP30
// measurements, speed = power x (1 - perf/W loss): (1, 1), (1.1, 1.1 x 0.972), (1.2, 1.2 x
// 0.935).
#pragma once

#include <limits>
#include <vector>

namespace goodput {

class PowerCurve {
 public:
  PowerCurve();  // the paper's points, linear extension
  // Strictly increasing points.
  PowerCurve(std::vector<double> power, std::vector<double> speed, bool flat = false);
  double speed(double power) const;
  // The smallest power whose speed is >= s (s >= speed(first point)); may exceed any cap;
  // infinity when a flat curve never reaches s.
  double power_for_speed(double s) const;
  // The highest power that still buys speed: the last point when flat, else unbounded.
  double useful_power() const {
    return flat_ ? p_.back() : std::numeric_limits<double>::infinity();
  }
  bool flat() const { return flat_; }

 private:
  std::vector<double> p_, s_;
  bool flat_ = false;
};

}  // namespace goodput
