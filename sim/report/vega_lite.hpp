// What report.html and a sweep's report.html share for their Vega-Lite specs: the schema,
// number formatting, and the stacked-bar chart of badput buckets or states with their fixed
// colours (chart_colors.hpp).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace goodput {

using OJson = nlohmann::ordered_json;
inline constexpr const char* kSchema = "https://vega.github.io/schema/vega-lite/v6.json";

std::string pct(double v);          // 0.1234 -> "12.34"
OJson with_no_legend(OJson color);  // a colour encoding without its legend
// The y encoding of a chart with one row per strategy, in report order, untitled.
OJson strategy_rows();
// Horizontal bars per strategy (and "point", when the rows carry one) stacked by `part`
// ("bucket" or "state") over the field "share". States tile the wall time: the axis is 0..100%
// exactly; buckets end at the largest bar's total (rounded up to a round tick), never past 100%.
OJson stacked_chart(const OJson& data, const char* part, const char* title);

// A heat map's cell size in px for `columns` x `rows` cells whose text labels are at most
// `longest_label` characters at kCellLabelFontSize: labels only where a cell is wide enough for
// the longest (estimated at kCellLabelCharPx a character plus a margin), so no two overlap;
// otherwise narrower cells without labels (the tooltip carries the value). The width stays
// within kHeatMaxWidth where cells of kHeatMinCell px allow.
inline constexpr int kCellLabelFontSize = 11;
inline constexpr double kCellLabelCharPx = 6.6, kHeatMaxWidth = 900, kHeatMinCell = 12;
struct HeatCells {
  double width = 0, height = 0;
  bool labels = false;
};
HeatCells heat_cell_size(std::size_t columns, std::size_t rows, std::size_t longest_label);

}  // namespace goodput
