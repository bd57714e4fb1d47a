// Helpers for the report tests: the small statistical test scenario, a scratch folder per
// test, whole-file reads and a sweep run through the library (as `goodput sweep` does).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "models/scenario/scenario_loader.hpp"
#include "sim/report/timeline.hpp"
#include "sim/run/single_run.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace goodput::test {

inline const std::string kSmall = GOODPUT_REPORT_TEST_DATA "/small-stat.json";

inline std::string scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("goodput-report-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(dir.string() + ".partial");
  return dir.string();
}

// The vega-lite specs a report page embeds (its "chart-specs" script), by chart id.
inline Json specs_of(const std::string& html) {
  const std::string open = "<script id=\"chart-specs\" type=\"application/json\">";
  const auto a = html.find(open);
  REQUIRE(a != std::string::npos);
  const auto b = html.find("</script>", a);
  return Json::parse(html.substr(a + open.size(), b - a - open.size()));
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline Scenario small_at(const std::vector<std::string>& overrides) {
  return load_scenario(kSmall, overrides);
}

// The sweep over `axis` values of the small scenario, written to `dir`.
inline SweepOutcome sweep_small(const std::string& dir, const std::string& axis, SweepOptions opt,
                                std::vector<std::string> sets = {}) {
  Sweep sweep;
  sweep.scenario_file = kSmall;
  sweep.axes = {parse_axis(axis)};
  const auto combos = axis_product(sweep.axes);
  std::vector<Scenario> scenarios;
  for (const auto& v : combos) {
    auto o = sets;
    o.push_back(sweep.axes[0].pointer + "=" + v[0]);
    scenarios.push_back(small_at(o));
  }
  return run_sweep(sweep, scenarios, combos, opt, dir);
}

// Simulates run `run` of the plan again under each strategy with a timeline recorder attached
// (snapshot-mode plans have no timeline: an empty one). `goodput run` records its run 0 with a
// RunWatch instead (monte_carlo.hpp), without simulating it twice.
inline RecordedTimeline record_timeline(const RunPlan& plan, int run = 0) {
  if (plan.scenario.mode == RunMode::Snapshot) return {};
  const FaultList faults = faults_for(plan, run);
  TimelineRecording recording(plan);
  simulate_all(plan, faults, plan.scenario.strategies, recording.observers());  // every strategy
  return recording.finish(run, faults);
}

}  // namespace goodput::test
