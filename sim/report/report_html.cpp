#include "sim/report/report_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "sim/core/json_out.hpp"
#include "sim/report/chart_colors.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/markdown_html.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/timeline.hpp"
#include "sim/report/vega_lite.hpp"

namespace goodput {

namespace {

// The strategies that ran, in report order (the colour scales' domain).
std::vector<std::string> ran(const Report& rep) {
  std::vector<std::string> names;
  for (const auto& s : rep.strategies) names.push_back(s.name);
  return names;
}

OJson goodput_chart(const Report& rep) {
  OJson data = OJson::array();
  for (const auto& s : rep.strategies)
    data.push_back({{"strategy", s.name},
                    {"goodput", s.goodput.mean},
                    {"lo", std::max(0.0, s.goodput.mean - s.goodput.ci95)},
                    {"hi", std::min(1.0, s.goodput.mean + s.goodput.ci95)}});
  const OJson y = strategy_rows();
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
               {"color", with_no_legend(strategy_color(ran(rep)))},
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

// Run to completion: each finished run's days to reach /report/train_hours, one tick per run
// and strategy, with the median as a larger mark.
OJson completion_chart(const Report& rep) {
  OJson data = OJson::array();
  for (std::size_t i = 0; i < rep.strategies.size() && i < rep.runs.size(); ++i)
    for (const RunMetrics& m : rep.runs[i].runs)
      if (m.completion_hours > 0)
        data.push_back({{"strategy", rep.strategies[i].name},
                        {"days", m.completion_hours / 24},
                        {"what", "run"}});
  for (const auto& s : rep.strategies)
    if (s.completion.p50_hours > 0)
      data.push_back(
          {{"strategy", s.name}, {"days", s.completion.p50_hours / 24}, {"what", "p50"}});
  const OJson y = strategy_rows();
  const OJson x = {{"field", "days"},
                   {"type", "quantitative"},
                   {"title", "days to finish (each run; large mark: median)"},
                   {"scale", {{"zero", false}}}};
  return {{"$schema", kSchema},
          {"width", 600},
          {"data", {{"values", data}}},
          {"layer",
           {{{"transform", {{{"filter", "datum.what == 'run'"}}}},
             {"mark", {{"type", "tick"}, {"opacity", 0.6}}},
             {"encoding",
              {{"y", y},
               {"x", x},
               {"color", with_no_legend(strategy_color(ran(rep)))},
               {"tooltip", {{{"field", "days"}, {"format", ".2f"}}}}}}},
            {{"transform", {{{"filter", "datum.what == 'p50'"}}}},
             {"mark", {{"type", "point"}, {"filled", true}, {"size", 120}, {"color", "black"}}},
             {"encoding",
              {{"y", y}, {"x", x}, {"tooltip", {{{"field", "days"}, {"format", ".2f"}}}}}}}}}};
}

// Run 0's timeline: each strategy's job phases over time above the number of failed GPUs (a
// step line), on one day axis. At kTimelineColumns columns, each strategy's row stacks the share
// of each phase in the column (timeline_columns), so a short stall shows as a thin slice and a
// small loss paints no more than its share; timeline.json keeps every span.
constexpr int kTimelineColumns = 600;

// The spec as JSON text (HtmlChart::spec_json): its thousands of data points are written one by
// one (JsonOut), the rest of the spec as documents.
std::string timeline_chart(const RecordedTimeline& tl) {
  // Days, to 1e-5 day (under a second): enough for any picture, and a smaller page.
  auto days = [](Time t) { return std::round(to_hours(t) / 24 * 1e5) / 1e5; };
  const OJson domain = OJson::array({0, days(tl.horizon)});
  const OJson phase_axis = {{"field", "start"},
                            {"type", "quantitative"},
                            {"title", nullptr},
                            {"scale", {{"domain", domain}, {"nice", false}}}};
  OJson day_axis = {{"field", "day"},
                    {"type", "quantitative"},
                    {"title", "days into run " + std::to_string(tl.run)},
                    {"scale", {{"domain", domain}, {"nice", false}}}};
  OJson row = strategy_rows();
  row["header"] = {{"labelAngle", 0}, {"labelAlign", "left"}};
  const OJson phases_encoding = {
      {"row", row},
      {"x", phase_axis},
      {"x2", {{"field", "end"}}},
      {"y",
       {{"field", "lo"},
        {"type", "quantitative"},
        {"scale", {{"domain", OJson::array({0, 1})}}},
        {"axis", nullptr}}},
      {"y2", {{"field", "hi"}}},
      {"color", phase_color()},
      {"tooltip",
       {{{"field", "strategy"}},
        {{"field", "phase"}},
        {{"field", "share"}, {"format", ".1%"}, {"title", "share of the column"}},
        {{"field", "start"}, {"format", ".3f"}, {"title", "from day"}},
        {{"field", "end"}, {"format", ".3f"}, {"title", "to day"}}}}};
  const OJson counter_mark = {
      {"type", "line"}, {"interpolate", "step-after"}, {"color", "#444444"}};
  const OJson counter_encoding = {
      {"x", day_axis},
      {"y", {{"field", "failed"}, {"type", "quantitative"}, {"title", "failed GPUs"}}},
      {"tooltip", {{{"field", "day"}, {"format", ".3f"}}, {{"field", "failed"}}}}};
  std::string out;
  JsonOut w(out);
  w.begin_object().member("$schema", kSchema).key("vconcat").begin_array();
  // The job phases: per strategy, each column's share of each phase.
  w.begin_object().member("width", 600).member("height", 36);
  w.key("data").begin_object().key("values").begin_array();
  for (const auto& [strategy, phases] : tl.phases)
    for (const TimelineCell& c : timeline_columns(phases, tl.horizon, kTimelineColumns)) {
      w.begin_object().member("strategy", strategy).member("phase", c.phase);
      w.member("start", days(c.start)).member("end", days(c.end));
      w.member("lo", std::round(c.lo * 1e4) / 1e4)  // to 0.01%: enough to draw
          .member("hi", std::round(c.hi * 1e4) / 1e4)
          .end_object();
    }
  w.end_array().end_object();
  w.key("transform")
      .raw(OJson::array({{{"calculate", "datum.hi - datum.lo"}, {"as", "share"}}}).dump());
  w.key("mark").begin_object().member("type", "rect").end_object();
  w.key("encoding").raw(phases_encoding.dump()).end_object();
  // The failed GPUs, a step line; the last value holds to the horizon.
  w.begin_object().member("width", 600).member("height", 100);
  w.key("data").begin_object().key("values").begin_array();
  for (const auto& [t, n] : tl.failed_gpus)
    w.begin_object().member("day", days(t)).member("failed", n).end_object();
  if (!tl.failed_gpus.empty())
    w.begin_object()
        .member("day", days(tl.horizon))
        .member("failed", tl.failed_gpus.back().second)
        .end_object();
  w.end_array().end_object();
  w.key("mark").raw(counter_mark.dump());
  w.key("encoding").raw(counter_encoding.dump()).end_object();
  w.end_array().end_object();
  return out;
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

// One cell of a metric's HTML column: the mean as a percentage, or through its number format.
std::string html_cell(const MetricColumn& c, double v) {
  return "<td>" + (c.number ? fmt(c.number, v) : pct(v)) + "</td>";
}

// "Numbers": one column per metric of the table (strategy_metrics.hpp) with an HTML label, in the
// modes it applies to; those of every mode, then the paired difference against the baseline,
// then those of this mode only and the time in state.
std::string tables(const Report& rep) {
  const RunMode mode = rep.plan->scenario.mode;
  std::vector<const StrategyMetric*> every, this_mode;
  for (const StrategyMetric& m : strategy_metrics())
    if (!m.html.label.empty() && in_modes(m.applies, mode))
      (m.applies == kEveryMode ? every : this_mode).push_back(&m);
  // Snapshot mode has no time axis: no time in state.
  const bool timed = mode != RunMode::Snapshot;
  std::ostringstream s;
  auto headers = [&s](const std::vector<const StrategyMetric*>& ms) {
    for (const StrategyMetric* m : ms)
      s << "<th>" << html_escape(m->html.label) << "</th>"
        << (m->html.ci_column ? "<th>± 95% CI</th>" : "");
  };
  auto cells = [&s](const std::vector<const StrategyMetric*>& ms, const StrategySummary& st) {
    for (const StrategyMetric* m : ms) {
      const Summary& v = m->get(st);
      s << html_cell(m->html, v.mean) << (m->html.ci_column ? html_cell(m->html, v.ci95) : "");
    }
  };
  s << "<h2>Numbers</h2>\n<table><tr><th>strategy</th>";
  headers(every);
  if (rep.baseline)  // paired over the same failures
    s << "<th>vs " << html_escape(rep.strategies[*rep.baseline].name)
      << " (pp, paired)</th><th>± 95% CI</th>";
  headers(this_mode);
  if (timed)
    for (const char* st : kStates) s << "<th>" << st << " %</th>";
  s << "</tr>\n";
  for (const auto& st : rep.strategies) {
    s << "<tr><td>" << html_escape(st.name) << "</td>";
    cells(every, st);
    if (rep.baseline)
      s << "<td>" << fmt("%+.2f", 100 * st.difference_vs_baseline.mean) << "</td><td>"
        << (st.difference_vs_baseline.n < 2 ? std::string("n/a")
                                            : fmt("%.2f", 100 * st.difference_vs_baseline.ci95))
        << "</td>";
    cells(this_mode, st);
    if (timed)
      for (double v : time_in_state(st)) s << "<td>" << pct(v) << "</td>";
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
  // Time to train, run to completion, energy and the rest: in the whole report (report.md).
  s << "</table>\n";
  return s.str();
}

}  // namespace

std::string report_html(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  std::ostringstream intro;
  intro << "<p>" << html_escape(description_applies(sc) ? sc.description : description_note(sc))
        << "</p>\n<p>This run: " << html_escape(scenario_intro(*rep.plan)) << "</p>\n<p>"
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
       "running = Goodput; degraded = reduced capacity, reshard overhead and slow components; "
       "stalled = recovery, "
       "checkpoint "
       "save/restore and rolled-back work; waiting = no capacity to run.",
       state_chart(rep)}};
  if (sc.mode == RunMode::Snapshot) charts.pop_back();  // no time axis: no time in state
  if (sc.mode != RunMode::Snapshot && sc.train_hours > 0)
    charts.push_back({"completion", "Run to completion",
                      "Days until each run's progress reached the training target (runs that did "
                      "not finish within the horizon are not drawn; the table says how many).",
                      completion_chart(rep)});
  if (!rep.timeline.empty())
    charts.push_back({"timeline", "One run's timeline",
                      "Run " + std::to_string(rep.timeline.run) +
                          "'s job phase under each strategy (the same failures for all; each of "
                          "600 columns stacks the share of each phase in it) and the number of "
                          "failed GPUs. Every span: timeline.json (https://ui.perfetto.dev).",
                      OJson(), timeline_chart(rep.timeline)});
  // Everything report.md says, from the same source: its title line aside, one level down.
  std::string md = report_markdown(rep);
  if (md.rfind("# ", 0) == 0) md.erase(0, md.find('\n') + 1);
  return html_page(
      "goodput report: " + sc.name, intro.str(), charts,
      tables(rep) + "<h2>The whole report (as report.md)</h2>\n" + markdown_html(md, 1));
}

}  // namespace goodput
