#include "sim/report/vega_lite.hpp"

#include <cstdio>

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

}  // namespace

OJson stacked_chart(const OJson& data, const char* part, const char* title) {
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
              {"axis", {{"format", ".1%"}}}}},
            {"color", stacked_color(part)},
            {"order", {{"field", "order"}, {"type", "quantitative"}}},
            {"tooltip", {{{"field", part}}, {{"field", "share"}, {"format", ".3%"}}}}}}};
}

}  // namespace goodput
