// timeline.json: valid Chrome-trace JSON; each strategy's phases tile [0, horizon).
#include <doctest/doctest.h>

#include <map>

#include "sim/report/timeline.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

TEST_CASE("the recorder merges repeats and drops zero-length phases") {
  TimelineRecorder r(100);
  r.phase(0, Phase::running(1));
  r.phase(10, Phase::running(1));  // same: merged
  r.phase(20, Phase::stalled(Bucket::InfrastructureRecovery));
  r.phase(20, Phase::running(0.5));  // replaces the zero-length stall
  r.phase(50, Phase::stalled(Bucket::WaitingForCapacity));
  r.phase(150, Phase::running(1));  // past the horizon: ignored
  r.finish();
  REQUIRE(r.phases().size() == 3);
  CHECK(r.phases()[0].name == "running");
  CHECK(r.phases()[0].end == 20);
  CHECK(r.phases()[1].name == "degraded");
  CHECK(r.phases()[2].name == "waiting for capacity");
  CHECK(r.phases()[2].end == 100);
}

TEST_CASE("checkpoint saves come from the running phase's cycle") {
  TimelineRecorder r(100);
  Phase run = Phase::running(1);
  run.cycle = {0, 10, 2, 5};  // saves start at 10, 22, 34, ... and block for 2
  r.phase(0, run);
  r.phase(30, Phase::stalled(Bucket::InfrastructureRecovery));  // no saves while stalled
  r.phase(40, Phase::running(1));                               // no cycle: no saves
  r.finish();
  REQUIRE(r.saves().size() == 2);
  CHECK(r.saves()[0].start == 10);
  CHECK(r.saves()[0].end == 12);
  CHECK(r.saves()[1].start == 22);
  CHECK(r.saves()[1].end == 24);
}

TEST_CASE("timeline.json is a Chrome trace whose phases tile the horizon per strategy") {
  const RunPlan plan = make_plan(small_at({"/cluster/spare_domains=2", "/failures/rate_scale=60"}));
  const std::string text = record_timeline(plan, 0).json;
  const Json j = Json::parse(text);  // throws if not JSON
  CHECK(j["displayTimeUnit"] == "ms");
  REQUIRE(j["traceEvents"].is_array());
  std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>> phases;
  int faults = 0, names = 0;
  for (const auto& e : j["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    if (e["ph"] == "M") ++names;
    if (e["ph"] == "X" && e["pid"] == 0) ++faults;
    if (e["ph"] == "X" && e["pid"] != 0 && e["tid"] == 1)
      phases[e["pid"].get<int>()].emplace_back(e["ts"].get<std::int64_t>(),
                                               e["dur"].get<std::int64_t>());
  }
  CHECK(faults > 0);
  CHECK(names > 0);
  REQUIRE(phases.size() == plan.scenario.strategies.size());
  for (const auto& entry : phases) {
    const int pid = entry.first;  // not a structured binding: clang cannot capture one in INFO
    INFO("pid " << pid);
    std::int64_t t = 0;
    for (const auto& [ts, dur] : entry.second) {
      CHECK(ts == t);
      CHECK(dur > 0);
      t = ts + dur;
    }
    CHECK(t == plan.horizon * 1000);
  }
}

TEST_CASE("a Monte Carlo records a run's timeline while it simulates it, results unchanged") {
  const RunPlan plan =
      make_plan(small_at({"/cluster/spare_domains=2", "/failures/rate_scale=60", "/seeds=4"}));
  const std::vector<StrategyRuns> plain = run_monte_carlo(plan, 2);
  for (int run : {0, 2}) {
    CAPTURE(run);
    TimelineRecording recording(plan);
    RecordedTimeline got;
    int done_calls = 0;
    const RunWatch watch{run, [&] { return recording.observers(); },
                         [&](const FaultList& faults) {
                           ++done_calls;
                           got = recording.finish(run, faults);
                         }};
    const std::vector<StrategyRuns> watched = run_monte_carlo(plan, 2, {}, 0, &watch);
    CHECK(done_calls == 1);
    CHECK(got.json == record_timeline(plan, run).json);
    REQUIRE(watched.size() == plain.size());
    for (std::size_t s = 0; s < plain.size(); ++s)
      for (std::size_t r = 0; r < plain[s].runs.size(); ++r) {
        CHECK(watched[s].runs[r].goodput == plain[s].runs[r].goodput);
        CHECK(watched[s].runs[r].events == plain[s].runs[r].events);
      }
  }
}

TEST_CASE("snapshot scenarios have no timeline") {
  const RunPlan plan = make_plan(small_at({"/mode=snapshot", "/failures/failed_fraction=0.05"}));
  CHECK(record_timeline(plan, 0).empty());
}

TEST_CASE("the recorder keeps every job phase, however many") {
  TimelineRecorder r(1'000'000, 10);  // the cap no longer applies to job phases
  for (Time t = 0; t < 1000; ++t)
    r.phase(t * 1000, t % 2 ? Phase::stalled(Bucket::InfrastructureRecovery) : Phase::running(1));
  r.finish();
  CHECK(r.phases().size() == 1000);
  CHECK(!r.truncated());
  CHECK(r.phases().back().end == 1'000'000);
}

TEST_CASE("timeline columns: shares tile each column and a short stall shows at its share") {
  // 10 columns of 1 s; a 75 ms stall in column 3, a degraded stretch over columns 6-9.
  const std::vector<TimelineCell> cells =
      timeline_columns({{0, 3000, "running", 1, 0},
                        {3000, 3075, "stalled (recovery)", 0, 0},
                        {3075, 6000, "running", 1, 0},
                        {6000, 10000, "degraded", 0.99, 0}},
                       10000, 10);
  // Columns 0-2 one running cell; column 3 running + stall; 4-5 running; 6-9 degraded.
  std::map<Time, double> tiled;  // column start -> sum of shares
  for (const TimelineCell& c : cells) {
    CHECK(c.hi > c.lo);
    CHECK(c.lo >= 0);
    CHECK(c.hi <= 1);
    for (Time col = c.start; col < c.end; col += 1000) tiled[col] += c.hi - c.lo;
  }
  CHECK(tiled.size() == 10);
  for (const auto& [col, sum] : tiled) CHECK(sum == doctest::Approx(1).epsilon(1e-12));
  int stalls = 0;
  for (const TimelineCell& c : cells)
    if (c.phase == "stalled (recovery)") {
      ++stalls;
      CHECK(c.start == 3000);
      CHECK(c.end == 4000);
      CHECK(c.hi - c.lo == doctest::Approx(0.075).epsilon(1e-12));
    }
  CHECK(stalls == 1);
  // A 0.99-rate degraded stretch paints its own columns only, and neighbouring equal columns
  // are one cell.
  int degraded = 0;
  for (const TimelineCell& c : cells)
    if (c.phase == "degraded") {
      ++degraded;
      CHECK(c.start == 6000);
      CHECK(c.end == 10000);
    }
  CHECK(degraded == 1);
  CHECK(cells.front().end == 3000);  // columns 0-2 merged
}
