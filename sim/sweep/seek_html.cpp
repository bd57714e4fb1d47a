#include "sim/sweep/seek_html.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/report/strategy_metrics.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/sweep/goal_seek.hpp"

namespace goodput {

namespace {

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

SeekWindow seek_window(const Json& k) {
  std::vector<const Json*> steps;
  for (const auto& e : k.at("evaluated")) steps.push_back(&e);
  std::sort(steps.begin(), steps.end(), [](const Json* a, const Json* b) {
    return a->at("value").get<double>() < b->at("value").get<double>();
  });
  SeekWindow w;
  if (steps.empty()) {
    w.x_lo = k.at("min").get<double>();
    w.x_hi = k.at("max").get<double>();
    w.y_lo = w.y_hi = k.at("target").get<double>();
  } else {
    // The answer (else the largest value, the one nearest the target) and its neighbours.
    std::size_t i = steps.size() - 1;
    if (!k.at("answer").is_null())
      for (std::size_t j = 0; j < steps.size(); ++j)
        if (steps[j]->at("value") == k.at("answer")) i = j;
    const std::size_t first = i > 0 ? i - 1 : 0, last = std::min(i + 1, steps.size() - 1);
    w.x_lo = steps[first]->at("value").get<double>();
    w.x_hi = steps[last]->at("value").get<double>();
    w.y_lo = w.y_hi = k.at("target").get<double>();
    for (std::size_t j = first; j <= last; ++j) {
      const double mean = steps[j]->at("mean").get<double>(),
                   ci = steps[j]->at("ci95").get<double>();
      w.y_lo = std::min(w.y_lo, mean - ci);
      w.y_hi = std::max(w.y_hi, mean + ci);
      w.values.push_back(steps[j]->at("value").get<double>());
    }
  }
  // Room around the points: half a step (the values are whole numbers) or a tenth of the width.
  const double x_pad = std::max(0.5, 0.1 * (w.x_hi - w.x_lo));
  w.x_lo -= x_pad;
  w.x_hi += x_pad;
  const double target = k.at("target").get<double>();
  const double y_pad = std::max(0.15 * (w.y_hi - w.y_lo), 0.002 * std::max(1.0, std::abs(target)));
  w.y_lo -= y_pad;
  w.y_hi += y_pad;
  if (k.at("unit") == "fraction") {  // a share: never past 0% or 100%
    w.y_lo = std::max(w.y_lo, 0.0);
    w.y_hi = std::min(w.y_hi, 1.0);
  }
  return w;
}

HtmlChart seek_chart(const Json& k) {
  const std::string metric = k.at("metric").get<std::string>();
  const bool fraction = k.at("unit") == "fraction";
  const SeekWindow w = seek_window(k);
  OJson data = OJson::array();
  for (const auto& e : k.at("evaluated")) {
    const double value = e.at("value").get<double>();
    if (std::find(w.values.begin(), w.values.end(), value) == w.values.end()) continue;
    const double mean = e.at("mean").get<double>(), ci = e.at("ci95").get<double>();
    // A share's CI drawn within 0..100% (the view ends there).
    const double lo = fraction ? std::max(0.0, mean - ci) : mean - ci,
                 hi = fraction ? std::min(1.0, mean + ci) : mean + ci;
    data.push_back({{"value", e.at("value")},
                    {"mean", mean},
                    {"lo", lo},
                    {"hi", hi},
                    {"meets", e.at("meets").get<bool>() ? "meets" : "misses"}});
  }
  const std::string pointer = k.at("pointer").get<std::string>();
  const OJson x = {{"field", "value"},
                   {"type", "quantitative"},
                   {"title", pointer},
                   {"scale", {{"domain", {w.x_lo, w.x_hi}}, {"nice", false}}},
                   {"axis", {{"tickMinStep", 1}, {"format", "d"}}}};
  OJson y = {{"field", "mean"},
             {"type", "quantitative"},
             {"scale", {{"domain", {w.y_lo, w.y_hi}}, {"nice", false}}},
             {"title", k.at("strategy").get<std::string>() + " " + metric + " (mean, 95% CI)"}};
  if (fraction) y["axis"] = {{"format", ".2~%"}};
  OJson y_lo = y;
  y_lo["field"] = "lo";
  const OJson color = {{"field", "meets"},
                       {"type", "nominal"},
                       {"title", nullptr},
                       {"scale", {{"domain", {"meets", "misses"}}, {"range", {"#2a7", "#c33"}}}},
                       {"legend", {{"symbolOpacity", 1}}}};
  const std::string target_text = "target " + k.at("comparison").get<std::string>() + " " +
                                  show(k, k.at("target").get<double>());
  OJson layers = {
      {{"data", {{"values", data}}},
       {"mark", {{"type", "rule"}, {"strokeWidth", 2}, {"clip", true}}},
       {"encoding", {{"x", x}, {"y", y_lo}, {"y2", {{"field", "hi"}}}, {"color", color}}}},
      {{"data", {{"values", data}}},
       {"mark",
        {{"type", "point"}, {"filled", true}, {"size", 80}, {"opacity", 1}, {"clip", true}}},
       {"encoding",
        {{"x", x},
         {"y", y},
         {"color", color},
         {"tooltip",
          {{{"field", "value"}, {"title", pointer}},
           {{"field", "mean"}, {"format", fraction ? ".3%" : ".4~g"}},
           {{"field", "lo"}, {"format", fraction ? ".3%" : ".4~g"}},
           {{"field", "hi"}, {"format", fraction ? ".3%" : ".4~g"}}}}}}},
      {{"data", {{"values", {{{"target", k.at("target")}, {"text", target_text}}}}}},
       {"layer",
        {{{"mark", {{"type", "rule"}, {"strokeDash", {6, 4}}, {"color", "#333"}}},
          {"encoding", {{"y", {{"field", "target"}, {"type", "quantitative"}}}}}},
         {{"mark",
           {{"type", "text"},
            {"align", "left"},
            {"dx", 4},
            {"dy", -7},
            {"color", "#333"},
            {"x", 0}}},
          {"encoding",
           {{"y", {{"field", "target"}, {"type", "quantitative"}}},
            {"text", {{"field", "text"}}}}}}}}}};
  if (!k.at("answer").is_null())  // the answer: a vertical line through it
    layers.push_back({{"data", {{"values", {{{"answer", k.at("answer")}}}}}},
                      {"mark", {{"type", "rule"}, {"strokeDash", {2, 3}}, {"color", "#2a7"}}},
                      {"encoding", {{"x", {{"field", "answer"}, {"type", "quantitative"}}}}}});
  const OJson spec = {{"$schema", kSchema}, {"width", 600}, {"height", 260}, {"layer", layers}};
  const std::size_t outside = k.at("evaluated").size() - data.size();
  return {
      "seek", "Goal seek: " + metric + " vs " + pointer,
      "Zoomed to the values around " +
          (k.at("answer").is_null() ? std::string("the largest value")
                                    : "the answer (" + k.at("answer").dump() + ", dotted line)") +
          ": mean with its 95% CI, green where it meets the target (dashed line: " +
          k.at("comparison").get<std::string>() + " " + show(k, k.at("target").get<double>()) +
          ")." +
          (outside ? " The table above lists every evaluated value (" + std::to_string(outside) +
                         " more outside this view)."
                   : std::string()),
      spec};
}

}  // namespace goodput
