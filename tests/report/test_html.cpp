// report.html carries the chart specs (valid Vega-Lite JSON) and the vendored libraries, or a
// visible notice when they are missing; report.md links it.
#include <doctest/doctest.h>

#include "sim/report/html_page.hpp"
#include "sim/report/report_html.hpp"
#include "sim/run/monte_carlo.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Json specs_of(const std::string& html) {
  const std::string open = "<script id=\"chart-specs\" type=\"application/json\">";
  const auto a = html.find(open);
  REQUIRE(a != std::string::npos);
  const auto b = html.find("</script>", a);
  return Json::parse(html.substr(a + open.size(), b - a - open.size()));
}

}  // namespace

TEST_CASE("report.html holds the Goodput, badput and time-in-state charts") {
  const RunPlan plan = make_plan(small_at({}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  const std::string html = report_html(rep);
  const Json specs = specs_of(html);
  for (const char* id : {"goodput", "badput", "states"}) {
    INFO(id);
    REQUIRE(specs.contains(id));
    CHECK(specs[id]["$schema"].get<std::string>().find("vega-lite") != std::string::npos);
    CHECK(html.find(std::string("<div class=\"chart\" id=\"") + id + "\"") != std::string::npos);
  }
  CHECK(specs["badput"]["data"]["values"].size() == rep.strategies.size() * kBucketCount);
  CHECK(report_markdown(rep).find("report.html") != std::string::npos);
  CHECK(report_markdown(rep).find("Time in state") != std::string::npos);
  if (charts_available()) {
    CHECK(html.find("vegaEmbed") != std::string::npos);
    CHECK(html.find("charts-missing") == std::string::npos);
  } else {
    MESSAGE("plotting libraries not vendored (scripts/vendor-js.sh): checking the notice instead");
    CHECK(html.find("charts-missing") != std::string::npos);
  }
}

TEST_CASE("a sweep's report.html draws Goodput against each axis with CI bands") {
  const std::string dir = scratch("html-sweep");
  SweepOptions opt;
  opt.threads = 2;
  sweep_small(dir, "/cluster/spare_domains=0,2,4", opt);
  const Json specs = specs_of(slurp(std::filesystem::path(dir) / "report.html"));
  REQUIRE(specs.contains("axis0"));
  CHECK(specs["axis0"]["layer"][0]["mark"]["type"] == "errorband");
  CHECK(specs["axis0"]["data"]["values"].size() == 3 * 3);
  CHECK(specs["badput"]["facet"]["row"]["field"] == "point");
  CHECK(specs["states"]["data"]["values"].size() == 3 * 3 * 4);
  CHECK(!std::filesystem::exists(std::filesystem::path(dir) / "point-000" / "report.html"));
}
