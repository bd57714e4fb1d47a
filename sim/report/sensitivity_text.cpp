// The printers of a SensitivityReport: sensitivity.json (schema kSensitivitySchemaVersion),
// sensitivity.md (verdict dependencies, tornado table, every strategy per input, method) and
// the plain-text terminal table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

std::string value_with_unit(const SensitivityParam& p, double v) {
  std::string t = p.integer ? std::to_string(std::llround(v)) : fmt("%.6g", v);
  if (!p.unit.empty()) t += " " + p.unit;
  return t;
}

std::string pct(double v) {
  return fmt("%.2f%%", 100 * v);
}
std::string pct_ci(const Summary& s) {
  if (s.n < 2) return pct(s.mean);
  return fmt("%.2f", 100 * s.mean) + " ± " + fmt("%.2f", 100 * s.ci95) + "%";
}
std::string pp(double v) {
  return fmt("%.2f pp", 100 * v);
}

Json summary_json(const Summary& s) {
  return {{"mean", s.mean}, {"ci95", s.ci95}};
}

const char* const kMethod =
    "Each input is moved over [lo, hi] with everything else fixed, under common random numbers: "
    "the same seeds give the same failures at every value, so differences come from the input "
    "alone. Default ranges: prices (the /recovery price list, /checkpoint/load_s and save_s, "
    "repair hours of explicit classes) 0.25x..4x of the scenario's value, or 0..60 s (0..1 h) "
    "when it is 0; /failures/rate_scale 0.5x..2x; clamped to the declared range. Break-even: "
    "the sign of the paired mean difference winner minus runner-up (the base run's) is known at "
    "lo, at the scenario's value (where the winner leads) and at hi; between the scenario's value "
    "and each end where the winner does not lead, the crossing is found by bisection (12 "
    "halvings; whole numbers for integer keys). With the scenario's value outside the range, "
    "only a change of sign between lo and hi is searched. Each interval is assumed to hold one "
    "crossing: a swap and swap back between two points of the same sign is not seen.";

// The tornado as text: per input a bar from the winner's Goodput at one end to the other on a
// common scale, `|` at the scenario's value, L and H marking the low and high ends (* both).
std::string tornado_chart(const SensitivityReport& r) {
  constexpr int kWidth = 48;
  double lo = r.base.goodput[r.winner].mean, hi = lo;
  std::size_t name_width = 5;
  for (const auto& res : r.params) {
    lo = std::min({lo, res.lo.goodput[r.winner].mean, res.hi.goodput[r.winner].mean});
    hi = std::max({hi, res.lo.goodput[r.winner].mean, res.hi.goodput[r.winner].mean});
    name_width = std::max(name_width, res.param.pointer.size());
  }
  const double span = hi > lo ? hi - lo : 1;
  auto col = [&](double v) {
    return static_cast<int>(std::lround((v - lo) / span * (kWidth - 1)));
  };
  std::ostringstream s;
  const std::string left = pct(lo), right = pct(hi);
  s << "```\n"
    << std::string(name_width, ' ') << "  " << left
    << std::string(static_cast<std::size_t>(
                       std::max<int>(1, kWidth - static_cast<int>(left.size() + right.size()))),
                   ' ')
    << right << "\n";
  const int base = col(r.base.goodput[r.winner].mean);
  for (const auto& res : r.params) {
    std::string bar(kWidth, ' ');
    const int a = col(res.lo.goodput[r.winner].mean), b = col(res.hi.goodput[r.winner].mean);
    for (int c = std::min(a, b); c <= std::max(a, b); ++c) bar[static_cast<std::size_t>(c)] = '=';
    bar[static_cast<std::size_t>(base)] = '|';
    bar[static_cast<std::size_t>(a)] = 'L';
    bar[static_cast<std::size_t>(b)] = a == b ? '*' : 'H';
    bar.erase(bar.find_last_not_of(' ') + 1);
    s << res.param.pointer << std::string(name_width - res.param.pointer.size(), ' ') << "  " << bar
      << "\n";
  }
  s << "```\n\nL: " << r.strategies[r.winner]
    << "'s Goodput at the low end, H: at the high end, *: the same at both, "
    << "|: at the scenario's value.\n";
  return s.str();
}

}  // namespace

std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& res) {
  const SensitivityParam& p = res.param;
  if (r.winner == r.runner_up) return "one strategy: nothing to swap";
  const std::string head = r.strategies[r.winner] + " stays ahead of " + r.strategies[r.runner_up];
  const std::string range = "[" + value_with_unit(p, p.lo) + ", " + value_with_unit(p, p.hi) + "]";
  auto at = [&](const Crossing& c) {
    if (p.integer) return value_with_unit(p, c.value);
    // An estimate: about three significant digits, never an exponent.
    const double mag = c.value != 0 ? std::floor(std::log10(std::abs(c.value))) : 0;
    const int decimals = static_cast<int>(std::max(0.0, 2 - mag));
    char buf[64];
    std::snprintf(buf, sizeof buf, "~%.*f", decimals, c.value);
    return std::string(buf) + (p.unit.empty() ? "" : " " + p.unit);
  };
  const auto& c = res.crossings;
  if (c.empty()) {
    if (res.lo.lead.mean > 0) return head + " over the whole range of " + p.pointer + " " + range;
    return r.strategies[r.runner_up] + " is ahead of " + r.strategies[r.winner] +
           " at both ends of " + p.pointer + " " + range;
  }
  // Integer keys: a crossing k is the first whole number on the far side.
  if (c.size() == 2)
    return head + " while " + at(c[0]) + (p.integer ? " <= " : " < ") + p.pointer + " < " +
           at(c[1]);
  if (c[0].ahead_below) return head + " while " + p.pointer + " < " + at(c[0]);
  return head + " while " + p.pointer + (p.integer ? " >= " : " > ") + at(c[0]);
}

std::size_t leader(const SensitivityPoint& p) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < p.goodput.size(); ++i)
    if (p.goodput[i].mean > p.goodput[best].mean) best = i;
  return best;
}

std::string other_leader_sentence(const SensitivityReport& r, const SensitivityResult& res) {
  std::string out;
  for (const SensitivityPoint* pt : {&res.lo, &res.hi}) {
    const std::size_t l = leader(*pt);
    if (l == r.winner || l == r.runner_up)
      continue;  // the break-even sentence covers the runner-up
    out += (out.empty() ? "at " : "; at ") + res.param.pointer + " = " +
           value_with_unit(res.param, pt->value) + " " + r.strategies[l] + " leads instead of " +
           r.strategies[r.winner];
  }
  return out;
}

Json sensitivity_json(const SensitivityReport& r) {
  Json j;
  j["schema_version"] = kSensitivitySchemaVersion;
  j["tool_version"] = kToolVersion;
  j["command"] = r.command.empty() ? Json(nullptr) : command_json(r.command);
  j["scenario"] = r.scenario_name;
  j["scenario_file"] = r.scenario_file;
  j["seeds"] = r.seeds;
  j["seed"] = r.seed;
  j["strategies"] = r.strategies;
  j["winner"] = r.strategies[r.winner];
  j["runner_up"] = r.strategies[r.runner_up];
  j["base_lead_significant"] = r.decided;
  Json base = Json::object();
  for (std::size_t i = 0; i < r.strategies.size(); ++i)
    base[r.strategies[i]] = summary_json(r.base.goodput[i]);
  j["base"] = {{"goodput", base}, {"lead", summary_json(r.base.lead)}};
  j["method"] = kMethod;
  Json params = Json::array();
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    Json g = Json::object();
    for (std::size_t i = 0; i < r.strategies.size(); ++i)
      g[r.strategies[i]] = {{"lo", summary_json(res.lo.goodput[i])},
                            {"base", summary_json(r.base.goodput[i])},
                            {"hi", summary_json(res.hi.goodput[i])}};
    Json crossings = Json::array();
    for (const Crossing& c : res.crossings)
      crossings.push_back({{"value", c.value},
                           {"resolution", c.resolution},
                           {"winner_ahead", c.ahead_below ? "below" : "above"}});
    Json be = {{"crosses", !res.crossings.empty()},
               {"crossings", crossings},
               {"sentence", break_even_sentence(r, res)},
               {"other_leader", other_leader_sentence(r, res)},
               {"evaluations", res.evaluations}};
    params.push_back(
        {{"pointer", p.pointer},
         {"unit", p.unit},
         {"integer", p.integer},
         {"range_rule", p.range},
         {"lo", p.lo},
         {"base", p.base},
         {"hi", p.hi},
         {"winner_swing", res.swing},
         {"leader", {{"lo", r.strategies[leader(res.lo)]}, {"hi", r.strategies[leader(res.hi)]}}},
         {"goodput", g},
         {"lead",
          {{"lo", summary_json(res.lo.lead)},
           {"base", summary_json(r.base.lead)},
           {"hi", summary_json(res.hi.lead)}}},
         {"break_even", be}});
  }
  j["params"] = params;
  j["resolved_scenario"] = r.resolved;
  return j;
}

std::string sensitivity_markdown(const SensitivityReport& r) {
  std::ostringstream s;
  const std::string& w = r.strategies[r.winner];
  const std::string& u = r.strategies[r.runner_up];
  s << "# Sensitivity: " << r.scenario_name << "\n\n"
    << "Scenario `" << r.scenario_file << "`, " << r.seeds << " seeds (seed " << r.seed
    << "), the same failures at every value.\n\n";
  if (r.winner == r.runner_up) {
    s << "One strategy (" << w << "): Goodput only, no ranking to swap.\n\n";
  } else {
    s << "At the scenario's values **" << w << "** leads **" << u << "** by "
      << pp(r.base.lead.mean);
    if (r.base.lead.n >= 2) s << " ± " << pp(r.base.lead.ci95);
    s << (r.decided ? " (significant at 95%).\n\n"
                    : " (not significant at 95%: the two are tied).\n\n");
  }
  s << "## What the verdict depends on\n\n";
  if (r.winner == r.runner_up) s << "One strategy: no ranking to swap.\n";
  for (const auto& res : r.params) {
    if (r.winner == r.runner_up) break;
    s << "- " << break_even_sentence(r, res);
    const std::string other = other_leader_sentence(r, res);
    s << (other.empty() ? "" : " (" + other + ")") << "\n";
  }
  s << "\n## Tornado: Goodput of " << w << " (the winner)\n\nInputs sorted by the swing of " << w
    << "'s mean Goodput (largest minus smallest of low, base, high).\n\n"
    << "| input | low | base | high | at low | at base | at high | swing | " << w << " − " << u
    << " at low / high |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    s << "| `" << p.pointer << "` | " << value_with_unit(p, p.lo) << " | "
      << value_with_unit(p, p.base) << " | " << value_with_unit(p, p.hi) << " | "
      << pct_ci(res.lo.goodput[r.winner]) << " | " << pct_ci(r.base.goodput[r.winner]) << " | "
      << pct_ci(res.hi.goodput[r.winner]) << " | " << pp(res.swing) << " | " << pp(res.lo.lead.mean)
      << " / " << pp(res.hi.lead.mean) << " |\n";
  }
  s << "\n" << tornado_chart(r);
  s << "\n## Every strategy, per input\n";
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    s << "\n### `" << p.pointer << "` (range " << p.range << ")\n\n| strategy | "
      << value_with_unit(p, p.lo) << " | " << value_with_unit(p, p.base) << " (base) | "
      << value_with_unit(p, p.hi) << " |\n|---|---:|---:|---:|\n";
    for (std::size_t i = 0; i < r.strategies.size(); ++i)
      s << "| " << r.strategies[i] << " | " << pct_ci(res.lo.goodput[i]) << " | "
        << pct_ci(r.base.goodput[i]) << " | " << pct_ci(res.hi.goodput[i]) << " |\n";
    s << "\n" << break_even_sentence(r, res) << " (" << res.evaluations << " values evaluated).\n";
  }
  s << "\n## Method\n\n" << kMethod << "\n";
  if (!r.command.empty()) s << "\n" << command_markdown(r.command);
  return s.str();
}

std::string sensitivity_terminal(const SensitivityReport& r) {
  std::ostringstream s;
  int width = 36;
  for (const auto& res : r.params)
    width = std::max(width, static_cast<int>(res.param.pointer.size()));
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %10s %10s %10s %9s %9s %9s\n", width, "input", "low",
                "base", "high", "at low", "at high", "swing");
  s << "Goodput of " << r.strategies[r.winner]
    << (r.winner == r.runner_up ? " (one strategy: no ranking to swap):\n"
                                : " (the winner at the scenario's values):\n")
    << line;
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    std::snprintf(line, sizeof line, "%-*s %10s %10s %10s %8.2f%% %8.2f%% %6.2f pp\n", width,
                  p.pointer.c_str(), value_with_unit(p, p.lo).c_str(),
                  value_with_unit(p, p.base).c_str(), value_with_unit(p, p.hi).c_str(),
                  100 * res.lo.goodput[r.winner].mean, 100 * res.hi.goodput[r.winner].mean,
                  100 * res.swing);
    s << line;
  }
  if (r.winner == r.runner_up) return s.str();
  s << "\n";
  for (const auto& res : r.params) {
    s << "- " << break_even_sentence(r, res);
    const std::string other = other_leader_sentence(r, res);
    s << (other.empty() ? "" : " (" + other + ")") << "\n";
  }
  if (!r.decided)
    s << "(at the scenario's values " << r.strategies[r.winner] << " and "
      << r.strategies[r.runner_up] << " are tied: the lead is not significant at 95%)\n";
  return s.str();
}

void write_sensitivity_files(const SensitivityReport& r, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  write_file(dir / "sensitivity.json", sensitivity_json(r).dump(2) + "\n");
  write_file(dir / "sensitivity.md", sensitivity_markdown(r));
}

}  // namespace goodput
