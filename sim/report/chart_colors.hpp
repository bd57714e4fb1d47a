// One colour per strategy, per badput bucket and per state, the same in every chart of every
// report (Vega-Lite colour encodings with a fixed scale). Strategies take a categorical palette
// in strategy-table order; states and buckets read by meaning: running green, degraded (reduced
// capacity, reshard) yellow and orange, stalled (recovery, checkpoints, rolled-back work) reds,
// waiting grey.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace goodput {

// {"field": field, "type": "nominal", "sort": null, "scale": {...}} for the strategies that ran
// (`names`, in report order: the legend lists these and no other), each in its colour of the
// strategy table whatever else ran; legend swatches at full opacity (a chart's translucent
// layers, such as CI bands, do not pale them).
nlohmann::ordered_json strategy_color(const std::vector<std::string>& names,
                                      const std::string& field = "strategy");
// The same for badput bucket names (field "bucket") and state names (field "state").
nlohmann::ordered_json bucket_color(const std::string& field = "bucket");
nlohmann::ordered_json state_color(const std::string& field = "state");
// The same for timeline phase names (timeline.hpp phase_names()): a stalled phase takes its
// bucket's colour, running the running state's, "timeline truncated" black.
nlohmann::ordered_json phase_color(const std::string& field = "phase");

}  // namespace goodput
