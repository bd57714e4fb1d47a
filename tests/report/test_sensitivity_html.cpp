// sensitivity.html (sensitivity_html.cpp): one tornado per rival, its inputs sorted by the swing
// of the lead over that rival (not the report's order), in percentage points, each bar's ends
// labelled with the input's value there, coloured by whether the rival leads at an end.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/report/html_page.hpp"
#include "sim/report/sensitivity.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

// Four seeds of exactly mean[i] per strategy i.
std::vector<StrategyRuns> flat(const std::vector<std::string>& names,
                               const std::vector<double>& mean) {
  std::vector<StrategyRuns> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    StrategyRuns r{names[i], {}};
    for (int seed = 0; seed < 4; ++seed) {
      RunMetrics m;
      m.goodput = mean[i];
      m.job_failures = 100;
      m.wall_hours = 200;
      r.runs.push_back(m);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

TEST_CASE("sensitivity.html: a tornado per rival, sorted by that lead's swing, in pp") {
  const Scenario s =
      small_at({"/recovery/communicator_rebuild_s=100", "/recovery/detection_s=100"});
  // a leads throughout. Its lead over b falls from 5.2 to 3.2 pp as the rebuild grows from 0 to
  // 1000 s (detection leaves it alone); its lead over c grows from 1.9 to 2.9 pp with detection.
  const Evaluate fake = [](const Scenario& sc) {
    const double x = sc.recovery.communicator_rebuild_s, d = sc.recovery.detection_s;
    return flat({"a", "b", "c"},
                {0.95, 0.90 + (x - 100) * 0.02 / 1000, 0.93 - (d - 100) * 0.01 / 1000});
  };
  SensitivityRequest req;
  req.params = {parse_param(s, "/recovery/communicator_rebuild_s=0:1000"),
                parse_param(s, "/recovery/detection_s=0:1000")};
  const SensitivityReport r = run_sensitivity(s, req, fake);
  REQUIRE(r.strategies[r.winner] == "a");
  const std::string html = sensitivity_html(r);
  const Json specs = specs_of(html);
  REQUIRE(specs.size() == 2);  // one per rival
  struct Want {
    const char* id;
    const char* rival;
    const char* top;  // the input of widest swing against this rival
    double low, high;
  };
  for (const Want& w : {Want{"tornado1", "b", "/recovery/communicator_rebuild_s", 5.2, 3.2},
                        Want{"tornado2", "c", "/recovery/detection_s", 1.9, 2.9}}) {
    CAPTURE(w.id);
    REQUIRE(specs.contains(w.id));
    const Json& spec = specs[w.id];
    const Json& rows = spec["data"]["values"];
    REQUIRE(rows.size() == 2);
    CHECK(rows[0]["input"] == w.top);
    for (std::size_t i = 1; i < rows.size(); ++i)
      CHECK(rows[i - 1]["swing"].get<double>() >= rows[i]["swing"].get<double>());
    CHECK(rows[0]["low"].get<double>() == doctest::Approx(w.low));
    CHECK(rows[0]["high"].get<double>() == doctest::Approx(w.high));
    CHECK(rows[0]["swing"].get<double>() == doctest::Approx(std::abs(w.high - w.low)));
    CHECK(rows[1]["swing"].get<double>() == doctest::Approx(0).epsilon(1e-9));
    // Each end labelled with the input's value there, on its own side of the bar.
    const bool low_left = w.low < w.high;
    CHECK(rows[0]["left_label"] == (low_left ? "0 s" : "1000 s"));
    CHECK(rows[0]["right_label"] == (low_left ? "1000 s" : "0 s"));
    CHECK(rows[0]["left"].get<double>() == doctest::Approx(std::min(w.low, w.high)));
    CHECK(rows[0]["verdict"] == "a ahead at both ends");
    const Json& x = spec["layer"][0]["encoding"]["x"];
    CHECK(x["title"].get<std::string>().find("lead over " + std::string(w.rival) + " (pp") !=
          std::string::npos);
    // The bars, 0 and the scenario's value lie inside the axis.
    const double lo = x["scale"]["domain"][0].get<double>(),
                 hi = x["scale"]["domain"][1].get<double>();
    CHECK(lo < 0);
    CHECK(hi > std::max(w.low, w.high));
    if (charts_available()) CHECK(html.find(export_controls(w.id)) != std::string::npos);
  }
}
