#include "sim/sweep/goal_seek.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/suggest.hpp"

namespace goodput {

SeekResult bisect_smallest(long lo, long hi, const std::function<bool(long)>& meets) {
  if (lo > hi) throw std::invalid_argument("goal seek: min > max");
  SeekResult r;
  auto eval = [&](long v) {
    const bool ok = meets(v);
    r.steps.push_back({v, ok});
    return ok;
  };
  if (!eval(hi)) {
    // Neither end, or only lo: then lo is the smallest value meeting the target, but the
    // property falls as the value grows, against what bisection assumes.
    if (lo < hi && eval(lo)) r.answer = lo, r.only_min_meets = true;
    return r;
  }
  if (lo == hi || eval(lo)) {
    r.answer = lo == hi ? hi : lo;
    return r;
  }
  // Invariant: lo fails, hi meets.
  while (hi - lo > 1) {
    const long mid = lo + (hi - lo) / 2;
    (eval(mid) ? hi : lo) = mid;
  }
  r.answer = hi;
  return r;
}

const char* comparison_text(Comparison c) {
  return c == Comparison::AtLeast ? ">=" : "<=";
}

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string metric_list() {
  std::string out;
  for (const auto& n : strategy_metric_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

SeekTarget parse_seek_target(const std::string& text, const std::string& flag) {
  const std::string form = "expected METRIC>=X or METRIC<=X, e.g. goodput>=0.95";
  const auto op = text.find_first_of("<>=");
  if (op == std::string::npos) throw InputError(flag, text, form);
  SeekTarget t;
  if (text.compare(op, 2, ">=") == 0)
    t.comparison = Comparison::AtLeast;
  else if (text.compare(op, 2, "<=") == 0)
    t.comparison = Comparison::AtMost;
  else
    throw InputError(flag, text, form + " (only >= and <= compare)");
  const std::string name = trim(text.substr(0, op));
  std::string number = trim(text.substr(op + 2));
  if (name.empty())
    throw InputError(flag, text,
                     form + " (no metric before " + comparison_text(t.comparison) + ")");
  t.metric = find_strategy_metric(name);
  if (t.metric && !t.metric->seek) t.metric = nullptr;  // a per-run column, no target
  if (!t.metric)
    throw InputError(flag, text,
                     "unknown metric '" + name + "'" + did_you_mean(name, strategy_metric_names()) +
                         "; metrics: " + metric_list());
  const bool fraction = t.metric->unit == "fraction";
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) {
    if (!fraction)
      throw InputError(flag, text,
                       name + " is in " + t.metric->unit + ", not a fraction: drop the %");
    number = trim(number.substr(0, number.size() - 1));
  }
  char* end = nullptr;
  const double x = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(x))
    throw InputError(
        flag, text,
        form + " (X is a number" + (fraction ? std::string(" or a percentage") : "") + ")");
  t.value = percent ? x / 100 : x;
  if (fraction && (t.value < 0 || t.value > 1))
    throw InputError(flag, text,
                     name + " is a fraction: the target must lie in [0, 1] (or 0%..100%)");
  if (!fraction && t.value < 0)
    throw InputError(flag, text, name + " is never negative: the target must be >= 0");
  return t;
}

double ci_bound(const Summary& s, Comparison c) {
  return c == Comparison::AtLeast ? s.mean - s.ci95 : s.mean + s.ci95;
}

bool meets_target(const Summary& s, const SeekTarget& t) {
  const double b = ci_bound(s, t.comparison);
  return t.comparison == Comparison::AtLeast ? b >= t.value : b <= t.value;
}

std::string target_text(const SeekTarget& t) {
  return t.metric->name + " " + comparison_text(t.comparison) + " " +
         format_metric_value(*t.metric, t.value);
}

std::string bound_text(Comparison c) {
  return c == Comparison::AtLeast ? "lower 95% CI bound" : "upper 95% CI bound";
}

std::string monotone_assumption(const SeekTarget& t, const std::string& pointer) {
  return t.metric->name +
         (t.comparison == Comparison::AtLeast ? " does not decrease" : " does not increase") +
         " as " + pointer + " grows";
}

std::vector<std::string> monotonicity_warnings(const SeekTarget& t, const std::string& pointer,
                                               const std::map<long, Summary>& evaluated) {
  std::vector<std::string> out;
  const Summary* prev = nullptr;
  long prev_v = 0;
  for (const auto& [v, s] : evaluated) {
    if (prev) {
      const double slack = prev->ci95 + s.ci95;
      const bool wrong = t.comparison == Comparison::AtLeast ? s.mean < prev->mean - slack
                                                             : s.mean > prev->mean + slack;
      if (wrong)
        out.push_back(t.metric->name + " moves the wrong way between " + pointer + " = " +
                      std::to_string(prev_v) + " (" +
                      format_metric_value(*t.metric, prev->mean, 4) + ") and " + std::to_string(v) +
                      " (" + format_metric_value(*t.metric, s.mean, 4) +
                      "), beyond their 95% CIs: the monotonicity bisection assumes may not hold; "
                      "check with --axis");
    }
    prev = &s;
    prev_v = v;
  }
  return out;
}

std::string seek_answer_text(const Json& k, bool markdown) {
  const std::string name = k.at("metric").get<std::string>(),
                    ptr = k.at("pointer").get<std::string>();
  const StrategyMetric* metric = find_strategy_metric(name);
  auto value = [&](double x) {
    return metric ? format_metric_value(*metric, x, 4) : std::to_string(x);
  };
  auto target = [&](double x) {
    return metric ? format_metric_value(*metric, x) : std::to_string(x);
  };
  auto code = [&](const std::string& s) { return markdown ? "`" + s + "`" : s; };
  auto bold = [&](const std::string& s) { return markdown ? "**" + s + "**" : s; };
  const std::string bound = k.at("bound").get<std::string>();
  std::string s =
      "smallest " + code(ptr) + " with " + k.at("strategy").get<std::string>() + " " + name + " " +
      k.at("comparison").get<std::string>() + " " + target(k.at("target").get<double>()) + " (" +
      (bound == "mean" ? std::string("mean: one seed per point, no CI") : bound) + "): ";
  const Json& steps = k.at("evaluated");
  if (!k.at("answer").is_null()) {
    s += bold(k.at("answer").dump());
    if (k.at("answer") == k.at("min") && k.at("min") != k.at("max"))
      s += steps.front().at("meets").get<bool>() ? ", already met at the minimum"
                                                 : ", met at the minimum but not at the maximum";
    if (k.contains("already_met_reason") && k.at("already_met_reason").is_string())
      s += " (why: " + k.at("already_met_reason").get<std::string>() + ")";
  } else {
    s += bold("not reached in [" + k.at("min").dump() + ", " + k.at("max").dump() + "]");
    // The maximum is evaluated first, then the minimum: neither met the target.
    for (std::size_t i = 0; i < steps.size() && i < 2; ++i) {
      const Json& e = steps[i];
      s += (i == 0 ? std::string(steps.size() > 1 ? ": neither end meets it; " : ": ") + code(ptr) +
                         " = "
                   : std::string(", at ")) +
           e.at("value").dump() + " gives " + value(e.at("mean").get<double>());
      if (bound != "mean") s += " (" + bound + " " + value(e.at("bound").get<double>()) + ")";
    }
  }
  const std::string assumption = k.at("assumption").get<std::string>();
  return s + " (" + std::to_string(steps.size()) + (steps.size() == 1 ? " value" : " values") +
         " evaluated; assumed " + assumption.substr(0, assumption.find(" (")) + ")";
}

}  // namespace goodput
