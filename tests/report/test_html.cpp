// report.html carries the chart specs (valid Vega-Lite JSON) and the vendored libraries, or a
// visible notice when they are missing; report.md links it.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "models/strategies/strategy.hpp"
#include "sim/report/chart_colors.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/markdown_html.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/timeline.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/sweep/sweep_html.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
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
    // Every chart has its Save SVG / Save PNG control, right under it.
    CHECK(count_of(html, "data-format=\"svg\">Save SVG</button>") == specs.size());
    for (const auto& item : specs.items()) {
      const std::string id = item.key();  // a copy: CAPTURE takes it into a lambda
      CAPTURE(id);
      CHECK(html.find("id=\"" + id + "\"></div>\n" + export_controls(id)) != std::string::npos);
    }
    CHECK(html.find("view.toSVG()") != std::string::npos);
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
  CHECK_FALSE(specs.contains("cost"));  // unpriced: no trade-off chart
}

TEST_CASE("a priced sweep's report.html draws Goodput against cost to train, one mark per cell") {
  const std::string dir = scratch("html-sweep-cost");
  SweepOptions opt;
  opt.threads = 2;
  sweep_small(dir, "/checkpoint/interval_s=1800,3600,7200", opt,
              {"/report/train_hours=50", "/report/gpu_hour_price=2"});
  const Json specs = specs_of(slurp(std::filesystem::path(dir) / "report.html"));
  REQUIRE(specs.contains("cost"));
  // The axis title says its unit once ("interval (s)", not "interval s (s)"), here and in the
  // per-point labels.
  CHECK(specs["axis0"]["layer"][0]["encoding"]["x"]["title"] == "interval (s)");
  CHECK(specs["badput"]["data"]["values"][0]["point"] == "interval (s) = 1800");
  const auto& values = specs["cost"]["data"]["values"];
  CHECK(values.size() == 3 * 3);  // 3 points x 3 strategies
  for (const auto& v : values) {
    CHECK(v["cost"].get<double>() > 0);
    CHECK(v["goodput"].get<double>() > 0);
  }
  CHECK(specs["cost"]["encoding"]["order"]["field"] == "index");
  CHECK_FALSE(specs["cost"]["encoding"].contains("detail"));
}

namespace {

// Every colour encoding by `field` in a chart spec (nested layers and facets included).
void colors_of(const Json& j, const std::string& field, std::vector<Json>& out) {
  if (j.is_object()) {
    if (j.contains("color") && j["color"].is_object() && j["color"].value("field", "") == field)
      out.push_back(j["color"]["scale"]);
    for (const auto& [k, v] : j.items()) colors_of(v, field, out);
  } else if (j.is_array()) {
    for (const auto& v : j) colors_of(v, field, out);
  }
}

// Every colour encoding by `field` in a chart spec, whole.
void color_encodings(const Json& j, const std::string& field, std::vector<Json>& out) {
  if (j.is_object()) {
    if (j.contains("color") && j["color"].is_object() && j["color"].value("field", "") == field)
      out.push_back(j["color"]);
    for (const auto& [k, v] : j.items()) color_encodings(v, field, out);
  } else if (j.is_array()) {
    for (const auto& v : j) color_encodings(v, field, out);
  }
}

}  // namespace

TEST_CASE("two sweep axes: small multiples, the leader per cell, one colour per strategy") {
  const std::string dir = scratch("html-sweep-2");
  Sweep sweep;
  sweep.scenario_file = kSmall;
  sweep.axes = {parse_axis("/cluster/spare_domains=0,2"), parse_axis("/failures/rate_scale=1,3")};
  const auto combos = axis_product(sweep.axes);
  std::vector<Scenario> scenarios;
  for (const auto& v : combos)
    scenarios.push_back(
        small_at({sweep.axes[0].pointer + "=" + v[0], sweep.axes[1].pointer + "=" + v[1],
                  "/seeds=2", "/report/train_hours=50", "/report/gpu_hour_price=2"}));
  SweepOptions opt;
  opt.threads = 2;
  run_sweep(sweep, scenarios, combos, opt, dir);
  const Json specs = specs_of(slurp(std::filesystem::path(dir) / "report.html"));
  // One panel per value of the other axis, not same-coloured lines drawn over each other.
  for (const char* id : {"axis0", "axis1"}) {
    CAPTURE(id);
    REQUIRE(specs.contains(id));
    CHECK(specs[id]["facet"]["field"] == "panel");
    CHECK(specs[id]["spec"]["layer"][0]["mark"]["type"] == "errorband");
  }
  std::set<std::string> panels;
  for (const auto& row : specs["axis0"]["data"]["values"]) panels.insert(row["panel"]);
  CHECK(panels.size() == 2);
  // The leader per cell: one rect per point, coloured by the strategy.
  REQUIRE(specs.contains("best"));
  CHECK(specs["best"]["data"]["values"].size() == 4);
  CHECK(specs["best"]["layer"][0]["mark"] == "rect");
  // Cells as wide as their longest label, so no two labels overlap.
  std::size_t longest = 0;
  for (const auto& row : specs["best"]["data"]["values"])
    longest = std::max(longest, row["label"].get<std::string>().size());
  REQUIRE(specs["best"]["layer"].size() == 2);
  CHECK(specs["best"]["layer"][1]["mark"]["type"] == "text");
  CHECK(specs["best"]["width"]["step"].get<double>() >=
        kCellLabelCharPx * static_cast<double>(longest) + 10);
  // Every strategy colour encoding in the page uses one scale: the strategy table's order.
  std::vector<Json> scales;
  for (const auto& [id, spec] : specs.items()) {
    colors_of(spec, "strategy", scales);
    colors_of(spec, "best", scales);
  }
  REQUIRE(scales.size() >= 4);
  for (const auto& sc : scales) CHECK(sc == scales.front());
  CHECK(scales.front()["domain"].size() == 3);  // the three that ran
  // The cost trade-off: a line per strategy along the first axis, one per value of the second
  // (detail), so no line joins points of different failure rates.
  REQUIRE(specs.contains("cost"));
  const Json& cost = specs["cost"];
  REQUIRE(cost["encoding"].contains("detail"));
  const std::string line_field = cost["encoding"]["detail"]["field"];
  std::map<std::pair<std::string, std::string>, std::set<std::string>> line_points;
  for (const auto& row : cost["data"]["values"]) {
    const std::string point = row["point"];
    // The second axis's value, as the point label writes it (after ", ").
    const std::string second = point.substr(point.find(", ") + 2);
    line_points[{row["strategy"], row[line_field]}].insert(second);
    CHECK(row[line_field].get<std::string>() == second);
  }
  CHECK(line_points.size() == 3 * 2);  // 3 strategies x 2 failure rates
  for (const auto& [line, seconds] : line_points) CHECK(seconds.size() == 1);
  // Buckets and states keep their colours too.
  std::vector<Json> buckets, states;
  colors_of(specs["badput"], "bucket", buckets);
  colors_of(specs["states"], "state", states);
  REQUIRE(buckets.size() == 1);
  REQUIRE(states.size() == 1);
  CHECK(buckets[0]["domain"].size() == kBucketCount);
  CHECK(states[0]["range"][0] != states[0]["range"][2]);  // running and stalled differ
}

TEST_CASE("markdown_html: headings, tables, lists, bold and code, all text escaped") {
  const std::string html = markdown_html(
      "## Title <b>\n\nSome **bold** and `a<b>` text\ncontinued.\n\n| a | b |\n|---|---|\n"
      "| 1 | **2** |\n\n- one\n- two & three\n\n### Sub\nunmatched ** marker\n",
      1);
  CHECK(html.find("<h3>Title &lt;b&gt;</h3>") != std::string::npos);
  CHECK(
      html.find("<p>Some <strong>bold</strong> and <code>a&lt;b&gt;</code> text continued.</p>") !=
      std::string::npos);
  CHECK(html.find("<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td><strong>2</strong>"
                  "</td></tr>\n</table>") != std::string::npos);
  CHECK(html.find("<ul>\n<li>one</li>\n<li>two &amp; three</li>\n</ul>") != std::string::npos);
  CHECK(html.find("<h4>Sub</h4>") != std::string::npos);
  CHECK(html.find("<p>unmatched ** marker</p>") != std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);  // nothing from the text becomes markup
}

TEST_CASE("report.html carries every section of report.md") {
  const RunPlan plan = make_plan(small_at(
      {"/seeds=3", "/report/train_hours=50", "/report/gpu_hour_price=2", "/horizon_hours=200"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  const std::string md = report_markdown(rep), html = report_html(rep);
  std::istringstream lines(md);
  std::string line;
  int sections = 0;
  while (std::getline(lines, line))
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0) {
      const bool sub = line[2] == '#';
      const std::string tag = sub ? "h4" : "h3";
      CAPTURE(line);
      CHECK(html.find("<" + tag + ">" + html_escape(line.substr(sub ? 4 : 3)) + "</" + tag + ">") !=
            std::string::npos);
      ++sections;
    }
  CHECK(sections >= 6);
  CHECK(html.find("Run to completion") != std::string::npos);
  // The completion chart: one tick per finished run and one median mark per strategy.
  const Json specs = specs_of(html);
  REQUIRE(specs.contains("completion"));
  std::size_t finished = 0, medians = 0;
  for (const auto& st : rep.strategies) {
    finished += st.completion.finished;
    medians += st.completion.p50_hours > 0 ? 1 : 0;
  }
  CHECK(finished > 0);
  CHECK(specs["completion"]["data"]["values"].size() == finished + medians);
  // Without a target: no chart.
  const RunPlan bare = make_plan(small_at({}));
  CHECK_FALSE(
      specs_of(report_html(build_report(bare, run_monte_carlo(bare, 1)))).contains("completion"));
}

TEST_CASE(
    "report.html draws run 0's timeline: phase bars that tile the horizon, failed-GPU steps") {
  const RunPlan plan = make_plan(small_at({"/seeds=2", "/failures/rate_scale=100"}));
  Report rep = build_report(plan, run_monte_carlo(plan, 1));
  CHECK_FALSE(specs_of(report_html(rep)).contains("timeline"));  // none recorded: no chart
  rep.timeline = record_timeline(plan, 0);
  REQUIRE(rep.timeline.phases.size() == plan.scenario.strategies.size());
  const Json spec = specs_of(report_html(rep))["timeline"];
  REQUIRE(spec["vconcat"].size() == 2);
  const Json &bars = spec["vconcat"][0], &steps = spec["vconcat"][1];
  const auto strategies = static_cast<double>(plan.scenario.strategies.size());
  const double horizon_days = to_hours(plan.horizon) / 24;
  // Failures happened: more than one cell per strategy; each column's cells stack the shares
  // of the phases in it (summing to 1), and each strategy's columns tile the horizon.
  CHECK(static_cast<double>(bars["data"]["values"].size()) > strategies);
  std::map<std::string, double> reached;
  std::map<std::pair<std::string, double>, double> column_share;  // (strategy, start) -> sum
  std::map<std::pair<std::string, double>, double> column_top;    // -> highest `hi` so far
  std::set<std::string> domain;
  for (const auto& d : bars["encoding"]["color"]["scale"]["domain"])
    domain.insert(d.get<std::string>());
  for (const auto& v : bars["data"]["values"]) {
    const std::string name = v["strategy"].get<std::string>();
    const double start = v["start"].get<double>(), lo = v["lo"].get<double>();
    const auto key = std::make_pair(name, start);
    if (!column_share.count(key)) {  // a new column: it starts where the last one ended
      CHECK(start == doctest::Approx(reached[name]));
      CHECK(lo == 0);
    } else {
      CHECK(lo == doctest::Approx(column_top[key]));  // stacked without gaps
    }
    reached[name] = v["end"].get<double>();
    column_share[key] += v["hi"].get<double>() - lo;
    column_top[key] = v["hi"].get<double>();
    CHECK(v["hi"].get<double>() > lo);
    CHECK(domain.count(v["phase"].get<std::string>()) == 1);
    bool seen = false;
    for (const auto& [strategy, phases] : rep.timeline.phases)
      for (const TimelineSpan& p : phases)
        seen = seen || (strategy == name && p.name == v["phase"].get<std::string>());
    CHECK(seen);
  }
  for (const auto& [key, sum] : column_share) CHECK(sum == doctest::Approx(1));
  CHECK(static_cast<double>(column_share.size()) <= 600 * strategies);
  CHECK(static_cast<double>(reached.size()) == strategies);
  for (const auto& [name, end] : reached) CHECK(end == doctest::Approx(horizon_days));
  // The failed-GPU line: every counter point, plus the last value held to the horizon.
  CHECK(steps["data"]["values"].size() == rep.timeline.failed_gpus.size() + 1);
  std::int64_t peak = 0;
  for (const auto& v : steps["data"]["values"])
    peak = std::max(peak, v["failed"].get<std::int64_t>());
  CHECK(peak > 0);
  // Without failures each strategy runs the whole horizon: one bar.
  const RunPlan calm = make_plan(small_at({"/seeds=2", "/failures/rate_scale=0"}));
  Report quiet = build_report(calm, run_monte_carlo(calm, 1));
  quiet.timeline = record_timeline(calm, 0);
  const Json calm_bars = specs_of(report_html(quiet))["timeline"]["vconcat"][0]["data"]["values"];
  REQUIRE(static_cast<double>(calm_bars.size()) == strategies);
  for (const auto& v : calm_bars) CHECK(v["phase"] == "running");
}

TEST_CASE("heat-map cells: labels only where they fit, else narrower cells with tooltips") {
  for (std::size_t columns : {1, 2, 5, 10, 11, 20, 40, 200})
    for (std::size_t longest : {6, 12}) {
      CAPTURE(columns);
      CAPTURE(longest);
      const HeatCells c = heat_cell_size(columns, 7, longest);
      const double label = kCellLabelCharPx * static_cast<double>(longest) + 10;
      if (c.labels)
        CHECK(c.width >= label);  // each label within its own cell
      else
        CHECK(c.width < label);
      // Within the page's width unless the cells are already the smallest.
      CHECK((c.width * static_cast<double>(columns) <= kHeatMaxWidth || c.width == kHeatMinCell));
      CHECK(c.height >= kHeatMinCell);
    }
  CHECK(heat_cell_size(3, 3, 12).labels);
  CHECK_FALSE(heat_cell_size(40, 3, 12).labels);  // 40 x "97.12% (tie)" would overlap
}

TEST_CASE("legends list only the strategies that ran, in their own colours, at full opacity") {
  const std::string two = "/strategies={\"dp_drop\":{},\"hot_spares\":{}}";
  const RunPlan plan = make_plan(small_at({two, "/seeds=2"}));
  const Report rep = build_report(plan, run_monte_carlo(plan, 2));
  REQUIRE(rep.strategies.size() == 2);
  const Json run_specs = specs_of(report_html(rep));
  const std::string dir = scratch("html-sweep-two");
  SweepOptions opt;
  opt.threads = 2;
  sweep_small(dir, "/cluster/spare_domains=0,2", opt,
              {two, "/seeds=2", "/report/train_hours=50", "/report/gpu_hour_price=2"});
  const Json sweep_specs = specs_of(slurp(std::filesystem::path(dir) / "report.html"));
  // The colour each strategy has when all of them run.
  std::vector<std::string> all;
  for (const auto& info : strategy_table()) all.push_back(info.name);
  const Json everyone = strategy_color(all);
  std::map<std::string, Json> own;
  for (std::size_t i = 0; i < all.size(); ++i) own[all[i]] = everyone["scale"]["range"][i];
  std::size_t legends = 0;
  for (const Json* specs : {&run_specs, &sweep_specs}) {
    std::vector<Json> encodings;
    for (const auto& [id, spec] : specs->items()) color_encodings(spec, "strategy", encodings);
    REQUIRE(!encodings.empty());
    for (const auto& e : encodings) {
      const Json& domain = e["scale"]["domain"];
      REQUIRE(domain.size() == 2);
      CHECK(domain[0] == rep.strategies[0].name);
      CHECK(domain[1] == rep.strategies[1].name);
      for (std::size_t i = 0; i < 2; ++i) CHECK(e["scale"]["range"][i] == own[domain[i]]);
      if (e["legend"].is_null()) continue;  // no legend drawn
      CHECK(e["legend"]["symbolOpacity"] == 1);
      ++legends;
    }
  }
  CHECK(legends >= 3);  // the sweep's Goodput-per-axis layers and its cost chart
  // Time in state tiles the wall time: its axis ends at 100%, not at a "nice" 110%; badput's
  // at its largest bar, never past 100%.
  auto x_of = [](const Json& chart) -> const Json& {  // a faceted chart's inner spec
    return (chart.contains("spec") ? chart["spec"] : chart)["encoding"]["x"];
  };
  for (const Json* specs : {&run_specs, &sweep_specs}) {
    const Json& x = x_of((*specs)["states"]);
    CHECK(x["scale"]["domain"] == Json::array({0, 1}));
    CHECK(x["scale"]["nice"] == false);
    const Json& bx = x_of((*specs)["badput"]);
    const double top = bx["scale"]["domain"][1].get<double>();
    CHECK(top <= 1);
    std::map<std::string, double> totals;
    for (const auto& row : (*specs)["badput"]["data"]["values"])
      totals[row["strategy"].get<std::string>() + row.value("point", "")] +=
          row["share"].get<double>();
    for (const auto& [bar, total] : totals) CHECK(total <= top + 1e-12);
  }
}
