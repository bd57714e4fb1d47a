// A sweep: the cross product of axis values, each point a full Monte Carlo run of the
// scenario with the axis values set by JSON pointer. Printed as points.csv (tidy: one row per
// point x strategy x seed, runs.csv's columns after the axis values: runs_csv.hpp), sweep.json (per
// point and strategy: Goodput mean / CI and badput) and report.md (Goodput and the main loss per
// point), plus the full report of every point under point-NNN/ and report.html. Placement and
// replacement: output_dir.hpp.
#pragma once

#include <string>
#include <vector>

#include "sim/report/report.hpp"

namespace goodput {

struct SweepAxis {
  std::string pointer;
  std::vector<std::string> values;  // as given (parsed as JSON where they parse)
};

struct SweepPoint {
  std::vector<std::string> values;  // one per axis
  RunPlan plan;
  Report report;  // its plan pointer refers to `plan` (kept alive here)
};

struct Sweep {
  std::string scenario_file;
  std::vector<std::string> command;  // that reproduces it (command_record.hpp); may be empty
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;
  Json seek;  // goal seek: metric, comparison, target, rule, strategy, evaluations, answer (else
              // null)
};

SweepAxis parse_axis(const std::string& text);  // "/json/pointer=v1,v2,..."
// How many values parse_axis would give `text` (duplicates counted), found without expanding
// its ranges; throws the InputErrors parse_axis throws. The sweep's points are the product.
double count_axis_values(const std::string& text);
// The most points one sweep may have (README "Work budget"): a larger one is refused before
// any axis is expanded, and is split into several sweeps.
inline constexpr double kMaxSweepPoints = 100000;
std::vector<std::vector<std::string>> axis_product(const std::vector<SweepAxis>& axes);
void write_sweep_files(const Sweep& sweep, const std::filesystem::path& dir);  // into `dir`
void write_sweep(const Sweep& sweep,
                 const std::string& directory);  // claimed and published (output_dir.hpp)

}  // namespace goodput
