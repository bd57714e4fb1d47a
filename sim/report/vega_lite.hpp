// What report.html and a sweep's report.html share for their Vega-Lite specs: the schema,
// number formatting, and the stacked-bar chart of badput buckets or states with their fixed
// colours (chart_colors.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace goodput {

using OJson = nlohmann::ordered_json;
inline constexpr const char* kSchema = "https://vega.github.io/schema/vega-lite/v6.json";

std::string pct(double v);          // 0.1234 -> "12.34"
OJson with_no_legend(OJson color);  // a colour encoding without its legend
// The y encoding of a chart with one row per strategy, in report order, untitled.
OJson strategy_rows();
// Horizontal bars per strategy stacked by `part` ("bucket" or "state") over the field "share".
OJson stacked_chart(const OJson& data, const char* part, const char* title);

}  // namespace goodput
