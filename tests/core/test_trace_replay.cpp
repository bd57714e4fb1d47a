// Replaying a real trace: what the simulator reports (faults, GPU-hours down, peak concurrent
// failed GPUs) must agree with the trace itself, computed here independently of the simulator.
// Traces as logs are: repeated and nested records replay as one fault, 65,537 classes, the work
// budget counts trace faults, and a trace is parsed once per process.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "models/trace/trace.hpp"
#include "sim/core/error.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/work_budget.hpp"
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

  // Independent reading: per node, the union of its fault intervals (a fault starting when the
  // last one ends continues it), clipped to the horizon; one fault per stretch of downtime.
  const auto tr = trace::read_trace(trace_path, trace::parse_format("infinitehbd-json", "", ""));
  std::map<std::string, std::vector<std::pair<double, double>>> by_node;
  std::map<std::string, int> depth;
  std::map<std::string, double> opened;
  const double horizon = plan.scenario.horizon_hours;
  std::int64_t records = 0;
  for (const auto& e : tr.events) {
    if (e.start) {
      records += 1;
      auto& spans = by_node[e.component];
      if (depth[e.component]++ > 0) continue;
      opened[e.component] = e.time_hours;
      if (!spans.empty() && spans.back().second == e.time_hours) {  // touching: one stretch
        opened[e.component] = spans.back().first;
        spans.pop_back();
      }
    } else if (--depth[e.component] == 0) {
      by_node[e.component].push_back({opened[e.component], e.time_hours});
    }
  }
  std::int64_t starts = 0;
  for (const auto& [node, spans] : by_node)
    for (const auto& span : spans) starts += span.first < horizon ? 1 : 0;
  CHECK(plan.trace_records.records == static_cast<std::size_t>(records));
  CHECK(plan.trace_records.merged == 2);  // one server's faults overlap twice
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

namespace {

namespace fs = std::filesystem;

std::string write_trace(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "goodput-trace-replay-test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// A trace replay on the small cluster (4 HGX-8 nodes, TP8 x DP3 and a spare), checkpoints at
// Daly's interval from the job's fault rate, so every rate the strategies use counts.
Scenario trace_scenario(const std::string& trace_path, const std::string& policy = "daly") {
  Json j = test::small_scenario();
  j["horizon_hours"] = 200;
  j["failures"] = {
      {"model", "trace"},
      {"trace", {{"path", trace_path}, {"format", "csv"}, {"restart_only_classes", {"Software"}}}}};
  j["checkpoint"] = {{"interval", policy}, {"save_s", 60}, {"load_s", 300}};
  j["strategies"]["ntp"] = Json::object();
  return test::scenario_from(j);
}

// Faults on GPUs, nodes and a rack, some restart-only, none overlapping another record of
// its component; each record (start and end line) listed `times` times; with `nested`, every
// fault also holds a shorter record of its class inside it.
std::string trace_text(int times, bool nested) {
  struct Rec {
    double start, end;
    const char* component;
    const char* cls;
  };
  const std::vector<Rec> recs = {{2, 30, "gpu/3", "GPU"},       {10, 12, "node/1", "Software"},
                                 {40, 90, "node/2", "GPU"},     {41, 45, "gpu/9", "GPU"},
                                 {95, 96, "gpu/3", "Software"}, {120, 150, "rack/0", "Network"},
                                 {160, 400, "gpu/20", "GPU"}};
  std::vector<std::pair<double, std::string>> lines;
  for (const Rec& r : recs) {
    const std::string c = std::string(",") + r.component + ",";
    for (int k = 0; k < times; ++k) {
      lines.push_back({r.start, std::to_string(r.start) + c + "fault_start," + r.cls});
      lines.push_back({r.end, std::to_string(r.end) + c + "fault_end," + r.cls});
    }
    if (nested) {
      const double a = r.start + 0.25 * (r.end - r.start), b = r.start + 0.5 * (r.end - r.start);
      lines.push_back({a, std::to_string(a) + c + "fault_start," + r.cls});
      lines.push_back({b, std::to_string(b) + c + "fault_end," + r.cls});
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::string out = "time_hours,component,event,class\n";
  for (const auto& l : lines) out += l.second + "\n";
  return out;
}

void check_same_runs(const std::vector<StrategyRuns>& a, const std::vector<StrategyRuns>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t s = 0; s < a.size(); ++s) {
    CAPTURE(a[s].strategy);
    REQUIRE(a[s].runs.size() == b[s].runs.size());
    for (std::size_t r = 0; r < a[s].runs.size(); ++r) {
      const RunMetrics& x = a[s].runs[r];
      const RunMetrics& y = b[s].runs[r];
      CHECK(x.goodput == y.goodput);
      CHECK(x.badput == y.badput);
      CHECK(x.failures == y.failures);
      CHECK(x.job_failures == y.job_failures);
      CHECK(x.interruptions == y.interruptions);
      CHECK(x.rollbacks == y.rollbacks);
      CHECK(x.checkpoints == y.checkpoints);
      CHECK(x.gpu_hours_down == y.gpu_hours_down);
      CHECK(x.events == y.events);
    }
  }
}

}  // namespace

TEST_CASE("a trace listing each fault 5 times, or nesting records, replays as listed once") {
  const RunPlan once = make_plan(trace_scenario(write_trace("once.csv", trace_text(1, false))));
  const auto base = run_monte_carlo(once, 1);
  CHECK(once.trace_records.records == 7);
  CHECK(once.trace_records.merged == 0);
  REQUIRE(once.job_faults_per_hour > 0);
  struct Variant {
    std::string name, text;
    std::size_t merged;
  };
  for (const Variant& v : {Variant{"five.csv", trace_text(5, false), 7 * 4},
                           Variant{"nested.csv", trace_text(1, true), 7},
                           Variant{"five-nested.csv", trace_text(5, true), 7 * 5}}) {
    CAPTURE(v.name);
    const RunPlan plan = make_plan(trace_scenario(write_trace(v.name, v.text)));
    CHECK(plan.trace_records.merged == v.merged);
    CHECK(plan.trace_faults->faults.size() == once.trace_faults->faults.size());
    CHECK(plan.job_faults_per_hour == once.job_faults_per_hour);
    REQUIRE(plan.checkpoints.size() == once.checkpoints.size());
    for (std::size_t i = 0; i < plan.checkpoints.size(); ++i)
      CHECK(plan.checkpoints[i].interval == once.checkpoints[i].interval);
    check_same_runs(run_monte_carlo(plan, 1), base);
  }
}

TEST_CASE("65,537 trace classes keep their own ids and restart-only flags") {
  std::string text = "time_hours,component,event,class\n";
  constexpr int kClasses = 65537;
  for (int i = 0; i < kClasses; ++i) {
    const std::string t = std::to_string(i);
    text += t + ",gpu/0,fault_start,c" + t + "\n" + t + ".5,gpu/0,fault_end,c" + t + "\n";
  }
  Scenario s = trace_scenario(write_trace("classes.csv", text), "fixed");
  s.failures.trace.restart_only_classes = {"c0"};
  s.horizon_hours = kClasses + 1;
  const RunPlan plan = make_plan(s);
  const FaultList& list = *plan.trace_faults;
  REQUIRE(list.faults.size() == kClasses);
  REQUIRE(list.classes.size() == kClasses);
  const Fault& last = list.faults.back();
  CHECK(last.fault_class == kClasses - 1);
  CHECK(list.classes[last.fault_class].name == "c65536");
  CHECK_FALSE(list.classes[last.fault_class].restart_only);
  CHECK(list.classes[list.faults.front().fault_class].restart_only);
}

TEST_CASE("the work budget counts a replayed trace's faults and their memory") {
  std::string text = "time_hours,component,event,class\n";
  for (int i = 0; i < 1000; ++i) {
    const std::string t = std::to_string(i * 0.1);
    text +=
        t + ",gpu/0,fault_start,GPU\n" + std::to_string(i * 0.1 + 0.05) + ",gpu/0,fault_end,GPU\n";
  }
  const Scenario s = trace_scenario(write_trace("many.csv", text), "fixed");
  const WorkEstimate w = estimate_work(s, 1);
  CHECK(w.failures_per_run == 1000);
  CHECK(w.events >= 1000 * s.seeds);
  const WorkEstimate none = estimate_work(test::scenario_from(test::small_scenario()), 1);
  CHECK(w.memory_bytes > none.memory_bytes + 2000 * 100);
  WorkBudget budget;
  budget.max_events = 10;
  CHECK_THROWS_AS(check_work_budget(w, budget, "s.json"), InputError);
}

TEST_CASE("a trace is parsed once per process: plans, the budget and break-even steps share it") {
  const std::string path = write_trace("parsed-once.csv", trace_text(2, true));
  const std::uint64_t before = trace::trace_parses();
  const Scenario s = trace_scenario(path);
  (void)estimate_work(s, 1);
  const RunPlan a = make_plan(s);
  const RunPlan b = make_plan(s);
  CHECK(trace::trace_parses() == before + 1);
  CHECK(a.trace_faults.get() == b.trace_faults.get());  // paired and merged once too
  CHECK(a.trace_records.merged == b.trace_records.merged);
  // What the verdict depends on: every bisection step plans the scenario again.
  std::vector<SensitivityParam> params;
  for (auto& p : default_params(s))
    if (p.pointer == "/recovery/restart_s") params.push_back(p);
  REQUIRE(params.size() == 1);
  int evaluations = 0;
  (void)run_sensitivity(s, params, monte_carlo_evaluator(1),
                        [&](const std::string&, double) { ++evaluations; });
  CHECK(evaluations >= 3);
  CHECK(trace::trace_parses() == before + 1);
}
