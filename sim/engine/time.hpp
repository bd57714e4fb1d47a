// Simulated time: a signed 64-bit count of milliseconds since the start of a run.
// A year is 3.2e10 ms, far inside int64; conversions round to the nearest millisecond.
// Durations saturate: anything at or beyond kTimeInfinity (about 73 million years; e.g. a
// checkpoint interval of 1e16 s, "practically never") becomes kTimeInfinity, which means
// "never" and leaves room to add a few of them without overflow. NaN and negative inputs
// become 0 (inputs are range-checked before they get here).
#pragma once

#include <cmath>
#include <cstdint>

namespace goodput {

using Time = std::int64_t;  // milliseconds

inline constexpr Time kMillisPerSecond = 1000;
inline constexpr Time kMillisPerHour = 3600 * kMillisPerSecond;
inline constexpr Time kTimeInfinity = INT64_MAX / 4;
inline constexpr double kHoursPerYear = 365.25 * 24;  // a Julian year: 8766 h

inline Time from_millis(double ms) {
  if (!(ms > 0)) return 0;
  if (ms >= static_cast<double>(kTimeInfinity)) return kTimeInfinity;
  return static_cast<Time>(std::llround(ms));
}
inline Time from_seconds(double s) {
  return from_millis(s * 1000.0);
}
inline Time from_hours(double h) {
  return from_millis(h * 3600.0 * 1000.0);
}
// a + b, saturating at kTimeInfinity (both non-negative durations or times).
inline Time add_saturating(Time a, Time b) {
  return a >= kTimeInfinity - b ? kTimeInfinity : a + b;
}
inline double to_seconds(Time t) {
  return static_cast<double>(t) / 1000.0;
}
inline double to_hours(Time t) {
  return static_cast<double>(t) / (3600.0 * 1000.0);
}

}  // namespace goodput
