#include <doctest/doctest.h>

#include "sim/report/report.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;

namespace {
std::string report_bytes(const Json& j, int threads) {
  const RunPlan plan = make_plan(goodput::test::scenario_from(j));
  const Report r = build_report(plan, run_monte_carlo(plan, threads));
  return report_json(r).dump(2) + runs_csv(r) + report_markdown(r);
}
}  // namespace

TEST_CASE("same seed, same bytes, whatever the thread count; another seed differs") {
  Json j = Json::parse(R"({
    "horizon_hours": 300, "seeds": 6,
    "cluster": {"preset": "gb200-nvl72", "spare_domains": 1},
    "job": {"tp": 64, "pp": 2, "dp": 4},
    "failures": {"preset": "pessimistic", "rate_scale": 20},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "hot_spares": {}}
  })");
  const std::string one = report_bytes(j, 1);
  CHECK(one == report_bytes(j, 3));
  CHECK(one == report_bytes(j, 1));
  j["seed"] = 2;
  CHECK(one != report_bytes(j, 2));
}

TEST_CASE("report.json carries the contract keys") {
  const RunPlan plan = make_plan(goodput::test::scenario_from(goodput::test::small_scenario()));
  const Report r = build_report(plan, run_monte_carlo(plan, 1));
  const Json j = report_json(r);
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(j["seeds"] == 1);
  CHECK(j["scenario"]["job"]["tp"] == 8);
  for (const char* s : {"checkpoint_restart", "dp_drop", "hot_spares"}) {
    CAPTURE(s);
    CHECK(j["strategies"][s]["goodput"].contains("mean"));
    CHECK(j["strategies"][s]["goodput"].contains("ci95"));
    double sum = j["strategies"][s]["goodput"]["mean"].get<double>();
    for (const auto& [k, v] : j["strategies"][s]["badput"].items()) sum += v.get<double>();
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
  }
}
