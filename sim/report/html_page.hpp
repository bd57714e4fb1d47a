// A self-contained HTML page with Vega-Lite charts: the vendored vega, vega-lite and
// vega-embed builds (scripts/vendor-js.sh; read from $GOODPUT_JS_DIR or the compiled-in
// third_party/js, or <data>/js of an installed goodput) are inlined so the page opens offline,
// each only if its SHA-256 is the one pinned in scripts/vendor-js.sha256 and compiled in. If one
// is missing or differs, none is inlined: the page is still written, with a visible notice in
// place of the charts; charts_available() says so and charts_missing_reason() why.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace goodput {

struct HtmlChart {
  std::string id, title, note;
  nlohmann::ordered_json spec;  // a Vega-Lite spec with its data inline
  // When not empty: the spec as JSON text (what spec.dump() would give), written in its place;
  // for a chart of thousands of data points, written as text without a document.
  std::string spec_json = {};
};

bool charts_available();
std::string charts_missing_reason();  // empty when charts_available(); names the file
std::string html_escape(const std::string& text);
// A chart's export control, under it on every page: "Save SVG" and "Save PNG" buttons
// (data-chart = the chart's id, data-format = svg or png), enabled once the chart is drawn, that
// download the drawn chart through Vega's own view.toSVG() / toImageURL() (offline).
std::string export_controls(const std::string& id);
// body_html comes first (headings, summary, tables), then each chart under its title.
std::string html_page(const std::string& title, const std::string& intro_html,
                      const std::vector<HtmlChart>& charts, const std::string& tables_html);

}  // namespace goodput
