#include "sim/report/report_html.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "models/scenario/scenario_params.hpp"
#include "sim/report/chart_colors.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/markdown_html.hpp"
#include "sim/report/seek_html.hpp"
#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

using OJson = nlohmann::ordered_json;
const char* const kSchema = "https://vega.github.io/schema/vega-lite/v6.json";

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100 * v);
  return buf;
}

OJson with_no_legend(OJson color) {
  color["legend"] = nullptr;
  return color;
}

OJson goodput_chart(const Report& rep) {
  OJson data = OJson::array();
  for (const auto& s : rep.strategies)
    data.push_back({{"strategy", s.name},
                    {"goodput", s.goodput.mean},
                    {"lo", std::max(0.0, s.goodput.mean - s.goodput.ci95)},
                    {"hi", std::min(1.0, s.goodput.mean + s.goodput.ci95)}});
  const OJson y = {
      {"field", "strategy"}, {"type", "nominal"}, {"sort", nullptr}, {"title", nullptr}};
  return {{"$schema", kSchema},
          {"width", 600},
          {"data", {{"values", data}}},
          {"layer",
           {{{"mark", {{"type", "rule"}, {"strokeWidth", 2}}},
             {"encoding",
              {{"y", y},
               {"x", {{"field", "lo"}, {"type", "quantitative"}}},
               {"x2", {{"field", "hi"}}}}}},
            {{"mark", {{"type", "point"}, {"filled", true}, {"size", 80}}},
             {"encoding",
              {{"y", y},
               {"color", with_no_legend(strategy_color())},
               {"x",
                {{"field", "goodput"},
                 {"type", "quantitative"},
                 {"title", "Goodput (mean, 95% CI)"},
                 {"scale", {{"zero", false}}},
                 {"axis", {{"format", ".1%"}}}}},
               {"tooltip",
                {{{"field", "goodput"}, {"format", ".3%"}},
                 {{"field", "lo"}, {"format", ".3%"}},
                 {{"field", "hi"}, {"format", ".3%"}}}}}}}}}};
}

// Buckets and states keep their colours in every chart (chart_colors.hpp).
OJson stacked_color(const std::string& part) {
  OJson c = part == "bucket" ? bucket_color() : state_color();
  c["legend"] = {{"labelLimit", 320}};
  return c;
}

OJson stacked_chart(const OJson& data, const char* part, const char* title) {
  return {
      {"$schema", kSchema},
      {"width", 600},
      {"data", {{"values", data}}},
      {"mark", "bar"},
      {"encoding",
       {{"y", {{"field", "strategy"}, {"type", "nominal"}, {"sort", nullptr}, {"title", nullptr}}},
        {"x",
         {{"field", "share"},
          {"type", "quantitative"},
          {"stack", "zero"},
          {"title", title},
          {"axis", {{"format", ".1%"}}}}},
        {"color", stacked_color(part)},
        {"order", {{"field", "order"}, {"type", "quantitative"}}},
        {"tooltip", {{{"field", part}}, {{"field", "share"}, {"format", ".3%"}}}}}}};
}

OJson badput_chart(const Report& rep) {
  OJson data = OJson::array();
  for (const auto& s : rep.strategies)
    for (int b = 0; b < kBucketCount; ++b)
      data.push_back({{"strategy", s.name},
                      {"bucket", bucket_name(static_cast<Bucket>(b))},
                      {"order", b},
                      {"share", s.badput[static_cast<std::size_t>(b)].mean}});
  return stacked_chart(data, "bucket", "badput (share of wall time)");
}

OJson state_chart(const Report& rep) {
  OJson data = OJson::array();
  for (const auto& s : rep.strategies) {
    const auto t = time_in_state(s);
    for (std::size_t i = 0; i < kStates.size(); ++i)
      data.push_back({{"strategy", s.name}, {"state", kStates[i]}, {"order", i}, {"share", t[i]}});
  }
  return stacked_chart(data, "state", "share of wall time");
}

std::string tables(const Report& rep) {
  std::ostringstream s;
  s << "<h2>Numbers</h2>\n<table><tr><th>strategy</th><th>Goodput %</th><th>± 95% CI</th>";
  if (rep.baseline)  // paired over the same failures
    s << "<th>vs " << html_escape(rep.strategies[*rep.baseline].name)
      << " (pp, paired)</th><th>± 95% CI</th>";
  // Snapshot mode has no time axis: no ETTR and no time in state.
  const bool timed = rep.plan->scenario.mode != RunMode::Snapshot;
  if (timed) {
    s << "<th>ETTR %</th>";
    for (const char* st : kStates) s << "<th>" << st << " %</th>";
  }
  s << "</tr>\n";
  for (const auto& st : rep.strategies) {
    s << "<tr><td>" << html_escape(st.name) << "</td><td>" << pct(st.goodput.mean) << "</td><td>"
      << pct(st.goodput.ci95) << "</td>";
    if (rep.baseline)
      s << "<td>" << fmt("%+.2f", 100 * st.difference_vs_baseline.mean) << "</td><td>"
        << (st.difference_vs_baseline.n < 2 ? std::string("n/a")
                                            : fmt("%.2f", 100 * st.difference_vs_baseline.ci95))
        << "</td>";
    if (timed) {
      s << "<td>" << pct(st.ettr.mean) << "</td>";
      for (double v : time_in_state(st)) s << "<td>" << pct(v) << "</td>";
    }
    s << "</tr>\n";
  }
  s << "</table>\n<table><tr><th>badput bucket (% of wall time)</th>";
  for (const auto& st : rep.strategies) s << "<th>" << html_escape(st.name) << "</th>";
  s << "</tr>\n";
  for (int b = 0; b < kBucketCount; ++b) {
    s << "<tr><td>" << bucket_name(static_cast<Bucket>(b)) << "</td>";
    for (const auto& st : rep.strategies)
      s << "<td>" << pct(st.badput[static_cast<std::size_t>(b)].mean) << "</td>";
    s << "</tr>\n";
  }
  s << "</table>\n";
  const Scenario& sc = rep.plan->scenario;
  if (timed && sc.train_hours > 0) {
    // Time to train: the estimate (train_hours / Goodput) and the runs to completion.
    const bool priced = sc.gpu_hour_price > 0;
    const double per_hour = static_cast<double>(rep.plan->topology->gpus()) * sc.gpu_hour_price;
    auto days = [](double h) { return h > 0 ? fmt("%.2f", h / 24) : std::string("&gt; horizon"); };
    s << "<h2>Time to train</h2>\n<p>" << fmt("%.4g", sc.train_hours)
      << " hours of failure-free training; the whole cluster held until done. Estimate: "
         "train_hours / Goodput per run. Run to completion: when each run's progress first "
         "reached the target within the "
      << fmt("%.0f", sc.horizon_hours)
      << " h horizon (days; percentiles over the runs).</p>\n<table><tr><th>strategy</th>"
         "<th>estimate (days)</th><th>finished</th><th>mean</th><th>p50</th><th>p90</th>"
         "<th>p99</th>"
      << (priced ? "<th>cost p50</th><th>cost p90</th>" : "") << "</tr>\n";
    for (const auto& st : rep.strategies) {
      const CompletionSummary& c = st.completion;
      s << "<tr><td>" << html_escape(st.name) << "</td><td>"
        << fmt("%.2f", st.time_to_train_hours.mean / 24) << "</td><td>" << c.finished << " of "
        << c.runs << "</td><td>" << (c.finished ? days(c.mean_hours) : std::string("-"))
        << "</td><td>" << days(c.p50_hours) << "</td><td>" << days(c.p90_hours) << "</td><td>"
        << days(c.p99_hours) << "</td>";
      if (priced)
        for (double h : {c.p50_hours, c.p90_hours})
          s << "<td>" << (h > 0 ? fmt("%.4g", h * per_hour) : std::string("-")) << "</td>";
      s << "</tr>\n";
    }
    s << "</table>\n";
  }
  return s.str();
}

bool numeric(const std::vector<std::string>& values) {
  for (const auto& v : values) {
    const auto j = nlohmann::json::parse(v, nullptr, false);
    if (j.is_discarded() || !j.is_number()) return false;
  }
  return true;
}

// An axis title from the parameter declarations: "spare domains (domains)" for
// /cluster/spare_domains; the pointer itself when it names no declared parameter.
std::string axis_title(const std::string& pointer) {
  const ParamDecl* d = find_decl(sections::scenario(), pointer);
  if (!d) return pointer;
  std::string name = d->key;
  std::replace(name.begin(), name.end(), '_', ' ');
  return d->unit.empty() ? name : name + " (" + d->unit + ")";
}

// A dimensionless parameter declared within [0, 1] whose name says it is a share is shown as %.
bool percent_axis(const std::string& pointer) {
  const ParamDecl* d = find_decl(sections::scenario(), pointer);
  return d && d->unit.empty() && d->type == ParamType::Number && d->min >= 0 && d->max <= 1 &&
         (d->key.find("fraction") != std::string::npos ||
          d->key.find("probability") != std::string::npos);
}

// Goodput vs one axis: a line per strategy with a CI band; with more axes, one panel per
// combination of the other axes' values (small multiples), in point order.
OJson axis_chart(const Sweep& sw, std::size_t axis) {
  OJson data = OJson::array();
  const bool num = numeric(sw.axes[axis].values);
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    const auto& pt = sw.points[p];
    std::string others;
    for (std::size_t a = 0; a < sw.axes.size(); ++a)
      if (a != axis)
        others +=
            (others.empty() ? "" : ", ") + axis_title(sw.axes[a].pointer) + " = " + pt.values[a];
    for (const auto& st : pt.report.strategies) {
      OJson row = {{"strategy", st.name},
                   {"goodput", st.goodput.mean},
                   {"lo", std::max(0.0, st.goodput.mean - st.goodput.ci95)},
                   {"hi", std::min(1.0, st.goodput.mean + st.goodput.ci95)},
                   {"panel", others},
                   {"index", p}};
      row["x"] = num ? OJson::parse(pt.values[axis]) : OJson(pt.values[axis]);
      data.push_back(row);
    }
  }
  OJson x = {{"field", "x"},
             {"type", num ? "quantitative" : "ordinal"},
             {"title", axis_title(sw.axes[axis].pointer)},
             {"sort", nullptr}};
  if (num && percent_axis(sw.axes[axis].pointer)) x["axis"] = {{"format", ".2~%"}};
  const OJson color = strategy_color();
  const OJson band = {
      {"mark", {{"type", "errorband"}, {"opacity", 0.25}}},
      {"encoding",
       {{"x", x},
        {"y",
         {{"field", "lo"}, {"type", "quantitative"}, {"title", "Goodput (mean, 95% CI band)"}}},
        {"y2", {{"field", "hi"}}},
        {"color", color}}}};
  const OJson line = {
      {"mark", {{"type", "line"}, {"point", true}}},
      {"encoding",
       {{"x", x},
        {"y",
         {{"field", "goodput"},
          {"type", "quantitative"},
          {"scale", {{"zero", false}}},
          {"axis", {{"format", ".1%"}}},
          {"title", "Goodput (mean, 95% CI band)"}}},
        {"color", color},
        {"tooltip",
         {{{"field", "strategy"}}, {{"field", "x"}}, {{"field", "goodput"}, {"format", ".3%"}}}}}}};
  const OJson layers = {band, line};
  if (sw.axes.size() == 1)
    return {{"$schema", kSchema},
            {"width", 600},
            {"height", 300},
            {"data", {{"values", data}}},
            {"layer", layers}};
  return {{"$schema", kSchema},
          {"data", {{"values", data}}},
          {"facet",
           {{"field", "panel"},
            {"type", "ordinal"},
            {"sort", {{"field", "index"}, {"op", "min"}}},
            {"title", nullptr}}},
          {"columns", 3},
          {"spec", {{"width", 260}, {"height", 180}, {"layer", layers}}}};
}

// Two axes: a heat map of the leading strategy per cell (its colour) and its Goodput, marked
// when the lead is not significant.
OJson best_cell_chart(const Sweep& sw) {
  OJson data = OJson::array();
  for (const auto& pt : sw.points) {
    const Report& r = pt.report;
    const auto& best = r.strategies[r.winner];
    data.push_back({{"x", pt.values[0]},
                    {"y", pt.values[1]},
                    {"best", best.name},
                    {"label", fmt("%.2f%%", 100 * best.goodput.mean) +
                                  (r.decided || r.strategies.size() < 2 ? "" : " (tie)")}});
  }
  auto axis = [&](std::size_t a, const char* field) {
    OJson e = {{"field", field}, {"type", "ordinal"}, {"title", axis_title(sw.axes[a].pointer)}};
    if (numeric(sw.axes[a].values)) {  // numeric order, as the axis values were given
      OJson order = OJson::array();
      for (const auto& v : sw.axes[a].values) order.push_back(v);
      e["sort"] = order;
    }
    return e;
  };
  OJson color = strategy_color("best");
  color["title"] = "leading strategy";
  return {{"$schema", kSchema},
          {"data", {{"values", data}}},
          {"encoding", {{"x", axis(0, "x")}, {"y", axis(1, "y")}}},
          {"layer",
           {{{"mark", "rect"}, {"encoding", {{"color", color}}}},
            {{"mark", {{"type", "text"}, {"fontSize", 11}}},
             {"encoding", {{"text", {{"field", "label"}}}}}}}}};
}

// A stacked-bar chart per point (rows), strategies within: badput buckets or time in state.
OJson per_point_chart(const Sweep& sw, bool states) {
  OJson data = OJson::array();
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    std::string label;
    for (std::size_t a = 0; a < sw.axes.size(); ++a)
      label += (a ? ", " : "") + axis_title(sw.axes[a].pointer) + " = " + sw.points[p].values[a];
    for (const auto& s : sw.points[p].report.strategies) {
      if (states) {
        const auto t = time_in_state(s);
        for (std::size_t i = 0; i < kStates.size(); ++i)
          data.push_back({{"point", label},
                          {"index", p},
                          {"strategy", s.name},
                          {"state", kStates[i]},
                          {"order", i},
                          {"share", t[i]}});
      } else {
        for (int b = 0; b < kBucketCount; ++b)
          data.push_back({{"point", label},
                          {"index", p},
                          {"strategy", s.name},
                          {"bucket", bucket_name(static_cast<Bucket>(b))},
                          {"order", b},
                          {"share", s.badput[static_cast<std::size_t>(b)].mean}});
      }
    }
  }
  OJson inner =
      stacked_chart(data, states ? "state" : "bucket", states ? "share of wall time" : "badput");
  OJson spec = {{"width", 500}, {"mark", inner["mark"]}, {"encoding", inner["encoding"]}};
  return {{"$schema", kSchema},
          {"data", {{"values", data}}},
          // Rows in point order (numeric axis order), not sorted as text (120, 1200, 300...).
          {"facet",
           {{"row",
             {{"field", "point"},
              {"type", "ordinal"},
              {"sort", {{"field", "index"}, {"op", "min"}}},
              {"title", nullptr},
              {"header", {{"labelAngle", 0}, {"labelAlign", "left"}, {"labelLimit", 400}}}}}}},
          {"spec", spec}};
}

}  // namespace

std::array<double, 4> time_in_state(const StrategySummary& s) {
  auto b = [&](Bucket k) { return s.badput[static_cast<std::size_t>(k)].mean; };
  return {s.goodput.mean, b(Bucket::DegradedCapacity) + b(Bucket::ReshardOverhead),
          b(Bucket::WastedProgress) + b(Bucket::InfrastructureRecovery) +
              b(Bucket::CheckpointSave) + b(Bucket::CheckpointRestore),
          b(Bucket::WaitingForCapacity)};
}

std::string report_html(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  std::ostringstream intro;
  intro << "<p>" << html_escape(sc.description) << "</p>\n<p>"
        << html_escape(verdict_paragraph(rep, false)) << " Details: "
        << "<a href=\"report.md\">report.md</a>, <a href=\"report.json\">report.json</a>, "
        << "<a href=\"runs.csv\">runs.csv</a>.</p>";
  if (sc.mode != RunMode::Snapshot)
    for (const auto& note : ettr_goodput_notes(rep.strategies))
      intro << "\n<p>" << html_escape(note) << "</p>";
  intro << command_html(rep.command);
  std::vector<HtmlChart> charts = {
      {"goodput", "Goodput by strategy", "Mean across seeds with its 95% confidence interval.",
       goodput_chart(rep)},
      {"badput", "Where the rest went",
       "Badput buckets, ideal-time equivalents as shares of wall time.", badput_chart(rep)},
      {"states", "Time in state",
       "running = Goodput; degraded = reduced capacity and reshard overhead; stalled = recovery, "
       "checkpoint "
       "save/restore and rolled-back work; waiting = no capacity to run.",
       state_chart(rep)}};
  if (sc.mode == RunMode::Snapshot) charts.pop_back();  // no time axis: no time in state
  // Everything report.md says, from the same source: its title line aside, one level down.
  std::string md = report_markdown(rep);
  if (md.rfind("# ", 0) == 0) md.erase(0, md.find('\n') + 1);
  return html_page(
      "goodput report: " + sc.name, intro.str(), charts,
      tables(rep) + "<h2>The whole report (as report.md)</h2>\n" + markdown_html(md, 1));
}

std::string sweep_html(const Sweep& sw) {
  const Scenario& sc = sw.points.front().plan.scenario;
  std::ostringstream intro, t;
  intro << "<p>" << html_escape(sc.description) << "</p>\n<p>" << sw.points.size()
        << " points; each a full Monte Carlo run. Tables: <a href=\"report.md\">report.md</a>; "
           "tidy data: "
           "<a href=\"points.csv\">points.csv</a>; each point's full report in point-NNN/.</p>"
        << command_html(sw.command);
  std::vector<HtmlChart> charts;
  if (!sw.seek.is_null()) {  // goal seek: target, answer or why none, evaluations (seek_html.hpp)
    intro << seek_html_section(sw.seek);
    charts.push_back(seek_chart(sw.seek));
  }
  for (std::size_t a = 0; a < sw.axes.size(); ++a)
    charts.push_back({"axis" + std::to_string(a), "Goodput vs " + axis_title(sw.axes[a].pointer),
                      "Mean Goodput per strategy with its 95% CI band.", axis_chart(sw, a)});
  if (sw.axes.size() == 2)
    charts.push_back({"best", "Leading strategy per point",
                      "Colour: the strategy with the highest mean Goodput; text: its Goodput, "
                      "\"(tie)\" when its paired lead over the runner-up is not significant.",
                      best_cell_chart(sw)});
  charts.push_back({"badput", "Where the rest went, per point",
                    "Badput buckets as shares of wall time.", per_point_chart(sw, false)});
  charts.push_back(
      {"states", "Time in state, per point",
       "running = Goodput; degraded = reduced capacity and reshard overhead; stalled = recovery, "
       "checkpoint save/restore and rolled-back work; waiting = no capacity to run.",
       per_point_chart(sw, true)});
  t << "<h2>Points</h2>\n<table><tr><th>point</th>";
  for (const auto& a : sw.axes) t << "<th>" << html_escape(a.pointer) << "</th>";
  t << "<th>seeds</th>";
  for (const auto& st : sw.points.front().report.strategies)
    t << "<th>" << html_escape(st.name) << " %</th>";
  t << "</tr>\n";
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    t << "<tr><td>" << p << "</td>";
    for (const auto& v : sw.points[p].values) t << "<td>" << html_escape(v) << "</td>";
    t << "<td>" << sw.points[p].plan.scenario.seeds << "</td>";
    for (const auto& st : sw.points[p].report.strategies)
      t << "<td>" << pct(st.goodput.mean) << " ± " << pct(st.goodput.ci95) << "</td>";
    t << "</tr>\n";
  }
  t << "</table>\n";
  return html_page("goodput sweep: " + sc.name, intro.str(), charts, t.str());
}

}  // namespace goodput
