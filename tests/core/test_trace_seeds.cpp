// What a trace replay's seeds vary (issue 29 item 3, sim/run/trace_sampling.hpp): windows at
// random offsets into a longer trace stay inside it and differ by seed; a random placement of the
// trace's nodes; a replay where nothing varies is declared deterministic and shows no CI and no
// significance; the same seed gives the same bytes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sim/report/report.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

namespace {

namespace fs = std::filesystem;

// 100 faults of 3 h, one every 10 h, on nodes 0 and 1 only (i^2 mod 4), so where a placement
// puts them matters: the trace spans 994 h (its last event).
std::string long_trace() {
  const fs::path dir = fs::temp_directory_path() / "goodput-trace-seeds-test";
  fs::create_directories(dir);
  const fs::path p = dir / "long.csv";
  std::ofstream out(p, std::ios::binary);
  out << "time_hours,component,event,class\n";
  for (int i = 0; i < 100; ++i) {
    const std::string node = "node/" + std::to_string((i * i) % 4);
    out << i * 10 + 1 << "," << node << ",fault_start,GPU\n"
        << i * 10 + 4 << "," << node << ",fault_end,GPU\n";
  }
  return p.string();
}

Scenario trace_scenario(double horizon, int seeds, const std::string& vary) {
  Json j = test::small_scenario();
  j["horizon_hours"] = horizon;
  j["seeds"] = seeds;
  j["failures"] = {{"model", "trace"},
                   {"trace", {{"path", long_trace()}, {"format", "csv"}, {"seeds_vary", vary}}}};
  return test::scenario_from(j);
}

Report report_of(const RunPlan& plan) {
  return build_report(plan, run_monte_carlo(plan, 1));
}

}  // namespace

TEST_CASE("window offsets stay inside the trace, differ by seed and keep the faults they cover") {
  const RunPlan plan = make_plan(trace_scenario(100, 1, "window"));
  const TraceSampling& ts = plan.trace_sampling;
  REQUIRE(ts.window);
  CHECK_FALSE(ts.placement);
  CHECK(ts.span_hours == 994);
  CHECK(ts.slack_hours == 894);
  CHECK(ts.independent_windows == 9);
  std::set<double> offsets;
  for (int run = 0; run < 200; ++run) {
    const double o = window_offset_hours(ts, plan.scenario.seed, static_cast<std::uint64_t>(run));
    CHECK(o >= 0);
    CHECK(o <= ts.slack_hours);
    offsets.insert(o);
    // The run's faults are the trace's faults that overlap [o, o + horizon), shifted by -o.
    const FaultList f = faults_for(plan, run);
    std::size_t expected = 0;
    for (const Fault& x : plan.trace_faults->faults)
      if (to_hours(x.end) > o && to_hours(x.start) < o + 100) ++expected;
    CHECK(f.faults.size() == expected);
    for (const Fault& x : f.faults) {
      CHECK(x.start >= 0);
      CHECK(x.start < plan.horizon);
      CHECK(x.end > x.start);
    }
  }
  CHECK(offsets.size() == 200);
  // The same seed and run: the same faults.
  const FaultList a = faults_for(plan, 3), b = faults_for(plan, 3);
  REQUIRE(a.faults.size() == b.faults.size());
  for (std::size_t i = 0; i < a.faults.size(); ++i) {
    CHECK(a.faults[i].start == b.faults[i].start);
    CHECK(a.faults[i].component == b.faults[i].component);
  }
}

TEST_CASE("placement permutes the trace's nodes, GPUs following their node") {
  const RunPlan plan = make_plan(trace_scenario(2000, 1, "placement"));
  const TraceSampling& ts = plan.trace_sampling;
  CHECK_FALSE(ts.window);  // the trace is shorter than the run
  REQUIRE(ts.placement);
  std::set<std::uint32_t> first_nodes;
  for (int run = 0; run < 40; ++run) {
    const FaultList f = faults_for(plan, run);
    REQUIRE(f.faults.size() == plan.trace_faults->faults.size());
    // The trace's node k is always placed on one node: a permutation, per run.
    std::map<std::uint32_t, std::uint32_t> placed;
    for (std::size_t i = 0; i < f.faults.size(); ++i) {
      CHECK(f.faults[i].start == plan.trace_faults->faults[i].start);
      const auto from = plan.trace_faults->faults[i].component, to = f.faults[i].component;
      CHECK(plan.topology->kind(to) == ComponentKind::Node);
      auto [it, fresh] = placed.emplace(from, to);
      CHECK(it->second == to);
    }
    std::set<std::uint32_t> images;
    for (auto [from, to] : placed) images.insert(to);
    CHECK(images.size() == placed.size());
    first_nodes.insert(placed.begin()->second);
  }
  CHECK(first_nodes.size() > 1);
}

TEST_CASE("a replay's CIs are zero only when it is declared deterministic") {
  struct Case {
    double horizon;
    const char* vary;
    bool deterministic;
  };
  for (const Case c :
       {Case{100, "window", false}, Case{2000, "window", true}, Case{2000, "placement", false},
        Case{100, "both", false}, Case{100, "none", true}}) {
    CAPTURE(c.horizon);
    CAPTURE(std::string(c.vary));
    for (int seeds : {1, 20}) {
      CAPTURE(seeds);
      const RunPlan plan = make_plan(trace_scenario(c.horizon, seeds, c.vary));
      CHECK(plan.deterministic_replay() == c.deterministic);
      const Report rep = report_of(plan);
      CHECK(rep.deterministic == c.deterministic);
      const Json j = report_json(rep);
      CHECK(j.at("trace").at("deterministic") == c.deterministic);
      CHECK(j.at("verdict").at("deterministic") == c.deterministic);
      const std::string verdict = verdict_paragraph(rep, false);
      bool spread = false;
      for (const auto& s : rep.strategies) {
        // One run shown: no CI. Several seeds that vary: a CI from the runs themselves.
        CHECK(s.goodput.n == (c.deterministic || seeds == 1 ? 1u : 20u));
        if (s.goodput.n < 2) CHECK(s.goodput.ci95 == 0);
        spread = spread || s.goodput.ci95 > 0;
      }
      CHECK(spread == (!c.deterministic && seeds == 20));
      if (c.deterministic) {
        CHECK_FALSE(rep.decided);
        CHECK(j.at("verdict").at("significant") == false);
        CHECK(verdict.find("significant at 95%") == std::string::npos);
        CHECK(j.at("trace").at("statistics").get<std::string>().find("deterministic") !=
              std::string::npos);
        if (seeds == 20) CHECK(verdict.find("deterministic") != std::string::npos);
      }
      CHECK(report_markdown(rep).find("Trace statistics: ") != std::string::npos);
    }
  }
}

TEST_CASE("a replay with windows: the same seed gives the same bytes, another seed others") {
  auto bytes = [](std::uint64_t seed) {
    Scenario s = trace_scenario(100, 8, "both");
    s.seed = seed;
    const RunPlan plan = make_plan(s);
    Report rep = report_of(plan);
    return report_json(rep).dump() + runs_csv(rep);
  };
  CHECK(bytes(5) == bytes(5));
  CHECK(bytes(5) != bytes(6));
}
