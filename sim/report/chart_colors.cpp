#include "sim/report/chart_colors.hpp"

#include <array>

#include "models/job/job_signals.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/timeline.hpp"

namespace goodput {

namespace {

using OJson = nlohmann::ordered_json;

// Tableau 10, then greys for any strategy past the tenth.
constexpr std::array<const char*, 10> kPalette = {"#4c78a8", "#f58518", "#54a24b", "#e45756",
                                                  "#72b7b2", "#eeca3b", "#b279a2", "#ff9da6",
                                                  "#9d755d", "#bab0ac"};

// Bucket order (job_signals.hpp): wasted progress, recovery, checkpoint save, checkpoint
// restore (stalled: reds), degraded capacity, reshard overhead (degraded: yellow, orange),
// waiting for capacity (grey), slow components (purple).
constexpr std::array<const char*, kBucketCount> kBucketColors = {
    "#9e1b1b", "#e45756", "#ff9da6", "#c46487", "#eeca3b", "#f58518", "#9d9d9d", "#b279a2"};
constexpr std::array<const char*, kStates.size()> kStateColors = {"#54a24b", "#eeca3b", "#e45756",
                                                                  "#9d9d9d"};

OJson nominal(const std::string& field, OJson domain, OJson range) {
  return {{"field", field},
          {"type", "nominal"},
          {"sort", nullptr},
          {"scale", {{"domain", std::move(domain)}, {"range", std::move(range)}}}};
}

}  // namespace

OJson strategy_color(const std::vector<std::string>& names, const std::string& field) {
  OJson domain = OJson::array(), range = OJson::array();
  const auto& table = strategy_table();
  for (const std::string& name : names) {
    std::size_t i = 0;
    while (i < table.size() && table[i].name != name) ++i;  // past the table: grey
    domain.push_back(name);
    range.push_back(i < kPalette.size() ? kPalette[i] : "#7f7f7f");
  }
  OJson c = nominal(field, domain, range);
  c["legend"] = {{"symbolOpacity", 1}};
  return c;
}

OJson bucket_color(const std::string& field) {
  OJson domain = OJson::array(), range = OJson::array();
  for (int b = 0; b < kBucketCount; ++b) {
    domain.push_back(bucket_name(static_cast<Bucket>(b)));
    range.push_back(kBucketColors[static_cast<std::size_t>(b)]);
  }
  return nominal(field, domain, range);
}

OJson state_color(const std::string& field) {
  OJson domain = OJson::array(), range = OJson::array();
  for (std::size_t s = 0; s < kStates.size(); ++s) {
    domain.push_back(kStates[s]);
    range.push_back(kStateColors[s]);
  }
  return nominal(field, domain, range);
}

OJson phase_color(const std::string& field) {
  OJson domain = OJson::array(), range = OJson::array();
  const auto names = phase_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& [name, bucket] = names[i];
    domain.push_back(name);
    if (bucket)
      range.push_back(kBucketColors[static_cast<std::size_t>(*bucket)]);
    else
      range.push_back(i == 0 ? kStateColors[0] : "#000000");  // running; truncated
  }
  return nominal(field, domain, range);
}

}  // namespace goodput
