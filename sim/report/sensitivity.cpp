#include "sim/report/sensitivity.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "models/scenario/scenario_loader.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/report/report.hpp"
#include "sim/report/robustness.hpp"
#include "sim/report/sensitivity_ahead.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The declaration a pointer names under `section`, stepping into objects and into the
// elements of object lists ("/failures/classes/0/repair/hours"); null when undeclared.
const ParamDecl* find_in(const ParamSection* section, const Json::json_pointer& jp) {
  std::vector<std::string> tokens;
  for (Json::json_pointer p = jp; !p.empty(); p = p.parent_pointer())
    tokens.insert(tokens.begin(), p.back());
  const ParamDecl* found = nullptr;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!section) return nullptr;
    found = section->find(tokens[i]);
    if (!found) return nullptr;
    section = found->nested;
    if (found->type == ParamType::ObjectList && i + 1 < tokens.size())
      ++i;  // the element index
    else if (found->type != ParamType::Object && found->type != ParamType::ObjectList)
      section = nullptr;
  }
  return found;
}

// The declaration of a pointer: the scenario's sections, or a strategy's own section.
const ParamDecl* decl_of(const Json::json_pointer& jp) {
  if (const ParamDecl* d = find_in(&sections::scenario(), jp)) return d;
  std::vector<std::string> tokens;
  for (Json::json_pointer p = jp; !p.empty(); p = p.parent_pointer())
    tokens.insert(tokens.begin(), p.back());
  if (tokens.size() < 3 || tokens[0] != "strategies") return nullptr;
  const StrategyInfo* info = find_strategy(tokens[1]);
  Json::json_pointer rest;
  for (std::size_t i = 2; i < tokens.size(); ++i) rest /= tokens[i];
  return info && info->params ? find_in(info->params, rest) : nullptr;
}

// Pointer, value, type, unit and bounds of a number in the resolved scenario; no range yet.
struct Described {
  SensitivityParam p;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

// `derived_ok`: an optional number the scenario leaves unset (a derived price) is described with
// base NaN and `derived` set instead of refused.
Described describe(const Scenario& s, const std::string& pointer, bool derived_ok = false) {
  Json::json_pointer jp;
  try {
    jp = Json::json_pointer(pointer);
  } catch (const std::exception& e) {
    throw InputError("--param", pointer, std::string("bad JSON pointer: ") + e.what());
  }
  // The resolved value (defaults filled in), else the value as given (/cluster/spare_domains
  // is resolved into /cluster/domains).
  const Json* found = pointer.empty()           ? nullptr
                      : s.resolved.contains(jp) ? &s.resolved.at(jp)
                      : s.input.contains(jp)    ? &s.input.at(jp)
                                                : nullptr;
  const ParamDecl* d = pointer.empty() ? nullptr : decl_of(jp);
  const bool derived = !found && derived_ok && d && d->optional && d->type == ParamType::Number;
  if (!found && !derived)
    throw InputError("--param", pointer,
                     "the scenario has no value here (see `goodput describe schema`; an optional "
                     "key needs a value from the file or --set first)");
  const Json v = found ? *found : Json(0.0);
  if (!v.is_number() || (d && d->type != ParamType::Number && d->type != ParamType::Integer))
    throw InputError("--param", pointer, "is not a number in the scenario (" + v.dump() + ")");
  Described out;
  out.p.pointer = pointer;
  out.p.base = derived ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
  out.p.derived = derived;
  out.p.integer = d ? d->type == ParamType::Integer : v.is_number_integer();
  out.p.unit = d                              ? d->unit
               : ends_with(pointer, "_s")     ? "s"
               : ends_with(pointer, "_hours") ? "h"
                                              : "";
  if (d) {
    out.min = d->min;
    out.max = d->max;
  }
  return out;
}

// p's range rounded outwards for an integer key and clamped to d's declared bounds; nullopt when
// nothing is left.
std::optional<SensitivityParam> fitted(SensitivityParam p, const Described& d) {
  if (p.integer) {
    p.lo = std::floor(p.lo);
    p.hi = std::ceil(p.hi);
  }
  if (p.lo < d.min || p.hi > d.max) {
    p.lo = std::max(p.lo, d.min);
    p.hi = std::min(p.hi, d.max);
    p.range += ", clamped to the declared range";
  }
  if (!(p.lo < p.hi)) return std::nullopt;
  return p;
}

// The default range of a described value; nullopt when the rule gives none (a 0 without unit).
std::optional<SensitivityParam> default_range(const Described& d) {
  SensitivityParam p = d.p;
  const bool rate = p.pointer == "/failures/rate_scale";
  if (p.base > 0) {
    p.lo = p.base * (rate ? 0.5 : 0.25);
    p.hi = p.base * (rate ? 2.0 : 4.0);
    p.range = rate ? "0.5x..2x" : "0.25x..4x";
  } else if (p.base == 0 && (p.unit == "s" || p.unit == "h")) {
    p.lo = 0;
    p.hi = p.unit == "s" ? 60 : 1;
    p.range = p.unit == "s" ? "0..60 s (value 0)" : "0..1 h (value 0)";
  } else {
    return std::nullopt;
  }
  return fitted(p, d);
}

double parse_number(const std::string& text, const std::string& spec) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || !end || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw InputError("--param", spec, "expected PTR or PTR=LO:HI with numbers LO < HI");
  return v;
}

// As --set would be given it: whole numbers without ".0", others exact (shortest round trip).
std::string value_text(const SensitivityParam& p, double v) {
  if (p.integer || (v == std::floor(v) && std::abs(v) < 1e15))
    return std::to_string(std::llround(v));
  return Json(v).dump();
}

SensitivityPoint point_of(double value, const std::vector<StrategyRuns>& runs, std::size_t winner) {
  SensitivityPoint pt;
  pt.value = value;
  for (const auto& r : runs) {
    std::vector<double> v;
    for (const auto& m : r.runs) v.push_back(m.goodput);
    pt.goodput.push_back(summarize(v));
    pt.per_seed.push_back(std::move(v));
  }
  for (std::size_t i = 0; i < runs.size(); ++i)
    pt.lead.push_back(summarize_difference(pt.per_seed[winner], pt.per_seed[i]));
  double faults = 0, wall = 0;
  for (const auto& m : runs[winner].runs) {
    faults += static_cast<double>(m.job_failures);
    wall += m.wall_hours;
  }
  const double n = std::max<double>(1, static_cast<double>(runs[winner].runs.size()));
  pt.winner_job_faults = faults / n;
  pt.wall_hours = wall / n;
  return pt;
}

// The bracket width a crossing search between a and b stops at: range / 2^12, or, when wider,
// the crossing's sampling precision (the paired lead's mean 95% CI at a and b over the lead's
// slope between them: the seeds cannot place the crossing more finely), at most a quarter of
// the range.
double crossing_width(double a, double b, const Summary& la, const Summary& lb) {
  const double floor = (b - a) / std::ldexp(1.0, kBreakEvenIterations);
  const double slope = std::abs(lb.mean - la.mean) / (b - a);
  const double ci = 0.5 * (la.ci95 + lb.ci95);
  if (!(slope > 0) || !(ci > 0)) return floor;
  return std::max(floor, std::min(ci / slope, 0.25 * (b - a)));
}

}  // namespace

std::optional<SensitivityParam> param_in_range(const Scenario& s, const std::string& pointer,
                                               double lo, double hi, const std::string& range) {
  const Described d = describe(s, pointer, true);
  SensitivityParam p = d.p;
  p.lo = lo;
  p.hi = hi;
  p.range = range;
  return fitted(p, d);
}

std::string assignment(const SensitivityParam& p, double value) {
  return p.pointer + "=" + value_text(p, value);
}

Scenario scenario_with(const Scenario& s, const std::vector<std::string>& assignments) {
  Json input = s.input;
  std::string all;
  for (const auto& a : assignments) all += (all.empty() ? "" : " ") + a;
  try {
    for (const auto& a : assignments) apply_override(input, a, s.file, &sections::scenario());
    return parse_scenario(input, s.file);
  } catch (const InputError& e) {
    throw InputError("--param", all, e.what());
  }
}

double stall_per_fault_s(const SensitivityPoint& p, std::size_t i) {
  if (!(p.winner_job_faults > 0) || i >= p.lead.size())
    return std::numeric_limits<double>::quiet_NaN();
  return p.lead[i].mean * p.wall_hours * 3600 / p.winner_job_faults;
}

bool tied_at(const SensitivityPoint& p, std::size_t leader_index, std::size_t* second) {
  std::size_t sec = leader_index == 0 ? 1 : 0;
  if (p.goodput.size() < 2) return false;
  for (std::size_t k = 0; k < p.goodput.size(); ++k)
    if (k != leader_index && p.goodput[k].mean > p.goodput[sec].mean) sec = k;
  if (second) *second = sec;
  const Summary d = summarize_difference(p.per_seed[leader_index], p.per_seed[sec]);
  return !(d.n >= 2 && d.mean > std::max(d.ci95, kRoundingLead));
}

SensitivityParam param_with_default_range(const Scenario& s, const std::string& pointer) {
  const auto p = default_range(describe(s, pointer));
  if (!p)
    throw InputError("--param", pointer,
                     "the default range rule gives no range for its value; give one: --param " +
                         pointer + "=LO:HI");
  return *p;
}

SensitivityParam parse_param(const Scenario& s, const std::string& spec) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos) return param_with_default_range(s, spec);
  const std::string range = spec.substr(eq + 1);
  const auto colon = range.find(':');
  if (colon == std::string::npos)
    throw InputError("--param", spec, "expected PTR or PTR=LO:HI with numbers LO < HI");
  SensitivityParam p = describe(s, spec.substr(0, eq)).p;
  p.lo = parse_number(range.substr(0, colon), spec);
  p.hi = parse_number(range.substr(colon + 1), spec);
  if (!(p.lo < p.hi)) throw InputError("--param", spec, "expected LO < HI");
  if (p.integer && (p.lo != std::floor(p.lo) || p.hi != std::floor(p.hi)))
    throw InputError("--param", spec, "an integer key needs whole numbers LO and HI");
  p.range = "given";
  return p;
}

std::vector<SensitivityParam> default_params(const Scenario& s) {
  std::vector<std::string> pointers;
  for (const auto& d : sections::recovery().params) {
    const std::string ptr = "/recovery/" + d.key;
    const Json::json_pointer at(ptr);  // prices only (not /recovery/slow_response)
    if (s.resolved.contains(at) && s.resolved.at(at).is_number()) pointers.push_back(ptr);
  }
  pointers.push_back("/checkpoint/load_s");
  pointers.push_back("/checkpoint/save_s");
  if (s.failures.model == FailureSpec::Model::Statistical) {
    pointers.push_back("/failures/rate_scale");
    const Json::json_pointer classes("/failures/classes");
    if (s.input.contains(classes) && s.input.at(classes).is_array())
      for (std::size_t i = 0; i < s.failures.classes.size() && i < s.input.at(classes).size();
           ++i) {
        const std::string repair = "/failures/classes/" + std::to_string(i) + "/repair";
        if (!s.input.contains(Json::json_pointer(repair))) continue;
        const auto kind = s.failures.classes[i].repair.kind;
        if (kind == RepairSpec::Kind::Fixed) pointers.push_back(repair + "/hours");
        if (kind == RepairSpec::Kind::Lognormal) pointers.push_back(repair + "/median_hours");
      }
  }
  std::vector<SensitivityParam> out;
  for (const auto& ptr : pointers) {
    if (!s.resolved.contains(Json::json_pointer(ptr)) && !s.input.contains(Json::json_pointer(ptr)))
      continue;
    if (auto p = default_range(describe(s, ptr))) out.push_back(*p);
  }
  return out;
}

Scenario scenario_at(const Scenario& s, const SensitivityParam& param, double value) {
  return scenario_with(s, {assignment(param, value)});
}

double break_even(std::function<double(double)> diff, double lo, double hi, int iters) {
  const bool ahead_at_lo = diff(lo) > 0;
  if ((diff(hi) > 0) == ahead_at_lo) return std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < iters; ++i) {
    const double mid = 0.5 * (lo + hi);
    if ((diff(mid) > 0) == ahead_at_lo)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

double Bracket::root() const {
  if (!(flo != fhi) || !std::isfinite(flo) || !std::isfinite(fhi)) return 0.5 * (lo + hi);
  return std::clamp(lo + flo * (hi - lo) / (flo - fhi), lo, hi);
}

Bracket break_even_secant(const std::function<double(double)>& diff, double a, double b, double fa,
                          double fb, double width, int max_evals) {
  Bracket br{a, b, fa, fb, 0};
  const bool ahead_at_a = fa > 0;
  int kept = 0;  // > 0: the lo end was kept by the last steps, < 0: the hi end (Illinois)
  bool bisect = false;
  // Moves the end on x's side to x; returns whether lo moved.
  auto take = [&](double x, double fx) {
    const bool lo_side = (fx > 0) == ahead_at_a;
    (lo_side ? br.lo : br.hi) = x;
    (lo_side ? br.flo : br.fhi) = fx;
    (lo_side ? fa : fb) = fx;
    return lo_side;
  };
  while (br.hi - br.lo > width && br.evaluations < max_evals) {
    const double before = br.hi - br.lo;
    double x = 0.5 * (br.lo + br.hi);
    if (!bisect && fa != fb) x = br.lo + fa * (br.hi - br.lo) / (fa - fb);
    x = std::clamp(x, br.lo + 0.25 * width, br.hi - 0.25 * width);
    const double fx = diff(x);
    ++br.evaluations;
    const bool lo_moved = take(x, fx);
    // Illinois: an end kept twice in a row has its value halved, so the next point moves past
    // the root instead of creeping towards it from one side.
    kept = lo_moved ? std::min(kept, 0) - 1 : std::max(kept, 0) + 1;
    if (kept >= 2) fa *= 0.5;
    if (kept <= -2) fb *= 0.5;
    const bool good = !bisect && br.hi - br.lo <= 0.5 * before;
    // The probe: `width` past x towards the root closes a bracket that x landed next to.
    if (good && br.hi - br.lo > width && br.evaluations < max_evals) {
      const double y = lo_moved ? x + width : x - width;
      if (y > br.lo && y < br.hi) {
        const double fy = diff(y);
        ++br.evaluations;
        take(y, fy);
        kept = 0;
      }
    }
    bisect = !bisect && br.hi - br.lo > 0.5 * before;  // too slow: one bisection step next
  }
  return br;
}

std::optional<long> break_even_integer(const std::function<double(long)>& diff, long lo, long hi) {
  const bool ahead_at_lo = diff(lo) > 0;
  if ((diff(hi) > 0) == ahead_at_lo) return std::nullopt;
  while (hi - lo > 1) {
    const long mid = lo + (hi - lo) / 2;
    if ((diff(mid) > 0) == ahead_at_lo)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

void check_param_ends(const Scenario& s, const std::vector<SensitivityParam>& params) {
  for (const auto& p : params)
    for (const double v : {p.lo, p.hi}) {
      const Scenario end = scenario_at(s, p, v);
      try {
        (void)make_plan(end);
      } catch (const InputError& e) {
        throw InputError("--param", p.pointer + "=" + value_text(p, v), e.what());
      }
    }
}

SensitivityReport run_sensitivity(const Scenario& s, const std::vector<SensitivityParam>& params,
                                  const Evaluate& evaluate,
                                  const std::function<void(const std::string&, double)>& progress) {
  SensitivityRequest req;
  req.params = params;
  return run_sensitivity(s, req, evaluate, progress);
}

SensitivityReport run_sensitivity(const Scenario& s, const std::vector<SensitivityParam>& params,
                                  const ScopedEvaluate& evaluate,
                                  const std::function<void(const std::string&, double)>& progress) {
  SensitivityRequest req;
  req.params = params;
  return run_sensitivity(s, req, evaluate, progress);
}

SensitivityReport run_sensitivity(const Scenario& s, const SensitivityRequest& req,
                                  const Evaluate& evaluate,
                                  const std::function<void(const std::string&, double)>& progress) {
  const ScopedEvaluate every = [&](const Scenario& sc, const EvaluationScope&) {
    return evaluate(sc);
  };
  return run_sensitivity(s, req, every, progress);
}

int most_evaluations(const SensitivityRequest& req, std::size_t strategies) {
  const long rivals = static_cast<long>(std::max<std::size_t>(1, strategies) - 1);
  long n = 1 + req.robustness_points;
  for (const auto& sw : req.switches) n += static_cast<long>(sw.values.size());
  n += static_cast<long>(req.params.size()) * (2 + 2 * rivals * 2 * kBreakEvenIterations);
  if (req.max_evaluations > 0) n = std::min<long>(n, req.max_evaluations);
  return static_cast<int>(std::min<long>(n, 1 << 30));
}

SensitivityReport run_sensitivity(const Scenario& s, const SensitivityRequest& req,
                                  const ScopedEvaluate& evaluate,
                                  const std::function<void(const std::string&, double)>& progress) {
  const auto& params = req.params;
  // Every end must be a valid scenario before anything runs, so a bad range fails at once.
  for (const auto& p : params) {
    (void)scenario_at(s, p, p.lo);
    (void)scenario_at(s, p, p.hi);
  }
  SensitivityReport rep;
  rep.scenario_name = s.name;
  rep.scenario_file = s.file;
  rep.seeds = s.seeds;
  rep.seed = s.seed;
  rep.resolved = s.resolved;
  int used = 1;  // evaluations, the base included
  const int cap = req.max_evaluations > 0 ? req.max_evaluations : std::numeric_limits<int>::max();
  if (progress) progress("base", 0);
  const std::vector<StrategyRuns> base_runs = evaluate(s, {});
  {
    const RunPlan unused;  // build_report keeps a pointer to the plan; only the ranking is read
    const Report base = build_report(unused, base_runs);
    rep.winner = base.winner;
    rep.runner_up = base.runner_up;
    rep.decided = base.decided;
    const auto given = [&](int i) {
      return i >= 0 && static_cast<std::size_t>(i) < base_runs.size();
    };
    if (given(req.winner) && static_cast<std::size_t>(req.winner) != base.winner) {
      rep.winner = static_cast<std::size_t>(req.winner);
      rep.runner_up = base.winner;  // the base's leader is then the winner's closest rival
      rep.decided = false;
    }
    if (given(req.winner) && given(req.runner_up) && req.runner_up != req.winner)
      rep.runner_up = static_cast<std::size_t>(req.runner_up);
  }
  for (const auto& r : base_runs) rep.strategies.push_back(r.strategy);
  rep.base = point_of(0, base_runs, rep.winner);
  const std::size_t n = rep.strategies.size();
  const std::size_t w = rep.winner;
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;

  // The scope of an evaluation running `needed` strategies, those already known in `have` (empty:
  // none) left out and, for an input only some strategies read (`only`), every other's taken from
  // the base; nullopt when nothing is left to run.
  // An input of one strategy's rules (pilot_rule Simulate) under scaled pilots (`goodput run`):
  // the others would keep the base's pilot, and that strategy's own is simulated at the base's
  // failures, under its rules' name (a robustness world with the same rules then reuses it).
  auto own_rules = [&](const std::string& pointer, EvaluationScope::Pilot& pilot) {
    std::optional<std::size_t> own;
    if (req.scale_pilots && pilot == EvaluationScope::Pilot::Simulate)
      own = strategy_of_input(s, pointer);
    if (own) pilot = EvaluationScope::Pilot::Keep;
    return own;
  };
  auto scope_of = [&](const std::vector<StrategyRuns>& have, const std::vector<std::size_t>& needed,
                      const std::optional<std::vector<std::size_t>>& only,
                      EvaluationScope::Pilot pilot,
                      std::optional<std::size_t> own = {}) -> std::optional<EvaluationScope> {
    EvaluationScope scope;
    scope.pilot = pilot;
    if (own) scope.own_pilot = {*own};
    for (std::size_t i : needed) {
      if (!have.empty() && !have[i].runs.empty()) continue;
      if (!only || std::find(only->begin(), only->end(), i) != only->end())
        scope.strategies.push_back(i);
    }
    if (scope.strategies.empty()) return std::nullopt;
    if (scope.strategies.size() == n && pilot == EvaluationScope::Pilot::Simulate)
      scope.strategies.clear();  // every one
    return scope;
  };
  // Evaluations known before any runs (every range end and switch value), run as batches when the
  // request has a batch evaluator or sequential ends (sensitivity_ahead.hpp).
  const int first = req.first_seeds > 0 && req.first_seeds < s.seeds ? req.first_seeds : 0;
  EvaluationsAhead ahead(first);
  bool from_batch = false;    // the last evaluation served came from a batch (its progress told)
  bool served_short = false;  // ... and holds its first seeds only
  const ScopedEvaluate served = [&](const Scenario& sc, const EvaluationScope& scope) {
    from_batch = false;
    if (std::optional<EvaluationOutcome> o = ahead.take(sc, scope, served_short)) {
      from_batch = true;
      if (o->error) std::rethrow_exception(o->error);
      return std::move(o->runs);
    }
    return evaluate(sc, scope);
  };
  // Every strategy's runs cut to their first `seeds` (a point left at its first seeds).
  const auto cut = [](std::vector<StrategyRuns>& runs, int seeds) {
    for (auto& r : runs)
      if (r.runs.size() > static_cast<std::size_t>(seeds))
        r.runs.resize(static_cast<std::size_t>(seeds));
  };
  if (req.batch || first > 0) {
    auto ask = [&](auto&& make_scenario, const std::string& pointer, double value) {
      auto pilot = pilot_rule(pointer, req.scale_pilots);
      const auto own = own_rules(pointer, pilot);
      std::optional<EvaluationScope> scope =
          scope_of({}, all, readers_of_input(s, pointer, base_runs), pilot, own);
      if (!scope) return;
      Scenario sc;
      try {
        sc = make_scenario();
      } catch (const std::exception&) {  // the analysis meets (and reports) it in its turn
        return;
      }
      name_own_pilots(sc, *scope);
      ahead.add(std::move(sc), *scope, pointer, value);
    };
    for (const auto& p : params)
      for (const double v : {p.lo, p.hi})
        if ((p.derived || v != p.base) && !(v == p.hi && p.hi == p.lo))
          ask([&] { return scenario_at(s, p, v); }, p.pointer, v);
    for (const SwitchInput& sw : req.switches)
      for (const Json& v : sw.values)
        ask([&] { return scenario_with(s, {sw.pointer + "=" + v.dump()}); }, sw.pointer, 0);
    // First seeds settle a point when, against every rival, the winner's paired lead on them
    // lies beyond its 95% CI on the side of the scenario's value (the strategies out of scope
    // take the base's runs, cut likewise).
    const auto settled = [&](const std::vector<StrategyRuns>& got) {
      std::vector<StrategyRuns> runs = base_runs;
      for (std::size_t i = 0; i < n && i < got.size(); ++i)
        if (!got[i].runs.empty()) runs[i] = got[i];
      cut(runs, first);
      const SensitivityPoint pt = point_of(0, runs, w);
      for (std::size_t k = 0; k < n; ++k) {
        if (k == w) continue;
        const Summary& d = pt.lead[k];
        if (!(std::abs(d.mean) > std::max(d.ci95, kRoundingLead)) ||
            (d.mean > 0) != (rep.base.lead[k].mean > 0))
          return false;
      }
      return true;
    };
    const BatchEvaluate run_all =
        req.batch ? req.batch
                  : [&](const std::vector<EvaluationRequest>& r, const BatchDone& done) {
                      return evaluate_each(evaluate, r, done);
                    };
    ahead.run(run_all, settled, progress);
    if (first > 0) rep.ends = {ahead.first_seeds(), ahead.evaluated(), ahead.extended()};
  }
  // Runs `needed` strategies of `sc`, taking what is already known from `have` (empty runs: not
  // yet run) and, for an input only some strategies read (`only`), every other's from the base.
  auto fill = [&](std::vector<StrategyRuns>& have, const Scenario& sc,
                  const std::vector<std::size_t>& needed,
                  const std::optional<std::vector<std::size_t>>& only, EvaluationScope::Pilot pilot,
                  std::optional<std::size_t> own) {
    std::optional<EvaluationScope> scope = scope_of(have, needed, only, pilot, own);
    if (scope) name_own_pilots(sc, *scope);
    if (have.empty()) {
      have.resize(n);
      for (std::size_t i = 0; i < n; ++i) have[i].strategy = rep.strategies[i];
    }
    for (std::size_t i : needed)
      if (have[i].runs.empty() && only && std::find(only->begin(), only->end(), i) == only->end())
        have[i] = base_runs[i];
    if (!scope) return false;
    const std::vector<StrategyRuns> got = served(sc, *scope);
    for (std::size_t i = 0; i < n && i < got.size(); ++i)
      if (have[i].runs.empty() && !got[i].runs.empty()) have[i] = got[i];
    if (served_short) cut(have, first);
    return true;
  };

  for (const auto& p : params) {
    SensitivityResult res;
    res.param = p;
    res.crossings.assign(n, {});
    const std::optional<std::vector<std::size_t>> only = readers_of_input(s, p.pointer, base_runs);
    EvaluationScope::Pilot pilot = pilot_rule(p.pointer, req.scale_pilots);
    const std::optional<std::size_t> own = own_rules(p.pointer, pilot);
    // Each value's runs, per strategy, evaluated once; the base's are known. `short_at`: values
    // whose runs are their first seeds only (sequential ends).
    std::map<double, std::vector<StrategyRuns>> seen;
    std::set<double> short_at;
    if (!p.derived) seen.emplace(p.base, base_runs);
    auto runs_at = [&](double v,
                       const std::vector<std::size_t>& needed) -> const std::vector<StrategyRuns>& {
      std::vector<StrategyRuns>& have = seen[v];
      bool missing = have.empty();
      for (std::size_t i : needed) missing = missing || have[i].runs.empty();
      if (!missing) return have;
      Scenario sc;
      try {
        sc = scenario_at(s, p, v);
      } catch (const InputError& e) {
        throw InputError("--param", assignment(p, v), e.what());
      }
      bool ran = false;
      try {
        ran = fill(have, sc, needed, only, pilot, own);
      } catch (const InputError& e) {
        throw InputError("--param", assignment(p, v), e.what());
      }
      if (ran) {
        if (served_short) short_at.insert(v);
        if (progress && !from_batch) progress(p.pointer, v);
        ++res.evaluations;
        ++used;
      }
      return have;
    };
    // A crossing search starts from every seed: the rest of them at a value left at its first.
    auto every_seed_at = [&](double v) {
      if (short_at.erase(v) == 0) return;
      std::vector<StrategyRuns>& have = seen[v];
      std::optional<EvaluationScope> scope = scope_of({}, all, only, pilot, own);
      for (std::size_t i = 0; i < n; ++i)
        if (only && std::find(only->begin(), only->end(), i) == only->end()) have[i] = base_runs[i];
      if (!scope) return;
      scope->first_run = first;
      std::vector<StrategyRuns> more;
      try {
        const Scenario sc = scenario_at(s, p, v);
        name_own_pilots(sc, *scope);
        more = evaluate(sc, *scope);
      } catch (const InputError& e) {
        throw InputError("--param", assignment(p, v), e.what());
      }
      append_runs(have, more);
      ++rep.ends.extended;
    };
    auto at = [&](double v) {
      SensitivityPoint pt = point_of(v, runs_at(v, all), w);
      pt.value = v;
      return pt;
    };
    // The winner's paired lead over rival k at v (the winner and k only are run).
    auto lead = [&](double v, std::size_t k) {
      const auto& r = runs_at(v, {w, k});
      std::vector<double> a, b;
      for (const auto& m : r[w].runs) a.push_back(m.goodput);
      for (const auto& m : r[k].runs) b.push_back(m.goodput);
      return summarize_difference(a, b);
    };
    auto winner_mean = [&](double v) {
      std::vector<double> a;
      for (const auto& m : runs_at(v, {w})[w].runs) a.push_back(m.goodput);
      return summarize(a).mean;
    };
    res.lo = at(p.lo);
    res.hi = at(p.hi);
    const bool base_inside = !p.derived && p.lo <= p.base && p.base <= p.hi;
    if (!short_at.empty()) {
      // An end left at its first seeds has every lead on the scenario's value's side, so only
      // a crossing searched between the ends can start from it: both then run every seed.
      bool between = false;
      for (std::size_t k = 0; k < n; ++k)
        between = between || (k != w && !(base_inside && rep.base.lead[k].mean > 0) &&
                              (res.lo.lead[k].mean > 0) != (res.hi.lead[k].mean > 0));
      if (between) {
        every_seed_at(p.lo);
        every_seed_at(p.hi);
        res.lo = at(p.lo);
        res.hi = at(p.hi);
      }
    }
    const double w_lo = res.lo.goodput[w].mean, w_hi = res.hi.goodput[w].mean;
    const double w_base = rep.base.goodput[w].mean;
    res.swing = p.derived ? std::abs(w_hi - w_lo)
                          : std::max({w_lo, w_hi, w_base}) - std::min({w_lo, w_hi, w_base});
    for (std::size_t k = 0; k < n; ++k) {
      if (k == w) continue;
      // The crossing against rival k between a and b (its leads differ in sign; both are ends
      // or the scenario's value, where every strategy has run).
      auto crossing = [&](double a, double b) {
        every_seed_at(a);
        every_seed_at(b);
        Crossing c;
        const Summary la = lead(a, k), lb = lead(b, k);
        c.ahead_below = la.mean > 0;
        if (p.integer) {
          const auto kk =
              break_even_integer([&](long v) { return lead(static_cast<double>(v), k).mean; },
                                 std::lround(a), std::lround(b));
          c.value = static_cast<double>(*kk);
          c.bracket_lo = c.value - 1;
          c.bracket_hi = c.value;
          c.winner_goodput = winner_mean(c.value);
        } else {
          const int left = std::max(0, cap - used);
          if (left < 2 * kBreakEvenIterations) rep.capped = true;
          const Bracket br = break_even_secant(
              [&](double v) { return lead(v, k).mean; }, a, b, la.mean, lb.mean,
              req.sampling_precision ? crossing_width(a, b, la, lb)
                                     : (b - a) / std::ldexp(1.0, kBreakEvenIterations),
              std::min(left, 2 * kBreakEvenIterations));
          c.value = br.root();
          c.resolution = 0.5 * (br.hi - br.lo);
          c.bracket_lo = br.lo;
          c.bracket_hi = br.hi;
          c.winner_goodput = 0.5 * (winner_mean(br.lo) + winner_mean(br.hi));
        }
        return c;
      };
      const bool ahead_lo = res.lo.lead[k].mean > 0, ahead_hi = res.hi.lead[k].mean > 0;
      if (base_inside && rep.base.lead[k].mean > 0) {
        if (!ahead_lo) res.crossings[k].push_back(crossing(p.lo, p.base));
        if (!ahead_hi) res.crossings[k].push_back(crossing(p.base, p.hi));
      } else if (ahead_lo != ahead_hi) {
        res.crossings[k].push_back(crossing(p.lo, p.hi));
      }
    }
    rep.params.push_back(std::move(res));
  }
  std::stable_sort(
      rep.params.begin(), rep.params.end(),
      [](const SensitivityResult& a, const SensitivityResult& b) { return a.swing > b.swing; });

  for (const SwitchInput& sw : req.switches) {
    SwitchResult res;
    res.input = sw;
    const std::optional<std::vector<std::size_t>> only = readers_of_input(s, sw.pointer, base_runs);
    EvaluationScope::Pilot pilot = pilot_rule(sw.pointer, req.scale_pilots);
    const std::optional<std::size_t> own = own_rules(sw.pointer, pilot);
    for (const Json& v : sw.values) {
      const std::string text = sw.pointer + "=" + v.dump();
      ++used;
      from_batch = false;
      try {
        std::vector<StrategyRuns> runs;
        const bool ran = fill(runs, scenario_with(s, {text}), all, only, pilot, own);
        if (progress && !(ran && from_batch)) progress(sw.pointer, 0);
        res.points.push_back(point_of(0, runs, w));
        res.invalid.emplace_back();
      } catch (const InputError& e) {
        if (progress && !from_batch) progress(sw.pointer, 0);
        res.points.emplace_back();
        res.invalid.emplace_back(e.what());
      } catch (const std::invalid_argument& e) {  // a model the cost model cannot build
        if (progress && !from_batch) progress(sw.pointer, 0);
        res.points.emplace_back();
        res.invalid.emplace_back(text + ": " + e.what());
      }
    }
    rep.switches.push_back(std::move(res));
  }
  if (req.robustness_points > 0)
    rep.robustness = run_robustness(
        s, params, req.switches,
        {req.robustness_points, req.robustness_seeds, req.robustness_first_seeds, req.scale_pilots},
        w, evaluate,
        [&](int) {
          if (progress) progress("robustness", 0);
        },
        req.batch);
  return rep;
}

}  // namespace goodput
