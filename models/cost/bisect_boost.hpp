// bisect_boost: the least power multiplier that does what a boost must, by bisection. Used by
// the cost model (a degraded or slow group's least power) and by ntp's replica figures (each
// degree lowered to the least power that keeps what its replica keeps).
#pragma once

namespace goodput {

// The smallest power in [1, max_power] (to 1e-9) at which keeps_pace(power) holds, by bisection
// (keeps_pace non-decreasing in power); max_power when even that does not hold.
template <class KeepsPace>
double bisect_boost(double max_power, KeepsPace&& keeps_pace) {
  if (keeps_pace(1.0)) return 1.0;
  if (!keeps_pace(max_power)) return max_power;
  double lo = 1.0, hi = max_power;  // !keeps_pace(lo), keeps_pace(hi)
  for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
    const double mid = (lo + hi) / 2;
    (keeps_pace(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace goodput
