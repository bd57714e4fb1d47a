// Power -> speed of a GPU's compute, piecewise linear through data points (power multiplier,
// speed multiplier), extended linearly beyond the last segment. Default points: the NTP paper's
// TP30 measurements, speed = power x (1 - perf/W loss): (1, 1), (1.1, 1.1 x 0.972), (1.2, 1.2 x
// 0.935).
#pragma once

#include <vector>

namespace goodput {

class PowerCurve {
 public:
  PowerCurve();                                                      // the paper's points
  PowerCurve(std::vector<double> power, std::vector<double> speed);  // strictly increasing
  double speed(double power) const;
  // The smallest power whose speed is >= s (s >= speed(first point)); may exceed any cap.
  double power_for_speed(double s) const;

 private:
  std::vector<double> p_, s_;
};

}  // namespace goodput
