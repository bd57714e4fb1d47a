// sensitivity.html: sensitivity.md as HTML, then one tornado chart per rival (tornado_spec).
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/report/html_page.hpp"
#include "sim/report/markdown_html.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/vega_lite.hpp"

namespace goodput {

namespace {

// An input's value as the axis reads it: "20000 s", "0.5".
std::string value_text(const SensitivityParam& p, double v) {
  return fmt("%.4g", v) + (p.unit.empty() ? "" : " " + p.unit);
}

// One rival's tornado: for each input a bar from the winner's paired lead over rival k at one
// end of the input's range to the lead at the other (pp), the input's value at each end written
// beside it, sorted by that swing (widest on top), red where the rival leads at an end, a dot at
// the scenario's value and a line at 0 (where the rival catches up).
OJson tornado_spec(const SensitivityReport& r, std::size_t k) {
  struct Row {
    const SensitivityResult* res;
    double lo, hi;  // the lead at each end of the range, pp
  };
  std::vector<Row> rows;
  for (const auto& res : r.params)
    rows.push_back({&res, 100 * res.lo.lead[k].mean, 100 * res.hi.lead[k].mean});
  // The widest swing of this lead on top (the report's order is by the winner's own swing).
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::abs(a.hi - a.lo) > std::abs(b.hi - b.lo);
  });
  const std::string& winner = r.strategies[r.winner];
  const std::string& rival = r.strategies[k];
  const std::string ahead = winner + " ahead at both ends", behind = rival + " ahead at an end";
  OJson data = OJson::array();
  double least = 0, most = 0;  // the x extent: the bars, the dots and 0
  for (const Row& row : rows) {
    const SensitivityParam& p = row.res->param;
    const bool low_left = row.lo <= row.hi;
    const OJson base =
        p.derived ? OJson(nullptr) : OJson(std::round(100 * r.base.lead[k].mean * 1e4) / 1e4);
    least = std::min({least, row.lo, row.hi});
    most = std::max({most, row.lo, row.hi});
    if (!base.is_null()) {
      least = std::min(least, base.get<double>());
      most = std::max(most, base.get<double>());
    }
    data.push_back({{"input", p.pointer},
                    {"low", row.lo},
                    {"high", row.hi},
                    {"swing", std::abs(row.hi - row.lo)},
                    {"base", base},
                    {"at_low", value_text(p, p.lo)},
                    {"at_high", value_text(p, p.hi)},
                    {"left_label", low_left ? value_text(p, p.lo) : value_text(p, p.hi)},
                    {"right_label", low_left ? value_text(p, p.hi) : value_text(p, p.lo)},
                    {"left", std::min(row.lo, row.hi)},
                    {"right", std::max(row.lo, row.hi)},
                    {"verdict", row.lo > 0 && row.hi > 0 ? ahead : behind}});
  }
  // Room on both sides for the end labels.
  const double room = 0.3 * std::max(most - least, 0.01);
  const OJson y = {{"field", "input"},
                   {"type", "nominal"},
                   {"sort", nullptr},
                   {"title", nullptr},
                   {"axis", {{"labelLimit", 320}}}};
  const OJson x = {
      {"field", "left"},
      {"type", "quantitative"},
      {"title", winner + "'s lead over " + rival + " (pp, paired; left of 0: " + rival + " ahead)"},
      {"scale", {{"domain", {least - room, most + room}}}},
      {"axis", {{"format", "+.2~f"}}}};
  const OJson color = {
      {"field", "verdict"},
      {"type", "nominal"},
      {"title", nullptr},
      {"scale", {{"domain", {ahead, behind}}, {"range", {"#4c78a8", "#e45756"}}}},
      {"legend", {{"orient", "bottom"}, {"symbolOpacity", 1}, {"labelLimit", 400}}}};
  const OJson tooltip = {
      {{"field", "input"}},
      {{"field", "at_low"}, {"title", "low end"}},
      {{"field", "low"}, {"title", "lead there (pp)"}, {"format", "+.3f"}},
      {{"field", "at_high"}, {"title", "high end"}},
      {{"field", "high"}, {"title", "lead there (pp)"}, {"format", "+.3f"}},
      {{"field", "base"}, {"title", "lead at the scenario's value (pp)"}, {"format", "+.3f"}},
      {{"field", "swing"}, {"title", "swing (pp)"}, {"format", ".3f"}}};
  auto end_label = [&](const char* at, const char* label, const char* align, int dx) {
    return OJson{{"mark", {{"type", "text"}, {"align", align}, {"dx", dx}, {"fontSize", 10}}},
                 {"encoding",
                  {{"y", y},
                   {"x", {{"field", at}, {"type", "quantitative"}}},
                   {"text", {{"field", label}}}}}};
  };
  return {{"$schema", kSchema},
          {"width", 600},
          {"height", {{"step", 26}}},
          {"data", {{"values", data}}},
          {"layer",
           OJson::array(
               {{{"mark", {{"type", "bar"}, {"height", 14}}},
                 {"encoding",
                  {{"y", y},
                   {"x", x},
                   {"x2", {{"field", "right"}}},
                   {"color", color},
                   {"tooltip", tooltip}}}},
                end_label("left", "left_label", "right", -7),
                end_label("right", "right_label", "left", 7),
                {{"mark", {{"type", "point"}, {"filled", true}, {"color", "black"}, {"size", 25}}},
                 {"encoding", {{"y", y}, {"x", {{"field", "base"}, {"type", "quantitative"}}}}}},
                {{"mark", {{"type", "rule"}, {"color", "#333"}}},
                 {"encoding", {{"x", {{"datum", 0}, {"type", "quantitative"}}}}}}})}};
}

}  // namespace

std::string sensitivity_html(const SensitivityReport& r) {
  std::vector<HtmlChart> charts;
  for (std::size_t k = 0; k < r.strategies.size(); ++k) {
    if (k == r.winner || r.params.empty()) continue;
    charts.push_back({"tornado" + std::to_string(charts.size() + 1),
                      "Tornado: " + r.strategies[r.winner] + " against " + r.strategies[k],
                      "Each bar spans " + r.strategies[r.winner] + "'s paired lead over " +
                          r.strategies[k] +
                          " (percentage points) between the two ends of one input's range, "
                          "labelled with the input's value at each end; the widest swing on "
                          "top; the dot is the scenario's value; left of the line at 0 " +
                          r.strategies[k] + " leads (red bars reach there).",
                      tornado_spec(r, k)});
  }
  return html_page("goodput sensitivity: " + r.scenario_name,
                   markdown_html(sensitivity_markdown(r), 1), charts, "");
}

}  // namespace goodput
