// The metric table (issue 30 item 1, sim/report/strategy_metrics.hpp): a metric declared once
// reaches every output that declares it (report.json, runs.csv, report.md, report.html, goal
// seek), and the hand-written JSON Schema is checked against the table
// (sim/report/report_schema_check.hpp) both ways.
#include <doctest/doctest.h>

#include <algorithm>

#include "sim/report/report.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/report_schema_check.hpp"
#include "sim/report/runs_csv.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

Json shipped_schema(const std::string& kind = "report") {
  return Json::parse(slurp(std::string(GOODPUT_SCHEMA_DIR "/") + kind + ".schema.json"));
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(what) != std::string::npos; });
}

}  // namespace

TEST_CASE("the shipped schemas agree with the metric table") {
  for (const auto& problems : {report_schema_metric_problems(shipped_schema()),
                               sweep_schema_metric_problems(shipped_schema("sweep"))})
    CHECK_MESSAGE(problems.empty(), (problems.empty() ? "" : problems.front()));
}

TEST_CASE("the schema check finds a metric missing from the schema and one the table lacks") {
  Json schema = shipped_schema();
  Json& strategy = schema["$defs"]["strategy"];
  strategy["properties"].erase("interruptions");
  strategy["properties"]["made_up_hours"] = {{"$ref", "#/$defs/summary"}};
  schema["$defs"]["buckets"]["properties"].erase("SLOW_COMPONENTS");
  strategy["properties"]["cluster_health"]["properties"]["failed_gpus"]["properties"]["p75"] = {
      {"$ref", "#/$defs/summary"}};
  const auto problems = report_schema_metric_problems(schema);
  CHECK(mentions(problems, "no /interruptions (metric interruptions"));
  CHECK(mentions(problems, "/made_up_hours is a metric no row"));
  CHECK(mentions(problems, "no /badput/SLOW_COMPONENTS"));
  CHECK(mentions(problems, "no /badput_ci95/SLOW_COMPONENTS"));
  CHECK(mentions(problems, "/cluster_health/failed_gpus/p75 is a metric no row"));
  CHECK(problems.size() == 5);
  // sweep.json: the same check on its per-point strategy object
  Json sweep = shipped_schema("sweep");
  Json& point =
      sweep["properties"]["points"]["items"]["properties"]["strategies"]["additionalProperties"];
  point["properties"].erase("goodput_per_provisioned_gpu");
  point["properties"]["ettr"] = point["properties"]["goodput"];
  const auto sweep_problems = sweep_schema_metric_problems(sweep);
  CHECK(mentions(sweep_problems, "no /goodput_per_provisioned_gpu"));
  CHECK(mentions(sweep_problems, "/ettr is a metric no row"));
  // required exactly when written in every mode
  Json required = shipped_schema();
  auto& list = required["$defs"]["strategy"]["required"];
  list.erase(std::find(list.begin(), list.end(), "ettr"));
  CHECK(mentions(report_schema_metric_problems(required),
                 "/ettr (metric ettr) is written in every mode but not required"));
}

TEST_CASE("a metric added to the table reaches report.json, runs.csv, report.md, report.html") {
  // Twice each run's wall hours: a closed form every run of the small scenario shares (200 h).
  StrategyMetric extra;
  extra.name = "twice_wall_hours";
  extra.unit = "h";
  extra.doc = "test metric: 2 x the run's horizon";
  extra.per_run = [](const RunMetrics& m) { return 2 * m.wall_hours; };
  extra.json = "/twice_wall_hours";
  extra.json_modes = kEveryMode;
  extra.csv = true;
  extra.sweep = true;
  extra.markdown = {"twice wall", "%.1f"};
  extra.html = {"twice wall h", "%.0f"};
  const ExtraMetricForTest added(extra);

  const RunPlan plan = make_plan(small_at({"/seeds=2", "/horizon_hours=50"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  const Json j = report_json(rep);
  for (const auto& st : plan.scenario.strategies) {
    CAPTURE(st.name);
    CHECK(j["strategies"][st.name]["twice_wall_hours"]["mean"].get<double>() ==
          doctest::Approx(100));
    CHECK(j["strategies"][st.name]["twice_wall_hours"]["ci95"].get<double>() == 0);
  }
  const std::string csv = runs_csv(rep);
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(header.find(",events,") != std::string::npos);
  CHECK(header.rfind(",twice_wall_hours") != std::string::npos);
  CHECK(csv.find(",100,") != std::string::npos);  // each row's value, before the threshold column
  const std::string md = report_markdown(rep);
  const auto head = md.find(" | twice wall |\n");  // the last column of the strategy table
  REQUIRE(head != std::string::npos);
  const auto line = md.rfind('\n', head) + 1, next = md.find('\n', head) + 1;
  const std::string header_row = md.substr(line, next - line),
                    rule = md.substr(next, md.find('\n', next) - next);
  CHECK(std::count(header_row.begin(), header_row.end(), '|') ==
        std::count(rule.begin(), rule.end(), '|'));
  CHECK(md.find(" | 100.0 ± 0.0 |\n") != std::string::npos);
  const std::string html = report_html(rep);
  CHECK(html.find("<th>twice wall h</th>") != std::string::npos);
  CHECK(html.find("<td>100</td>") != std::string::npos);
  CHECK(parse_seek_target("twice_wall_hours<=150", "--target").metric->name == "twice_wall_hours");
  // a sweep's sweep.json and points.csv
  const std::string dir = scratch("extra-metric-sweep");
  sweep_small(dir, "/cluster/spare_domains=1", SweepOptions{}, {"/seeds=2", "/horizon_hours=50"});
  const Json sweep = Json::parse(slurp(dir + "/sweep.json"));
  CHECK(sweep["points"][0]["strategies"]["dp_drop"]["twice_wall_hours"]["mean"].get<double>() ==
        doctest::Approx(100));
  CHECK(slurp(dir + "/points.csv").find(",twice_wall_hours") != std::string::npos);
  // and the shipped schemas do not have it yet: the checks say so
  CHECK(mentions(report_schema_metric_problems(shipped_schema()),
                 "no /twice_wall_hours (metric twice_wall_hours"));
  CHECK(mentions(sweep_schema_metric_problems(shipped_schema("sweep")),
                 "no /twice_wall_hours (metric twice_wall_hours"));
}

TEST_CASE("every metric row is complete and names each report.json place once") {
  std::vector<std::string> places;
  for (const StrategyMetric& m : strategy_metrics()) {
    CAPTURE(m.name);
    CHECK((m.per_run && m.get && m.slot));
    CHECK((m.applies & kEveryMode) != 0);
    CHECK((m.json.empty() || m.json[0] == '/'));
    CHECK((m.json.empty() == (m.json_modes == 0)));
    if (!m.json.empty()) places.push_back(m.json);
    if (!m.json_ci95.empty()) places.push_back(m.json_ci95);
  }
  std::sort(places.begin(), places.end());
  CHECK(std::adjacent_find(places.begin(), places.end()) == places.end());
  // events is a runs.csv column, not a goal-seek target
  const StrategyMetric* events = find_strategy_metric("events");
  REQUIRE(events != nullptr);
  CHECK(events->csv);
  const auto names = strategy_metric_names();
  CHECK(std::find(names.begin(), names.end(), "events") == names.end());
}

TEST_CASE("stall_hours: the hours the job stood still, every mechanism together") {
  // The closed form on one fault is tests/golden/one-fault-by-hand (600, 220 and 380 s); here
  // the row adds a run's mechanisms up, and its Summary is the sum of the mechanisms' means.
  const StrategyMetric* stall = find_strategy_metric("stall_hours");
  REQUIRE(stall != nullptr);
  RunMetrics m;
  m.paid_stall_hours[static_cast<std::size_t>(Mechanism::Detection)] = 0.5;
  m.paid_stall_hours[static_cast<std::size_t>(Mechanism::SpareSwapIn)] = 0.25;
  CHECK(stall->per_run(m) == 0.75);
  const RunPlan plan = make_plan(small_at({"/seeds=3", "/horizon_hours=100"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 1));
  const Json j = report_json(rep);
  for (const StrategySummary& s : rep.strategies) {
    CAPTURE(s.name);
    double sum = 0;
    for (const Summary& k : s.paid_stall_hours) sum += k.mean;
    CHECK(stall->get(s).mean == doctest::Approx(sum));
    CHECK(stall->get(s).n == 3u);
    CHECK(j["strategies"][s.name]["stall_hours"]["mean"].get<double>() == stall->get(s).mean);
  }
  CHECK(report_markdown(rep).find("| checkpoints | stall hours |") != std::string::npos);
  // snapshot mode: not in report.json (time mode only), still a runs.csv column
  const RunPlan snap =
      make_plan(small_at({"/seeds=2", "/mode=snapshot", "/failures/failed_fraction=0.05"}));
  const Report srep = build_report(snap, run_monte_carlo(snap, 1));
  CHECK_FALSE(report_json(srep)["strategies"]["dp_drop"].contains("stall_hours"));
  CHECK(runs_csv(srep).find(",stall_hours") != std::string::npos);
}
