#include "sim/report/vega_lite.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/report/chart_colors.hpp"

namespace goodput {

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100 * v);
  return buf;
}

OJson with_no_legend(OJson color) {
  color["legend"] = nullptr;
  return color;
}

OJson strategy_rows() {
  return {{"field", "strategy"}, {"type", "nominal"}, {"sort", nullptr}, {"title", nullptr}};
}

namespace {

// Buckets and states keep their colours in every chart (chart_colors.hpp).
OJson stacked_color(const std::string& part) {
  OJson c = part == "bucket" ? bucket_color() : state_color();
  c["legend"] = {{"labelLimit", 320}};
  return c;
}

// The largest stacked total of any bar (rows of one strategy and point add up).
double largest_total(const OJson& data) {
  std::map<std::string, double> total;
  double most = 0;
  for (const auto& row : data) {
    std::string key = row.at("strategy").get<std::string>();
    if (row.contains("point")) key += '\n' + row.at("point").get<std::string>();
    most = std::max(most, total[key] += row.at("share").get<double>());
  }
  return most;
}

}  // namespace

OJson stacked_chart(const OJson& data, const char* part, const char* title) {
  // States sum to 1 up to rounding, which a "nice" scale would stretch to 110%.
  const OJson scale =
      std::string(part) == "state"
          ? OJson{{"domain", {0, 1}}, {"nice", false}, {"clamp", true}}
          : OJson{{"domain", {0, std::max(0.001, std::min(1.0, largest_total(data)))}},
                  {"nice", true}};
  return {{"$schema", kSchema},
          {"width", 600},
          {"data", {{"values", data}}},
          {"mark", "bar"},
          {"encoding",
           {{"y", strategy_rows()},
            {"x",
             {{"field", "share"},
              {"type", "quantitative"},
              {"stack", "zero"},
              {"title", title},
              {"scale", scale},
              {"axis", {{"format", ".1%"}, {"tickCount", 10}}}}},
            {"color", stacked_color(part)},
            {"order", {{"field", "order"}, {"type", "quantitative"}}},
            {"tooltip", {{{"field", part}}, {{"field", "share"}, {"format", ".3%"}}}}}}};
}

HeatCells heat_cell_size(std::size_t columns, std::size_t rows, std::size_t longest_label) {
  const double label_px = kCellLabelCharPx * static_cast<double>(longest_label) + 10;
  const double fit =
      std::floor(kHeatMaxWidth / static_cast<double>(std::max<std::size_t>(columns, 1)));
  HeatCells c;
  c.labels = fit >= label_px;
  c.width = c.labels ? std::max(label_px, 60.0) : std::max(fit, kHeatMinCell);
  if (c.labels) c.width = std::min(c.width, fit);
  c.height = c.labels
                 ? 24
                 : std::clamp(std::floor(480 / static_cast<double>(std::max<std::size_t>(rows, 1))),
                              kHeatMinCell, 24.0);
  return c;
}

}  // namespace goodput
