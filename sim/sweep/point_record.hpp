// A finished sweep point on disk: its axis values, resolved scenario, seeds used and every
// run's metrics, lossless (doubles round-trip through JSON), so a resumed sweep rebuilds the
// same report bytes as an uninterrupted one. Written to a temporary name, then renamed.
#pragma once

#include <optional>
#include <string>

#include "sim/sweep/sweep_report.hpp"

namespace goodput {

// Every run's metrics of a point, lossless, and back (also the MPI layer's wire format).
Json runs_to_json(const std::vector<StrategyRuns>& runs);
std::vector<StrategyRuns> runs_from_json(const Json& j);

// The plan's checkpoint pilot (RunPlan::Pilot), and back (nullopt: absent or malformed, so the
// pilot runs again): carried by point records and the MPI replies.
Json pilot_to_json(const RunPlan::Pilot& pilot);
std::optional<RunPlan::Pilot> pilot_from_json(const Json& j);

void write_point_record(const SweepPoint& point, int index, const std::string& path);
// The record's runs if the file exists and its scenario equals `expected` (ignoring /seeds
// when `any_seeds`); nullopt if absent; throws InputError if it belongs to another scenario.
// `pilot` (optional) receives the record's checkpoint pilot when it has one.
std::optional<std::vector<StrategyRuns>> read_point_record(
    const std::string& path, const Json& expected, bool any_seeds, int& seeds,
    std::optional<RunPlan::Pilot>* pilot = nullptr);

}  // namespace goodput
