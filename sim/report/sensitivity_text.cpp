// The printers of a SensitivityReport: sensitivity.json (schema kSensitivitySchemaVersion),
// sensitivity.md (verdict dependencies, tornado table, every strategy per input, method) and
// the plain-text terminal table.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

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

const char* const kSampler =
    "Robustness: N points of the plausible box (every input of the plausible table that applies, "
    "jointly) from a centred Latin hypercube whose per-axis cell orders are Fisher-Yates "
    "permutations drawn from SplitMix64 seeded by the scenario's seed and the axis; numbers are "
    "log-uniform over [lo, hi] when lo > 0 (uniform otherwise), switches take each of their values "
    "in equal shares; a strategy's switch that is the same setting as another strategy's (the same "
    "key, value and alternatives, e.g. ntp's and ntp_boost's reconfig) takes that one's value in "
    "every point, one framework per world. Every point runs the same failure seeds (common "
    "random numbers). A strategy "
    "wins a point when its mean Goodput is highest and its paired lead over the second is beyond "
    "the 95% CI; otherwise the point is tied. The deciding input is the one whose sampled values "
    "have the largest |Spearman rank correlation| with the base winner's gap to its best rival "
    "(means over the seeds every point ran for every strategy).";
// Added to kSampler where the points ran their first seeds first (Robustness::first_seeds).
const char* const kSamplerSequential =
    " A point whose first seeds leave its leader within the 95% CI of its lead over the second "
    "runs the rest of its seeds for the leader and the rivals within that CI of it, and is "
    "decided among them.";

std::string sampler_text(const Robustness& rb) {
  return std::string(kSampler) + (rb.first_seeds > 0 ? kSamplerSequential : "");
}

const char* const kStallRule =
    "Seconds of stall per fault: the winner's paired Goodput lead over a rival times the mean wall "
    "time, divided by the winner's mean faults that hit the job (gap x wall / faults): the extra "
    "stall per fault at which that rival catches up. Per crossing, report.json gives the winner's "
    "Goodput lost from the scenario's value to the break-even in the same unit.";

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

namespace {

// "while ~100 s < PTR < ~400 s", "while PTR < ~225 s", "over the whole range of PTR [..]" or
// "behind RIVAL at both ends of PTR [..]" (the rival named by the caller).
std::string crossing_clause(const SensitivityReport& r, const SensitivityResult& res,
                            std::size_t rival) {
  const SensitivityParam& p = res.param;
  const std::string range = "[" + value_with_unit(p, p.lo) + ", " + value_with_unit(p, p.hi) + "]";
  auto at = [&](const Crossing& c) {
    if (p.integer) return value_with_unit(p, c.value);
    // An estimate: about three significant digits, never an exponent (99.97 reads ~100).
    double mag = c.value != 0 ? std::floor(std::log10(std::abs(c.value))) : 0;
    if (std::abs(c.value) >= std::pow(10.0, mag + 1) - 0.5 * std::pow(10.0, mag - 2)) mag += 1;
    const int decimals = static_cast<int>(std::max(0.0, 2 - mag));
    char buf[64];
    std::snprintf(buf, sizeof buf, "~%.*f", decimals, c.value);
    std::string text = std::string(buf) + (p.unit.empty() ? "" : " " + p.unit);
    // A bracket wider than the digits shown (a search stopped at the seeds' precision, or at
    // its cap): its half-width, to two significant digits.
    if (c.resolution > 0.005 * std::abs(c.value)) {
      const double rmag = std::floor(std::log10(c.resolution));
      std::snprintf(buf, sizeof buf, " (±%.*f", static_cast<int>(std::max(0.0, 1 - rmag)),
                    c.resolution);
      text += std::string(buf) + (p.unit.empty() ? "" : " " + p.unit) + ")";
    }
    return text;
  };
  const auto& c = res.crossings[rival];
  if (c.empty()) {
    if (res.lo.lead[rival].mean > 0) return "over the whole range of " + p.pointer + " " + range;
    return "behind " + r.strategies[rival] + " at both ends of " + p.pointer + " " + range;
  }
  // Integer keys: a crossing k is the first whole number on the far side.
  if (c.size() == 2)
    return "while " + at(c[0]) + (p.integer ? " <= " : " < ") + p.pointer + " < " + at(c[1]);
  if (c[0].ahead_below) return "while " + p.pointer + " < " + at(c[0]);
  return "while " + p.pointer + (p.integer ? " >= " : " > ") + at(c[0]);
}

}  // namespace

std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& res) {
  return break_even_sentence(r, res, r.runner_up);
}

std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& res,
                                std::size_t rival) {
  if (r.winner == rival) return "one strategy: nothing to swap";
  const std::string clause = crossing_clause(r, res, rival);
  if (clause.rfind("behind ", 0) == 0)
    return r.strategies[rival] + " is ahead of " + r.strategies[r.winner] +
           clause.substr(6 + 1 + r.strategies[rival].size());
  return r.strategies[r.winner] + " stays ahead of " + r.strategies[rival] + " " + clause;
}

std::string switch_sentence(const SensitivityReport& r, const SwitchResult& sw) {
  std::string out = sw.input.pointer + " (scenario: " + sw.input.base.dump() + "):";
  bool changes = false, any = false;
  for (std::size_t i = 0; i < sw.input.values.size(); ++i) {
    out += (i ? "; " : " ") + sw.input.values[i].dump() + " → ";
    if (!sw.invalid[i].empty()) {
      out += "refused by the scenario";
      continue;
    }
    any = true;
    const SensitivityPoint& pt = sw.points[i];
    const std::size_t l = leader(pt);
    std::size_t second = 0;
    const bool tie = tied_at(pt, l, &second);
    if (tie) {
      out += r.strategies[l] + " and " + r.strategies[second] + " tied";
      if (l != r.winner && second != r.winner) changes = true;
    } else {
      out += r.strategies[l] + " wins";
      if (l != r.winner) changes = true;
    }
  }
  if (!any) return out;
  return out + (changes ? " — flipping it changes the winner"
                        : " — flipping it leaves " + r.strategies[r.winner] + " ahead or tied");
}

std::string robustness_sentence(const SensitivityReport& r) {
  const Robustness& rb = r.robustness;
  if (rb.points == 0) return rb.refused > 0 ? "every sampled plausible world was refused" : "";
  auto share = [&](int k) { return fmt("%.0f%%", 100.0 * k / rb.points); };
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < rb.wins.size(); ++i)
    if (rb.wins[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rb.wins[a] > rb.wins[b]; });
  // "plausible" only when every axis is the plausible table's (not a --param range).
  bool plausible = true;
  for (const auto& res : r.params)
    plausible = plausible && res.param.range.rfind("plausible", 0) == 0;
  const std::string worlds = plausible ? " of plausible worlds" : " of the sampled worlds";
  std::string out;
  for (std::size_t i = 0; i < order.size(); ++i)
    out += (i == 0 ? "" : ", ") + r.strategies[order[i]] + (i == 0 ? " wins in " : " in ") +
           share(rb.wins[order[i]]) + (i == 0 ? worlds : "");
  if (rb.tied > 0)
    out += (out.empty() ? "" : ", ") + std::string("tied (within the 95% CI) in ") + share(rb.tied);
  if (!rb.deciding_input.empty()) {
    double rho = 0;
    std::size_t axis = SIZE_MAX;
    for (std::size_t i = 0; i < rb.inputs.size(); ++i)
      if (rb.inputs[i] == rb.deciding_input) {
        rho = rb.rank_correlation[i];
        if (i < rb.moves_with.size()) axis = rb.moves_with[i];
      }
    std::string with;  // the switches sampled with it (one setting of several strategies)
    for (std::size_t i = 0; i < rb.inputs.size() && i < rb.moves_with.size(); ++i)
      if (rb.moves_with[i] == axis && rb.inputs[i] != rb.deciding_input)
        with += (with.empty() ? "" : ", ") + rb.inputs[i];
    out += "; the deciding input is " + rb.deciding_input + " (" +
           (with.empty() ? "" : "moved with " + with + "; ") + "rank correlation " +
           fmt("%+.2f", rho) + " with " + r.strategies[r.winner] + "'s gap to its best rival)";
  }
  const std::string seeds =
      rb.first_seeds > 0
          ? counted(rb.first_seeds, "seed") + " each, " + std::to_string(rb.seeds) + " in the " +
                std::to_string(rb.extended) + " where " + std::to_string(rb.first_seeds) +
                " left the leader within its 95% CI, for it and the rivals there"
          : counted(rb.seeds, "seed") + " each";
  out += " [" + std::to_string(rb.points) + " worlds, Latin hypercube of the " +
         (plausible ? "plausible ranges, " : "ranges moved, ") + seeds +
         (rb.refused ? ", " + std::to_string(rb.refused) + " refused by the scenario" : "") + "]";
  return out;
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

namespace {

Json rival_json(const SensitivityReport& r, std::size_t k) {
  const double stall = stall_per_fault_s(r.base, k);
  Json inputs = Json::array();
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    Json crossings = Json::array();
    for (const Crossing& c : res.crossings[k]) {
      // The winner's Goodput lost from the scenario's value to the crossing, per fault.
      const double loss = r.base.winner_job_faults > 0 && c.winner_goodput >= 0
                              ? (r.base.goodput[r.winner].mean - c.winner_goodput) *
                                    r.base.wall_hours * 3600 / r.base.winner_job_faults
                              : 0;
      crossings.push_back({{"value", c.value},
                           {"resolution", c.resolution},
                           {"winner_ahead", c.ahead_below ? "below" : "above"},
                           {"winner_loss_s_per_fault", loss}});
    }
    inputs.push_back({{"pointer", p.pointer},
                      {"lead_low", summary_json(res.lo.lead[k])},
                      {"lead_high", summary_json(res.hi.lead[k])},
                      {"crossings", crossings},
                      {"statement", break_even_sentence(r, res, k)}});
  }
  return {{"strategy", r.strategies[k]},
          {"lead", summary_json(r.base.lead[k])},
          {"stall_s_per_fault", std::isfinite(stall) ? Json(stall) : Json(nullptr)},
          {"inputs", inputs}};
}

Json input_json(const SensitivityParam& p) {
  return {{"pointer", p.pointer},
          {"unit", p.unit},
          {"integer", p.integer},
          {"range_rule", p.range},
          {"source", p.source},
          {"lo", p.lo},
          {"base", p.derived ? Json(nullptr) : Json(p.base)},
          {"hi", p.hi}};
}

Json switches_json(const SensitivityReport& r) {
  Json out = Json::array();
  for (const SwitchResult& sw : r.switches) {
    Json values = Json::array();
    for (std::size_t i = 0; i < sw.input.values.size(); ++i) {
      Json v = {{"value", sw.input.values[i]}};
      if (!sw.invalid[i].empty()) {
        v["refused"] = sw.invalid[i];
      } else {
        const std::size_t l = leader(sw.points[i]);
        Json g = Json::object();
        for (std::size_t k = 0; k < r.strategies.size(); ++k)
          g[r.strategies[k]] = summary_json(sw.points[i].goodput[k]);
        v["leader"] = r.strategies[l];
        v["tied"] = tied_at(sw.points[i], l);
        v["seeds"] = sw.points[i].goodput[r.winner].n;
        v["goodput"] = g;
      }
      values.push_back(v);
    }
    out.push_back({{"pointer", sw.input.pointer},
                   {"base", sw.input.base},
                   {"source", sw.input.source},
                   {"values", values},
                   {"statement", switch_sentence(r, sw)}});
  }
  return out;
}

Json robustness_json(const SensitivityReport& r) {
  const Robustness& rb = r.robustness;
  if (rb.points == 0 && rb.refused == 0) return nullptr;
  Json wins = Json::object(), rho = Json::object();
  for (std::size_t i = 0; i < rb.wins.size(); ++i) wins[r.strategies[i]] = rb.wins[i];
  for (std::size_t i = 0; i < rb.inputs.size() && i < rb.rank_correlation.size(); ++i)
    rho[rb.inputs[i]] = rb.rank_correlation[i];
  return {{"points", rb.points},
          {"refused", rb.refused},
          {"seeds", rb.seeds},
          {"first_seeds", rb.first_seeds},
          {"extended", rb.extended},
          {"wins", wins},
          {"tied", rb.tied},
          {"rank_correlation", rho},
          {"deciding_input", rb.deciding_input},
          {"sampler", sampler_text(rb)},
          {"statement", robustness_sentence(r)}};
}

}  // namespace

Json verdict_dependencies_json(const SensitivityReport& r) {
  Json rivals = Json::array(), inputs = Json::array();
  for (std::size_t k = 0; k < r.strategies.size(); ++k)
    if (k != r.winner) rivals.push_back(rival_json(r, k));
  for (const auto& res : r.params) {
    Json in = input_json(res.param);
    in["seeds_low"] = res.lo.goodput[r.winner].n;
    in["seeds_high"] = res.hi.goodput[r.winner].n;
    inputs.push_back(std::move(in));
  }
  return {{"leader", r.strategies[r.winner]},
          {"runner_up", r.strategies[r.runner_up]},
          {"stall_per_fault_rule", kStallRule},
          {"inputs", inputs},
          {"rivals", rivals},
          {"switches", switches_json(r)},
          {"robustness", robustness_json(r)},
          {"capped", r.capped},
          {"seeds", r.seeds},
          {"end_seeds",
           {{"first_seeds", r.ends.first_seeds},
            {"evaluated", r.ends.evaluated},
            {"extended", r.ends.extended}}}};
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
  j["base"] = {{"goodput", base}, {"lead", summary_json(r.base.lead[r.runner_up])}};
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
    for (const Crossing& c : res.crossings[r.runner_up])
      crossings.push_back({{"value", c.value},
                           {"resolution", c.resolution},
                           {"winner_ahead", c.ahead_below ? "below" : "above"}});
    Json be = {{"crosses", !res.crossings[r.runner_up].empty()},
               {"crossings", crossings},
               {"sentence", break_even_sentence(r, res)},
               {"other_leader", other_leader_sentence(r, res)},
               {"evaluations", res.evaluations}};
    Json entry = input_json(p);
    entry["winner_swing"] = res.swing;
    entry["leader"] = {{"lo", r.strategies[leader(res.lo)]}, {"hi", r.strategies[leader(res.hi)]}};
    entry["goodput"] = g;
    entry["lead"] = {{"lo", summary_json(res.lo.lead[r.runner_up])},
                     {"base", summary_json(r.base.lead[r.runner_up])},
                     {"hi", summary_json(res.hi.lead[r.runner_up])}};
    entry["break_even"] = be;
    params.push_back(entry);
  }
  j["params"] = params;
  j["verdict"] = verdict_dependencies_json(r);
  j["resolved_scenario"] = r.resolved;
  return j;
}

std::vector<std::string> verdict_lines(const SensitivityReport& r) {
  std::vector<std::string> out;
  if (r.winner == r.runner_up) return out;
  const std::string rb = robustness_sentence(r);
  if (!rb.empty()) out.push_back("**Robustness:** " + rb);
  const std::string& w = r.strategies[r.winner];
  for (std::size_t k = 0; k < r.strategies.size(); ++k) {
    if (k == r.winner) continue;
    const double stall = stall_per_fault_s(r.base, k);
    std::string line =
        "**against " + r.strategies[k] + "** (" + w + " leads by " + pp(r.base.lead[k].mean) +
        (r.base.lead[k].n >= 2 ? " ± " + pp(r.base.lead[k].ci95) : "") +
        (std::isfinite(stall) ? ", i.e. " + fmt("%.0f", stall) + " s of stall per fault" : "") +
        (r.base.lead[k].n >= 2 && std::abs(r.base.lead[k].mean) <= r.base.lead[k].ci95
             ? "; tied within the 95% CI"
             : "") +
        "): ";
    int holds = 0;
    std::string clauses;
    for (const auto& res : r.params) {
      if (res.crossings[k].empty() && res.lo.lead[k].mean > 0) {
        ++holds;
        continue;
      }
      clauses += (clauses.empty() ? "" : "; ") + crossing_clause(r, res, k);
    }
    if (!clauses.empty()) line += "ahead " + clauses;
    if (holds > 0)
      line += std::string(clauses.empty() ? "ahead" : "; ahead") + " over the whole range of " +
              (clauses.empty() ? "every input (" + std::to_string(holds) + ")"
               : holds == 1    ? std::string("the other input")
                               : "the other " + std::to_string(holds) + " inputs");
    out.push_back(line);
  }
  for (const auto& sw : r.switches) out.push_back("switch " + switch_sentence(r, sw));
  if (r.capped)
    out.push_back("(the evaluation cap stopped some searches early: their brackets are coarser)");
  return out;
}

std::string sensitivity_markdown(const SensitivityReport& r) {
  std::ostringstream s;
  const std::string& w = r.strategies[r.winner];
  const std::string& u = r.strategies[r.runner_up];
  s << "# Sensitivity: " << r.scenario_name << "\n\n"
    << "Scenario `" << r.scenario_file << "`, " << counted(r.seeds, "seed") << " (seed " << r.seed
    << "), the same failures at every value.\n\n";
  if (r.winner == r.runner_up) {
    s << "One strategy (" << w << "): Goodput only, no ranking to swap.\n\n";
  } else {
    s << "At the scenario's values **" << w << "** leads **" << u << "** by "
      << pp(r.base.lead[r.runner_up].mean);
    if (r.base.lead[r.runner_up].n >= 2) s << " ± " << pp(r.base.lead[r.runner_up].ci95);
    s << (r.decided ? " (the 95% CI excludes a tie: sampling precision, not robustness).\n\n"
                    : " (within the 95% CI: the two are tied).\n\n");
  }
  s << "## What the verdict depends on\n\n";
  if (r.winner == r.runner_up) s << "One strategy: no ranking to swap.\n";
  for (const auto& line : verdict_lines(r)) s << "- " << line << "\n";
  s << "\n" << kStallRule << "\n";
  for (std::size_t k = 0; k < r.strategies.size() && r.winner != r.runner_up; ++k) {
    if (k == r.winner) continue;
    s << "\n### " << w << " against " << r.strategies[k] << "\n\n";
    for (const auto& res : r.params) s << "- " << break_even_sentence(r, res, k) << "\n";
  }
  s << "\n## Tornado: Goodput of " << w << " (the winner)\n\nInputs sorted by the swing of " << w
    << "'s mean Goodput (largest minus smallest of low, base, high).\n\n"
    << "| input | low | base | high | at low | at base | at high | swing | " << w << " − " << u
    << " at low / high |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    s << "| `" << p.pointer << "` | " << value_with_unit(p, p.lo) << " | "
      << (p.derived ? std::string("derived") : value_with_unit(p, p.base)) << " | "
      << value_with_unit(p, p.hi) << " | " << pct_ci(res.lo.goodput[r.winner]) << " | "
      << pct_ci(r.base.goodput[r.winner]) << " | " << pct_ci(res.hi.goodput[r.winner]) << " | "
      << pp(res.swing) << " | " << pp(res.lo.lead[r.runner_up].mean) << " / "
      << pp(res.hi.lead[r.runner_up].mean) << " |\n";
  }
  s << "\n" << tornado_chart(r);
  s << "\n## Every strategy, per input\n";
  for (const auto& res : r.params) {
    const SensitivityParam& p = res.param;
    s << "\n### `" << p.pointer << "` (range " << p.range << ")\n\n";
    if (!p.source.empty()) s << "Plausible range: " << p.source << ".\n\n";
    s << "| strategy | " << value_with_unit(p, p.lo) << " | "
      << (p.derived ? std::string("derived") : value_with_unit(p, p.base)) << " (base) | "
      << value_with_unit(p, p.hi) << " |\n|---|---:|---:|---:|\n";
    for (std::size_t i = 0; i < r.strategies.size(); ++i)
      s << "| " << r.strategies[i] << " | " << pct_ci(res.lo.goodput[i]) << " | "
        << pct_ci(r.base.goodput[i]) << " | " << pct_ci(res.hi.goodput[i]) << " |\n";
    s << "\n" << break_even_sentence(r, res) << " (" << res.evaluations << " values evaluated).\n";
  }
  if (!r.switches.empty()) {
    s << "\n## Model switches\n\n";
    for (const auto& sw : r.switches)
      s << "- " << switch_sentence(r, sw)
        << (sw.input.source.empty() ? "" : " (" + sw.input.source + ")") << "\n";
  }
  s << "\n## Method\n\n" << kMethod << "\n\n" << sampler_text(r.robustness) << "\n";
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
                  p.derived ? "derived" : value_with_unit(p, p.base).c_str(),
                  value_with_unit(p, p.hi).c_str(), 100 * res.lo.goodput[r.winner].mean,
                  100 * res.hi.goodput[r.winner].mean, 100 * res.swing);
    s << line;
  }
  if (r.winner == r.runner_up) return s.str();
  s << "\n";
  for (std::string l : verdict_lines(r)) {  // no markdown emphasis on a terminal
    for (auto at = l.find("**"); at != std::string::npos; at = l.find("**")) l.erase(at, 2);
    s << "- " << l << "\n";
  }
  if (!r.decided)
    s << "(at the scenario's values " << r.strategies[r.winner] << " and "
      << r.strategies[r.runner_up] << " are tied: within the 95% CI)\n";
  return s.str();
}

void write_sensitivity_files(const SensitivityReport& r, const std::filesystem::path& dir) {
  make_folder(dir);
  write_file(dir / "sensitivity.json", sensitivity_json(r).dump(2) + "\n");
  write_file(dir / "sensitivity.md", sensitivity_markdown(r));
  write_file(dir / "sensitivity.html", sensitivity_html(r));
}

}  // namespace goodput
