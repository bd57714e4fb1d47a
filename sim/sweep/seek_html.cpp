#include "sim/sweep/seek_html.hpp"

#include <sstream>

#include "sim/report/strategy_metrics.hpp"
#include "sim/sweep/goal_seek.hpp"

namespace goodput {

namespace {

using OJson = nlohmann::ordered_json;

std::string show(const Json& seek, double x, int digits = 4) {
  const StrategyMetric* m = find_strategy_metric(seek.at("metric").get<std::string>());
  return m ? format_metric_value(*m, x, digits) : Json(x).dump();
}

bool meets_by(const Json& seek, double x) {
  const double t = seek.at("target").get<double>();
  return seek.at("comparison") == ">=" ? x >= t : x <= t;
}

}  // namespace

std::string seek_reason(const Json& k) {
  if (!k.at("answer").is_null()) return "";
  const Json& steps = k.at("evaluated");
  if (steps.empty()) return "nothing was evaluated";
  const Json& top = steps.front();  // bisection evaluates the maximum first
  const std::string ptr = k.at("pointer").get<std::string>(),
                    metric = k.at("strategy").get<std::string>() + " " +
                             k.at("metric").get<std::string>(),
                    target = k.at("comparison").get<std::string>() + " " +
                             show(k, k.at("target").get<double>());
  const double mean = top.at("mean").get<double>();
  std::string s = "even the largest value considered, " + ptr + " = " + top.at("value").dump() +
                  ", misses the target: ";
  if (k.at("bound") == "mean") {
    s += metric + " is " + show(k, mean) + " (one seed, no CI), not " + target;
  } else if (meets_by(k, mean)) {
    s += "its mean " + metric + " " + show(k, mean) + " meets " + target + ", but the " +
         k.at("bound").get<std::string>() + " (" + show(k, top.at("bound").get<double>()) +
         ", CI half-width " + show(k, top.at("ci95").get<double>()) +
         ") does not; more seeds (--seeds, or --seeds auto --ci-target) may decide it";
    return s;
  } else {
    s += "its mean " + metric + " is " + show(k, mean) + ", not " + target + " even before the " +
         k.at("bound").get<std::string>() + " is taken";
  }
  s += "; assuming " +
       k.at("assumption")
           .get<std::string>()
           .substr(0, k.at("assumption").get<std::string>().find(" (")) +
       ", no smaller value can, so raise --max (if the metric still improves) or relax the target";
  return s;
}

std::string seek_html_section(const Json& k) {
  std::ostringstream s;
  const bool ci = k.at("bound") != "mean";
  const std::string ptr = html_escape(k.at("pointer").get<std::string>());
  s << "<h2>Goal seek</h2>\n<p id=\"seek-target\"><b>Target:</b> "
    << html_escape(k.at("strategy").get<std::string>() + " " + k.at("metric").get<std::string>() +
                   " " + k.at("comparison").get<std::string>() + " " +
                   show(k, k.at("target").get<double>(), 6))
    << ", over <code>" << ptr << "</code> in [" << k.at("min").dump() << ", " << k.at("max").dump()
    << "]; a value meets it when "
    << (ci ? "the " + html_escape(k.at("bound").get<std::string>()) + " of the metric (mean " +
                 (k.at("comparison") == ">=" ? "-" : "+") + " 95% CI half-width across seeds) does"
           : std::string("the mean does (one seed per point: no confidence interval)"))
    << ".</p>\n<p id=\"seek-answer\"><b>Answer:</b> ";
  if (!k.at("answer").is_null())
    s << "<b><code>" << ptr << "</code> = " << k.at("answer").dump() << "</b> — "
      << html_escape(seek_answer_text(k, false)) << ".</p>\n";
  else
    s << "<b>none in [" << k.at("min").dump() << ", " << k.at("max").dump()
      << "]</b>.</p>\n<p id=\"seek-reason\"><b>Why:</b> " << html_escape(seek_reason(k))
      << ".</p>\n";
  s << "<p>Every value evaluated, in the order bisection tried it (the maximum, the minimum, "
       "then halving the gap):</p>\n<table id=\"seek-evaluated\"><tr><th>#</th><th>"
    << ptr << "</th><th>mean</th>" << (ci ? "<th>± 95% CI</th><th>bound</th>" : "")
    << "<th>seeds</th><th>meets</th></tr>\n";
  int i = 0;
  for (const auto& e : k.at("evaluated")) {
    s << "<tr><td>" << ++i << "</td><td>" << e.at("value").dump() << "</td><td>"
      << html_escape(show(k, e.at("mean").get<double>())) << "</td>";
    if (ci)
      s << "<td>" << html_escape(show(k, e.at("ci95").get<double>())) << "</td><td>"
        << html_escape(show(k, e.at("bound").get<double>())) << "</td>";
    s << "<td>" << e.at("seeds").dump() << "</td><td>" << (e.at("meets").get<bool>() ? "yes" : "no")
      << "</td></tr>\n";
  }
  s << "</table>\n";
  if (k.contains("warnings"))
    for (const auto& w : k.at("warnings"))
      s << "<p class=\"note\"><b>Warning:</b> " << html_escape(w.get<std::string>()) << ".</p>\n";
  s << "<p class=\"note\">Assumed: " << html_escape(k.at("assumption").get<std::string>())
    << ".</p>\n";
  return s.str();
}

HtmlChart seek_chart(const Json& k) {
  const std::string metric = k.at("metric").get<std::string>();
  const bool fraction = k.at("unit") == "fraction";
  OJson data = OJson::array();
  for (const auto& e : k.at("evaluated")) {
    const double mean = e.at("mean").get<double>(), ci = e.at("ci95").get<double>();
    data.push_back({{"value", e.at("value")},
                    {"mean", mean},
                    {"lo", mean - ci},
                    {"hi", mean + ci},
                    {"meets", e.at("meets").get<bool>() ? "meets" : "misses"}});
  }
  const OJson x = {
      {"field", "value"}, {"type", "quantitative"}, {"title", k.at("pointer").get<std::string>()}};
  OJson y = {{"field", "mean"},
             {"type", "quantitative"},
             {"scale", {{"zero", false}}},
             {"title", k.at("strategy").get<std::string>() + " " + metric + " (mean, 95% CI)"}};
  if (fraction) y["axis"] = {{"format", ".2~%"}};
  OJson y_lo = y;
  y_lo["field"] = "lo";
  const OJson color = {{"field", "meets"},
                       {"type", "nominal"},
                       {"title", nullptr},
                       {"scale", {{"domain", {"meets", "misses"}}, {"range", {"#2a7", "#c33"}}}}};
  const OJson spec = {
      {"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
      {"width", 600},
      {"height", 260},
      {"layer",
       {{{"data", {{"values", data}}},
         {"mark", {{"type", "rule"}, {"strokeWidth", 2}}},
         {"encoding", {{"x", x}, {"y", y_lo}, {"y2", {{"field", "hi"}}}, {"color", color}}}},
        {{"data", {{"values", data}}},
         {"mark", {{"type", "point"}, {"filled", true}, {"size", 80}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"color", color},
           {"tooltip",
            {{{"field", "value"}}, {{"field", "mean"}}, {{"field", "lo"}}, {{"field", "hi"}}}}}}},
        {{"data", {{"values", {{{"target", k.at("target")}}}}}},
         {"mark", {{"type", "rule"}, {"strokeDash", {6, 4}}, {"color", "#333"}}},
         {"encoding", {{"y", {{"field", "target"}, {"type", "quantitative"}}}}}}}}};
  return {"seek", "Goal seek: " + metric + " vs " + k.at("pointer").get<std::string>(),
          "Each evaluated value: mean with its 95% CI, green where it meets the target (dashed "
          "line: " +
              k.at("comparison").get<std::string>() + " " + show(k, k.at("target").get<double>()) +
              ").",
          spec};
}

}  // namespace goodput
