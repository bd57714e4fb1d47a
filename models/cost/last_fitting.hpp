// last_fitting: the boundary a bisection over a grid finds, in fewer evaluations. Used by the
// cost model for a degraded replica's shortened last micro-batch (its fraction on a 2^-40 grid),
// where each evaluation is a whole pipeline schedule.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace goodput {

// The largest grid point j in [0, n) with time(j) <= limit, time non-decreasing in j: j = 0 is
// taken to fit and n known not to (time(n) = t_n). The answer bisection gives, reached in fewer
// evaluations: each step tries where the line through the last two times crosses the limit (a
// schedule's time is piecewise linear in the last micro-batch's fraction, so within the piece
// that crosses it the line is exact and the next two steps close the bracket), kept inside the
// bracket, and halves the bracket instead when two steps in a row did not.
template <class Time>
std::int64_t last_fitting(std::int64_t n, double t_n, double limit, Time&& time) {
  std::int64_t a = 0, b = n;     // time(a) <= limit (a = 0 assumed), time(b) > limit
  std::int64_t p0 = -1, p1 = n;  // the last two points evaluated (p0 < 0: only one)
  double t0 = 0, t1 = t_n;
  int slow = 0;  // steps in a row that did not halve the bracket
  while (b - a > 1) {
    const std::int64_t width = b - a;
    std::int64_t j = a + width / 2;
    if (p0 >= 0 && t1 != t0 && slow < 2) {
      const double r =
          static_cast<double>(p1) + (limit - t1) * (static_cast<double>(p1 - p0) / (t1 - t0));
      if (std::isfinite(r))
        j = std::clamp(static_cast<std::int64_t>(std::floor(
                           std::clamp(r, static_cast<double>(a), static_cast<double>(b)))),
                       a + 1, b - 1);
    } else {
      slow = 0;
    }
    const double t = time(j);
    (t <= limit ? a : b) = j;
    p0 = p1;
    t0 = t1;
    p1 = j;
    t1 = t;
    slow = 2 * (b - a) > width ? slow + 1 : 0;
  }
  return a;
}

}  // namespace goodput
