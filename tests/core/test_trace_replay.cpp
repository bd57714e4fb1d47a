// Replaying a real trace: what the simulator reports (faults, GPU-hours down, peak concurrent
// failed GPUs) must agree with the trace itself, computed here independently of the simulator.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "models/trace/trace.hpp"
#include "sim/run/single_run.hpp"
#include "support.hpp"

using namespace goodput;

TEST_CASE("InfiniteHBD replay agrees with the trace: faults, down GPU-hours, peak") {
  const std::string scenario = GOODPUT_SOURCE_DIR "/scenarios/infinitehbd-replay.json";
  const std::string trace_path =
      GOODPUT_SOURCE_DIR "/../shared/data/traces/infinitehbd-fault-trace.json";
  if (!std::filesystem::exists(trace_path)) {
    MESSAGE("skipped: " << trace_path << " not found (shared/ is not beside the repository)");
    return;
  }
  const RunPlan plan = make_plan(load_scenario(scenario));
  const RunMetrics m = simulate(plan, faults_for(plan, 0), *plan.scenario.strategy("dp_drop"));

  // Independent reading: per node, the union of its fault intervals, clipped to the horizon.
  const auto tr = trace::read_trace(trace_path, trace::parse_format("infinitehbd-json", "", ""));
  std::map<std::string, std::vector<std::pair<double, double>>> by_node;
  std::map<std::string, int> depth;
  std::map<std::string, double> opened;
  const double horizon = plan.scenario.horizon_hours;
  std::int64_t starts = 0;
  for (const auto& e : tr.events) {
    if (e.start) {
      if (e.time_hours < horizon) ++starts;
      if (depth[e.component]++ == 0) opened[e.component] = e.time_hours;
    } else if (--depth[e.component] == 0) {
      by_node[e.component].push_back({opened[e.component], e.time_hours});
    }
  }
  double node_hours = 0;
  std::vector<std::pair<double, int>> edges;
  for (const auto& [node, spans] : by_node)
    for (auto [a, b] : spans) {
      if (a >= horizon) continue;
      b = std::min(b, horizon);
      node_hours += b - a;
      edges.push_back({a, +1});
      edges.push_back({b, -1});
    }
  std::sort(edges.begin(), edges.end());  // ends (-1) before starts (+1) at equal times
  int now = 0, peak = 0;
  for (const auto& [t, d] : edges) peak = std::max(peak, now += d);

  CHECK(m.failures == starts);
  CHECK(m.gpu_hours_down == doctest::Approx(8 * node_hours).epsilon(1e-6));
  CHECK(m.peak_failed_gpus == 8 * peak);
}
