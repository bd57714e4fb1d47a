// report.html printers: the same result model as report.json / report.md, drawn with
// Vega-Lite (Goodput per strategy with 95% CIs, badput as stacked bars, time in state; for a
// sweep, Goodput vs each axis with CI bands). Time in state groups the badput buckets, which
// are ideal-time equivalents summing with Goodput to the wall time.
#pragma once

#include <array>
#include <string>

#include "sim/report/sweep_report.hpp"

namespace goodput {

inline constexpr std::array<const char*, 4> kStates = {"running", "degraded", "stalled", "waiting"};
// Share of wall time per state: running = Goodput; degraded = DEGRADED_CAPACITY +
// RESHARD_OVERHEAD; stalled = recovery, checkpoint save/restore and rolled-back work;
// waiting = WAITING_FOR_CAPACITY.
std::array<double, 4> time_in_state(const StrategySummary& s);

std::string report_html(const Report& report);
std::string sweep_html(const Sweep& sweep);

}  // namespace goodput
