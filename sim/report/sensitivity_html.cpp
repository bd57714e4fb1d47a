// sensitivity.html: sensitivity.md as HTML, then one tornado chart per rival: for each input a
// bar from the winner's paired lead over that rival at the low end to the lead at the high end
// (in pp), a dot at the scenario's value and a rule at 0 (where the rival catches up).
#include <cmath>
#include <string>

#include "sim/report/html_page.hpp"
#include "sim/report/markdown_html.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/report/vega_lite.hpp"

namespace goodput {

namespace {

OJson tornado_spec(const SensitivityReport& r, std::size_t k) {
  OJson rows = OJson::array();
  for (const auto& res : r.params) {
    const double lo = 100 * res.lo.lead[k].mean, hi = 100 * res.hi.lead[k].mean;
    rows.push_back({{"input", res.param.pointer},
                    {"low", lo},
                    {"high", hi},
                    {"base", res.param.derived ? OJson(nullptr) : OJson(100 * r.base.lead[k].mean)},
                    {"end", lo < hi ? "low end left" : "high end left"}});
  }
  const OJson y = {{"field", "input"}, {"type", "nominal"}, {"sort", nullptr}, {"title", nullptr}};
  const std::string title =
      r.strategies[r.winner] + " minus " + r.strategies[k] + ", pp (paired; 0: they tie)";
  return {{"$schema", kSchema},
          {"width", 600},
          {"data", {{"values", rows}}},
          {"layer",
           OJson::array(
               {{{"mark", {{"type", "bar"}, {"tooltip", true}}},
                 {"encoding",
                  {{"y", y},
                   {"x", {{"field", "low"}, {"type", "quantitative"}, {"title", title}}},
                   {"x2", {{"field", "high"}}}}}},
                {{"mark", {{"type", "point"}, {"filled", true}, {"color", "black"}}},
                 {"encoding", {{"y", y}, {"x", {{"field", "base"}, {"type", "quantitative"}}}}}},
                {{"mark", {{"type", "rule"}, {"color", "red"}}},
                 {"encoding", {{"x", {{"datum", 0}, {"type", "quantitative"}}}}}}})}};
}

}  // namespace

std::string sensitivity_html(const SensitivityReport& r) {
  std::vector<HtmlChart> charts;
  for (std::size_t k = 0; k < r.strategies.size(); ++k) {
    if (k == r.winner || r.params.empty()) continue;
    charts.push_back({"tornado" + std::to_string(charts.size() + 1),
                      "Tornado: " + r.strategies[r.winner] + " against " + r.strategies[k],
                      "Each bar spans the paired lead at the two ends of the input's range; the "
                      "dot is the scenario's value; left of the red rule " +
                          r.strategies[k] + " leads.",
                      tornado_spec(r, k)});
  }
  return html_page("goodput sensitivity: " + r.scenario_name,
                   markdown_html(sensitivity_markdown(r), 1), charts, "");
}

}  // namespace goodput
