// A sweep's report.html (sweep_html.hpp): Goodput against each axis (small multiples for
// several axes), the leading strategy per cell for two axes, goal seek, and badput and time in
// state per point.
#include "sim/sweep/sweep_html.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <sstream>

#include "models/scenario/scenario_params.hpp"
#include "sim/report/chart_colors.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/sweep/seek_html.hpp"

namespace goodput {

namespace {

bool numeric(const std::vector<std::string>& values) {
  for (const auto& v : values) {
    const auto j = nlohmann::json::parse(v, nullptr, false);
    if (j.is_discarded() || !j.is_number()) return false;
  }
  return true;
}

bool whole_numbers(const std::vector<std::string>& values) {
  for (const auto& v : values) {
    const auto j = nlohmann::json::parse(v, nullptr, false);
    if (j.is_discarded() || !j.is_number_integer()) return false;
  }
  return true;
}

// An axis title from the parameter declarations, its unit said once: "interval (s)" for
// /checkpoint/interval_s (not "interval s (s)"), "spare domains" for /cluster/spare_domains,
// "energy price per kWh" for /cost/energy_price_per_kwh; the pointer itself when it names no
// declared parameter.
std::string axis_title(const std::string& pointer) {
  const ParamDecl* d = find_decl(sections::scenario(), pointer);
  if (!d) return pointer;
  std::string name = d->key;
  std::replace(name.begin(), name.end(), '_', ' ');
  if (d->unit.empty()) return name;
  auto lower = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return t;
  };
  // The key ends with the unit's abbreviation ("interval_s", "mtbf_hours"): drop the word.
  static const std::map<std::string, std::string> suffix_unit = {
      {"s", "s"},   {"ms", "ms"}, {"h", "h"},       {"hours", "h"},       {"w", "W"},
      {"kw", "kW"}, {"gb", "GB"}, {"gbps", "GB/s"}, {"tflops", "TFLOP/s"}};
  const auto space = name.rfind(' ');
  if (space != std::string::npos) {
    const auto it = suffix_unit.find(name.substr(space + 1));
    if (it != suffix_unit.end() && it->second == d->unit)
      return name.substr(0, space) + " (" + d->unit + ")";
  }
  // The key ends with the unit's own words ("spare domains", "price per kwh"): spell it once.
  const std::string unit = lower(d->unit);
  if (name.size() > unit.size() &&
      lower(name).compare(name.size() - unit.size(), unit.size(), unit) == 0 &&
      name[name.size() - unit.size() - 1] == ' ')
    return name.substr(0, name.size() - unit.size()) + d->unit;
  return name + " (" + d->unit + ")";
}

// A dimensionless parameter declared within [0, 1] whose name says it is a share is shown as %.
bool percent_axis(const std::string& pointer) {
  const ParamDecl* d = find_decl(sections::scenario(), pointer);
  return d && d->unit.empty() && d->type == ParamType::Number && d->min >= 0 && d->max <= 1 &&
         (d->key.find("fraction") != std::string::npos ||
          d->key.find("probability") != std::string::npos);
}

// The strategies that ran, in the order the points list them (the colour scales' domain).
std::vector<std::string> ran(const Sweep& sw) {
  std::vector<std::string> names;
  for (const auto& pt : sw.points)
    for (const auto& st : pt.report.strategies)
      if (std::find(names.begin(), names.end(), st.name) == names.end()) names.push_back(st.name);
  return names;
}

// Point p's axis values as "title = value, ..." (leaving out axis `skip`, if any).
std::string point_label(const Sweep& sw, std::size_t p, std::size_t skip = SIZE_MAX) {
  std::string label;
  for (std::size_t a = 0; a < sw.axes.size(); ++a)
    if (a != skip)
      label += (label.empty() ? "" : ", ") + axis_title(sw.axes[a].pointer) + " = " +
               sw.points[p].values[a];
  return label;
}

// Goodput vs one axis: a line per strategy with a CI band; with more axes, one panel per
// combination of the other axes' values (small multiples), in point order.
OJson axis_chart(const Sweep& sw, std::size_t axis) {
  OJson data = OJson::array();
  const bool num = numeric(sw.axes[axis].values);
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    const auto& pt = sw.points[p];
    const std::string others = point_label(sw, p, axis);
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
  if (num && percent_axis(sw.axes[axis].pointer))
    x["axis"] = {{"format", ".2~%"}};
  else if (num && whole_numbers(sw.axes[axis].values))  // no ticks between whole values
    x["axis"] = {{"tickMinStep", 1}};
  const OJson color = strategy_color(ran(sw));
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
// when the lead is not significant. Cells are sized to their labels, which are dropped when
// there are too many columns for them (heat_cell_size); every cell's tooltip says the same.
OJson best_cell_chart(const Sweep& sw) {
  OJson data = OJson::array();
  std::size_t longest = 0;
  for (const auto& pt : sw.points) {
    const Report& r = pt.report;
    const auto& best = r.strategies[r.winner];
    const std::string label = fmt("%.2f%%", 100 * best.goodput.mean) +
                              (r.decided || r.strategies.size() < 2 ? "" : " (tie)");
    longest = std::max(longest, label.size());
    data.push_back(
        {{"x", pt.values[0]}, {"y", pt.values[1]}, {"best", best.name}, {"label", label}});
  }
  const std::string x_title = axis_title(sw.axes[0].pointer),
                    y_title = axis_title(sw.axes[1].pointer);
  auto axis = [&](std::size_t a, const char* field, const std::string& title) {
    OJson e = {{"field", field}, {"type", "ordinal"}, {"title", title}};
    if (numeric(sw.axes[a].values)) {  // numeric order, as the axis values were given
      OJson order = OJson::array();
      for (const auto& v : sw.axes[a].values) order.push_back(v);
      e["sort"] = order;
    }
    return e;
  };
  OJson color = strategy_color(ran(sw), "best");
  color["title"] = "leading strategy";
  const HeatCells cells =
      heat_cell_size(sw.axes[0].values.size(), sw.axes[1].values.size(), longest);
  OJson layers = OJson::array({{{"mark", "rect"},
                                {"encoding",
                                 {{"color", color},
                                  {"tooltip",
                                   {{{"field", "x"}, {"title", x_title}},
                                    {{"field", "y"}, {"title", y_title}},
                                    {{"field", "best"}, {"title", "leading strategy"}},
                                    {{"field", "label"}, {"title", "its Goodput"}}}}}}}});
  if (cells.labels)
    layers.push_back({{"mark", {{"type", "text"}, {"fontSize", kCellLabelFontSize}}},
                      {"encoding", {{"text", {{"field", "label"}}}}}});
  return {{"$schema", kSchema},
          {"width", {{"step", cells.width}}},
          {"height", {{"step", cells.height}}},
          {"data", {{"values", data}}},
          {"encoding", {{"x", axis(0, "x", x_title)}, {"y", axis(1, "y", y_title)}}},
          {"layer", layers}};
}

// A stacked-bar chart per point (rows), strategies within: badput buckets or time in state.
OJson per_point_chart(const Sweep& sw, bool states) {
  OJson data = OJson::array();
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    const std::string label = point_label(sw, p);
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

// The trade-off in one chart: each point's Goodput against its cost to train (mean, with
// /report/train_hours and gpu_hour_price; the whole cluster, spares included), a line per
// strategy along the first axis, the axis values in the tooltip. With more axes, one line per
// strategy and value of the others (detail; dashed by it), never joining points across them.
// Empty when the points are unpriced.
OJson cost_tradeoff_chart(const Sweep& sw) {
  OJson data = OJson::array();
  std::vector<std::string> others;  // the other axes' values, in point order
  for (std::size_t p = 0; p < sw.points.size(); ++p) {
    const auto& pt = sw.points[p];
    const Scenario& sc = pt.plan.scenario;
    if (sc.mode == RunMode::Snapshot || sc.train_hours <= 0 || sc.gpu_hour_price <= 0) return {};
    const std::string label = point_label(sw, p), other = point_label(sw, p, 0);
    if (std::find(others.begin(), others.end(), other) == others.end()) others.push_back(other);
    for (const auto& st : pt.report.strategies)
      data.push_back({{"strategy", st.name},
                      {"goodput", st.goodput.mean},
                      {"cost", st.cost_to_train.mean},
                      {"point", label},
                      {"others", other},
                      {"index", p}});
  }
  OJson enc = {{"x",
                {{"field", "cost"},
                 {"type", "quantitative"},
                 {"title", "cost to train (mean)"},
                 {"scale", {{"zero", false}}}}},
               {"y",
                {{"field", "goodput"},
                 {"type", "quantitative"},
                 {"title", "Goodput (mean)"},
                 {"scale", {{"zero", false}}},
                 {"axis", {{"format", ".1%"}}}}},
               {"color", strategy_color(ran(sw))},
               {"order", {{"field", "index"}, {"type", "quantitative"}}},
               {"tooltip",
                {{{"field", "strategy"}},
                 {{"field", "point"}},
                 {{"field", "goodput"}, {"format", ".2%"}},
                 {{"field", "cost"}, {"format", ".4~s"}}}}};
  OJson line = {{"mark", "line"}, {"encoding", OJson::object()}};
  if (sw.axes.size() > 1) {
    std::string title;
    for (std::size_t a = 1; a < sw.axes.size(); ++a)
      title += (title.empty() ? "" : ", ") + axis_title(sw.axes[a].pointer);
    OJson domain = OJson::array();
    for (const auto& o : others) domain.push_back(o);
    enc["detail"] = {{"field", "others"}, {"type", "nominal"}};
    // Dashes on the lines only, so the legend draws them as lines.
    line["encoding"]["strokeDash"] = {
        {"field", "others"}, {"type", "nominal"},
        {"sort", nullptr},   {"scale", {{"domain", domain}}},
        {"title", title},    {"legend", {{"symbolStrokeWidth", 2}, {"symbolSize", 400}}}};
  }
  return {{"$schema", kSchema},
          {"width", 600},
          {"data", {{"values", data}}},
          {"encoding", enc},
          {"layer", {line, {{"mark", {{"type", "point"}, {"filled", true}, {"opacity", 1}}}}}}};
}

}  // namespace

std::string sweep_html(const Sweep& sw) {
  const Scenario& sc = sw.points.front().plan.scenario;
  std::ostringstream intro, t;
  std::vector<std::string> axes;  // what the sweep varies on purpose
  for (const auto& a : sw.axes) axes.push_back(a.pointer);
  intro << "<p>"
        << html_escape(description_applies(sc, axes) ? sc.description : description_note(sc, axes))
        << "</p>\n<p>" << sw.points.size()
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
  if (OJson tradeoff = cost_tradeoff_chart(sw); !tradeoff.is_null())
    charts.push_back({"cost", "Goodput against cost to train",
                      "Each point's mean Goodput and mean cost to train (/report/train_hours at "
                      "/report/gpu_hour_price, the whole cluster held, spares included), a line "
                      "per strategy along the first axis (dashed by the other axes' values): up "
                      "and to the left is better.",
                      tradeoff});
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
