// Simulated time: a signed 64-bit count of milliseconds since the start of a run.
// A year is 3.2e10 ms, far inside int64; conversions round to the nearest millisecond.
#pragma once

#include <cmath>
#include <cstdint>

namespace goodput {

using Time = std::int64_t;  // milliseconds

inline constexpr Time kMillisPerSecond = 1000;
inline constexpr Time kMillisPerHour = 3600 * kMillisPerSecond;
inline constexpr Time kTimeInfinity = INT64_MAX / 4;

inline Time from_seconds(double s) { return static_cast<Time>(std::llround(s * 1000.0)); }
inline Time from_hours(double h) { return static_cast<Time>(std::llround(h * 3600.0 * 1000.0)); }
inline double to_seconds(Time t) { return static_cast<double>(t) / 1000.0; }
inline double to_hours(Time t) { return static_cast<double>(t) / (3600.0 * 1000.0); }

}  // namespace goodput
