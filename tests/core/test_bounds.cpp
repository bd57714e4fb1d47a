// Bounded, exact inputs (issue 9): durations saturate instead of wrapping the millisecond clock,
// integers given as floats are range-checked, sizes are 64-bit, and a saturated duration means
// "never" — the same result as any duration beyond the horizon.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "sim/core/error.hpp"
#include "sim/core/json_text.hpp"
#include "sim/run/single_run.hpp"
#include "sim/run/work_budget.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// Every strategy of the small scenario (hand-written faults) under `j`.
std::vector<RunMetrics> run_all(const Json& j, const FaultList& faults) {
  const RunPlan plan = make_plan(scenario_from(j));
  std::vector<RunMetrics> out;
  for (const auto& s : plan.scenario.strategies) out.push_back(simulate(plan, faults, s));
  return out;
}

void check_same(const std::vector<RunMetrics>& a, const std::vector<RunMetrics>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].goodput == b[i].goodput);
    CHECK(a[i].badput == b[i].badput);
    CHECK(a[i].checkpoints == b[i].checkpoints);
  }
}

}  // namespace

TEST_CASE("durations saturate at kTimeInfinity instead of wrapping") {
  CHECK(from_seconds(1e16) == kTimeInfinity);
  CHECK(from_hours(2.6e12) == kTimeInfinity);
  CHECK(from_seconds(1e300) == kTimeInfinity);
  CHECK(from_seconds(std::numeric_limits<double>::infinity()) == kTimeInfinity);
  CHECK(from_seconds(std::nan("")) == 0);
  CHECK(from_seconds(-5) == 0);
  CHECK(from_seconds(1.0004) == 1000);
  CHECK(from_hours(1) == kMillisPerHour);
  CHECK(add_saturating(kTimeInfinity, kTimeInfinity) == kTimeInfinity);
  CHECK(add_saturating(5, 7) == 12);
  // A few saturated durations still add up inside int64 (a stall of three such steps).
  CHECK(kTimeInfinity * 3 > kTimeInfinity);
}

TEST_CASE(
    "a checkpoint interval of 1e16 s means never: no saves, the same result as no checkpoints") {
  Json fixed = small_scenario(), none = small_scenario();
  fixed["checkpoint"]["interval_s"] = 1e16;
  none["checkpoint"]["interval"] = "none";
  const RunPlan plan = make_plan(scenario_from(fixed));
  const FaultList f = one_fault(*plan.topology, "gpu/0", 50, 52);
  const auto a = run_all(fixed, f);
  for (const auto& m : a) {
    CHECK(m.checkpoints == 0);
    CHECK(m.goodput > 0.4);  // before: a save every millisecond, Goodput 0
  }
  check_same(a, run_all(none, f));
}

TEST_CASE("a repair of 3e12 hours outlasts the run like any repair beyond the horizon") {
  Json huge = small_scenario(3, 4), long_ = small_scenario(3, 4);
  const RunPlan plan = make_plan(scenario_from(huge));
  FaultList a = one_fault(*plan.topology, "gpu/0", 10, 0);
  FaultList b = a;
  a.faults[0].end = a.faults[0].start + from_hours(3e12);  // wrapped to a 1 ms outage before
  b.faults[0].end = from_hours(1000);                      // beyond the 100 h horizon
  check_same(run_all(huge, a), run_all(long_, b));
}

TEST_CASE("huge detection and restart times stall to the end of the run, not into a loop") {
  Json huge = small_scenario(), beyond = small_scenario();
  huge["recovery"]["detection_s"] = 1e300;
  huge["recovery"]["restart_s"] = 1e300;
  beyond["recovery"]["detection_s"] = 1e7;  // also beyond the 100 h horizon
  beyond["recovery"]["restart_s"] = 1e7;
  const RunPlan plan = make_plan(scenario_from(huge));
  const FaultList f = one_fault(*plan.topology, "gpu/0", 50, 52);
  const auto a = run_all(huge, f);
  check_same(a, run_all(beyond, f));
  for (const auto& m : a) CHECK(m.goodput < 0.51);
}

TEST_CASE("integer keys given as floats are range-checked and must fit their field") {
  for (const char* ptr : {"/job/tp", "/job/pp", "/seeds"}) {
    CAPTURE(ptr);
    Json j = small_scenario();
    j[Json::json_pointer(ptr)] = 0.0;
    CHECK_THROWS_WITH_AS(scenario_from(j), doctest::Contains("out of range"), InputError);
  }
  Json j = small_scenario();
  j["job"]["tp"] = 8.0;  // 8.0 is 8
  CHECK(scenario_from(j).job.tp == 8);
  j["job"]["dp"] = 1e15;
  CHECK_THROWS_AS(scenario_from(j), InputError);
  j["job"]["dp"] = 3;
  j["seed"] = 1e300;
  CHECK_THROWS_WITH_AS(scenario_from(j), doctest::Contains("expected an integer"), InputError);
  j["seed"] = 18446744073709551615ull;
  CHECK_THROWS_WITH_AS(scenario_from(j), doctest::Contains("/seed"), InputError);
}

TEST_CASE("a job too large for 32 bits is refused, not wrapped") {
  Json j = small_scenario();
  j["job"]["dp"] = 10000000;
  j["job"]["pp"] = 4096;
  j["cluster"].erase("domains");
  CHECK_THROWS_WITH_AS(scenario_from(j), doctest::Contains("exceeds 1e7 domains"), InputError);
}

TEST_CASE("JSON text: depth, range and encoding problems are input errors naming the origin") {
  CHECK_THROWS_WITH_AS(parse_json_text(std::string(1000, '[') + std::string(1000, ']'), "t.json"),
                       doctest::Contains("t.json: JSON nested deeper than 64 levels"), InputError);
  CHECK_THROWS_WITH_AS(parse_json_text("{\"a\": 1e999}", "t.json"), doctest::Contains("t.json"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_json_text("{\n\"a\": }", "t.json"),
                       doctest::Contains("t.json: line 2"), InputError);
  CHECK(parse_json_text(std::string(60, '[') + std::string(60, ']'), "t.json").is_array());
  CHECK(json_show(Json(std::string("\xff\xfe"))).size() > 0);  // no throw on invalid UTF-8
  Json sc = small_scenario();
  CHECK_THROWS_WITH_AS(apply_override(sc, "/name=\xff", "f.json"), doctest::Contains("--set"),
                       InputError);
  CHECK_THROWS_WITH_AS(apply_override(sc, "/horizon_hours=1e999", "f.json"),
                       doctest::Contains("out of range"), InputError);
  apply_override(sc, "/name=plain text", "f.json");
  CHECK(sc["name"] == "plain text");
}

TEST_CASE(
    "the work budget: estimates follow the failure rate, and oversized scenarios are refused") {
  Json j = small_scenario();
  j["failures"] = Json::parse(R"({"classes": [{"name": "g", "scope": "gpu", "mtbf_hours": 1000,
                                   "repair": {"kind": "fixed", "hours": 1}}]})");
  j["seeds"] = 10;
  const Scenario s = scenario_from(j);
  const WorkEstimate w = estimate_work(s, 2);
  CHECK(w.gpus == 32);
  CHECK(w.failures_per_run == doctest::Approx(32 * 100 / 1000.0));  // GPUs x horizon / MTBF
  CHECK(w.setup_events == 32);  // building the plan: one per GPU (no pipeline schedule here)
  CHECK(w.events == doctest::Approx(10 * 3.2 * (1 + 3) + 32));
  WorkBudget b;
  CHECK_NOTHROW(check_work_budget(w, b, "x.json"));
  b.max_events = 100;
  CHECK_THROWS_WITH_AS(check_work_budget(w, b, "x.json"), doctest::Contains("--max-events"),
                       InputError);
  b = WorkBudget{};
  b.max_memory_bytes = 1000;
  CHECK_THROWS_WITH_AS(check_work_budget(w, b, "x.json"), doctest::Contains("--max-memory"),
                       InputError);
  CHECK(parse_bytes("8G", "--max-memory") == 8.0 * (1ull << 30));
  CHECK(parse_bytes("512M", "--max-memory") == 512.0 * (1ull << 20));
  CHECK_THROWS_AS(parse_bytes("lots", "--max-memory"), InputError);
  CHECK_THROWS_AS(parse_bytes("-1G", "--max-memory"), InputError);
}
