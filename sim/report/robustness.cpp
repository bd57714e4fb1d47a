#include "sim/report/robustness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <numeric>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/stats.hpp"
#include "sim/engine/random.hpp"

namespace goodput {

namespace {

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double avg = 0.5 * static_cast<double>(i + j);
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = avg;
    i = j + 1;
  }
  return r;
}

// Each strategy's Goodput per seed and its summary (what leader() and tied_at() read).
SensitivityPoint point_of_runs(const std::vector<StrategyRuns>& runs) {
  SensitivityPoint pt;
  pt.per_seed.resize(runs.size());
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& m : runs[k].runs) pt.per_seed[k].push_back(m.goodput);
    pt.goodput.push_back(summarize(pt.per_seed[k]));
  }
  return pt;
}

// The strategies `runs` names at `which` (their indexes), in that order.
std::vector<StrategyRuns> runs_of(const std::vector<StrategyRuns>& runs,
                                  const std::vector<std::size_t>& which) {
  std::vector<StrategyRuns> out;
  for (std::size_t k : which) out.push_back(runs[k]);
  return out;
}

// Every strategy's runs cut to their first `seeds`.
std::vector<StrategyRuns> first_runs(std::vector<StrategyRuns> runs, int seeds) {
  for (auto& r : runs)
    if (r.runs.size() > static_cast<std::size_t>(seeds))
      r.runs.resize(static_cast<std::size_t>(seeds));
  return runs;
}

}  // namespace

std::vector<std::size_t> contenders(const SensitivityPoint& pt, std::size_t lead) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < pt.goodput.size(); ++k) {
    if (k != lead) {
      const Summary d = summarize_difference(pt.per_seed[lead], pt.per_seed[k]);
      if (d.n >= 2 && d.mean > std::max(d.ci95, kRoundingLead)) continue;  // behind beyond doubt
    }
    out.push_back(k);
  }
  return out;
}

std::vector<std::vector<double>> latin_hypercube(int points, int dims, std::uint64_t seed) {
  std::vector<std::vector<double>> u(static_cast<std::size_t>(points),
                                     std::vector<double>(static_cast<std::size_t>(dims)));
  for (int d = 0; d < dims; ++d) {
    std::uint64_t state = seed * 0x2545F4914F6CDD1Dull + static_cast<std::uint64_t>(d) + 1;
    std::vector<int> cell(static_cast<std::size_t>(points));
    std::iota(cell.begin(), cell.end(), 0);
    for (int i = points - 1; i > 0; --i) {
      const auto j = static_cast<int>(splitmix64(state) % static_cast<std::uint64_t>(i + 1));
      std::swap(cell[static_cast<std::size_t>(i)], cell[static_cast<std::size_t>(j)]);
    }
    for (int i = 0; i < points; ++i)
      u[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)] =
          (cell[static_cast<std::size_t>(i)] + 0.5) / points;
  }
  return u;
}

double plausible_value(const SensitivityParam& p, double u) {
  double v = p.lo > 0 ? p.lo * std::pow(p.hi / p.lo, u) : p.lo + u * (p.hi - p.lo);
  if (p.integer) v = std::round(v);
  return std::clamp(v, p.lo, p.hi);
}

std::size_t switch_index(const SwitchInput& sw, double u) {
  const std::size_t k = sw.values.size() + 1;  // the base first
  return std::min(k - 1, static_cast<std::size_t>(u * static_cast<double>(k)));
}

namespace {

// "/strategies/<name>/<rest>" -> "<rest>" (empty for any other pointer).
std::string strategy_setting(const std::string& pointer) {
  const auto split = split_strategy_input(pointer);
  return split ? split->second : "";
}

}  // namespace

std::vector<std::size_t> switch_coordinates(const std::vector<SensitivityParam>& params,
                                            const std::vector<SwitchInput>& switches) {
  std::vector<std::size_t> at(switches.size());
  for (std::size_t j = 0; j < switches.size(); ++j) {
    at[j] = params.size() + j;
    const std::string setting = strategy_setting(switches[j].pointer);
    if (setting.empty()) continue;
    for (std::size_t i = 0; i < j; ++i)
      if (strategy_setting(switches[i].pointer) == setting &&
          switches[i].base == switches[j].base && switches[i].values == switches[j].values) {
        at[j] = at[i];
        break;
      }
  }
  return at;
}

std::vector<std::string> world_assignments(const std::vector<SensitivityParam>& params,
                                           const std::vector<SwitchInput>& switches,
                                           const std::vector<double>& u) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < params.size(); ++i)
    out.push_back(assignment(params[i], plausible_value(params[i], u[i])));
  const std::vector<std::size_t> at = switch_coordinates(params, switches);
  for (std::size_t j = 0; j < switches.size(); ++j) {
    const SwitchInput& sw = switches[j];
    const std::size_t k = switch_index(sw, u[at[j]]);
    out.push_back(sw.pointer + "=" + (k == 0 ? sw.base : sw.values[k - 1]).dump());
  }
  return out;
}

EvaluationScope world_scope(const Scenario& s, const std::vector<SensitivityParam>& params,
                            const std::vector<SwitchInput>& switches, const std::vector<double>& u,
                            bool scale_pilots) {
  using Pilot = EvaluationScope::Pilot;
  EvaluationScope scope;
  scope.pilot = Pilot::Keep;
  auto moved = [&](const std::string& pointer) {
    const Pilot rule = pilot_rule(pointer, scale_pilots);
    const std::optional<std::size_t> own = strategy_of_input(s, pointer);
    if (own && rule == Pilot::Simulate) {
      if (std::find(scope.own_pilot.begin(), scope.own_pilot.end(), *own) == scope.own_pilot.end())
        scope.own_pilot.push_back(*own);
    } else {
      scope.pilot = std::max(scope.pilot, rule);
    }
  };
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].derived || plausible_value(params[i], u[i]) != params[i].base)
      moved(params[i].pointer);
  const std::vector<std::size_t> at = switch_coordinates(params, switches);
  for (std::size_t j = 0; j < switches.size(); ++j)
    if (switch_index(switches[j], u[at[j]]) != 0) moved(switches[j].pointer);
  std::sort(scope.own_pilot.begin(), scope.own_pilot.end());
  if (scope.pilot == Pilot::Simulate) scope.own_pilot.clear();  // every strategy's is simulated
  return scope;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) return 0;
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

Robustness run_robustness(const Scenario& s, const std::vector<SensitivityParam>& params,
                          const std::vector<SwitchInput>& switches, const RobustnessSpec& spec,
                          std::size_t winner, const ScopedEvaluate& evaluate,
                          const std::function<void(int)>& evaluated, const BatchEvaluate& batch) {
  Robustness rb;
  const int points = spec.points;
  rb.seeds = spec.seeds > 0 ? std::min(spec.seeds, s.seeds) : s.seeds;
  const int first = spec.first_seeds > 0 && spec.first_seeds < rb.seeds ? spec.first_seeds : 0;
  rb.first_seeds = first;
  for (const auto& p : params) rb.inputs.push_back(p.pointer);
  for (const auto& sw : switches) rb.inputs.push_back(sw.pointer);
  const int dims = static_cast<int>(rb.inputs.size());
  if (points <= 0 || dims == 0) return rb;
  const auto u = latin_hypercube(points, dims, s.seed);
  const std::vector<std::size_t> coordinate = switch_coordinates(params, switches);
  for (std::size_t i = 0; i < params.size(); ++i) rb.moves_with.push_back(i);
  rb.moves_with.insert(rb.moves_with.end(), coordinate.begin(), coordinate.end());
  const BatchEvaluate run_all =
      batch ? batch : [&](const std::vector<EvaluationRequest>& r, const BatchDone& done) {
        return evaluate_each(evaluate, r, done);
      };
  // One world's evaluation of `seeds` seeds from `from` on; a scenario the inputs make invalid
  // fails here or in the evaluation, either way where the world is counted (refused).
  struct Asked {
    std::vector<EvaluationRequest> requests;
    std::vector<std::size_t> index;  // per point: its request (SIZE_MAX: none)
    std::vector<std::exception_ptr> unbuilt;
  };
  // `only` (non-empty): the strategies to run, the others left without runs.
  auto ask = [&](Asked& asked, int i, int seeds, int from, const std::vector<std::size_t>& only) {
    const auto& ui = u[static_cast<std::size_t>(i)];
    auto at = world_assignments(params, switches, ui);
    at.push_back("/seeds=" + std::to_string(seeds));
    EvaluationScope sc = world_scope(s, params, switches, ui, spec.scale_pilots);
    sc.first_run = from;
    if (!only.empty()) {
      sc.strategies = only;
      std::erase_if(sc.own_pilot, [&](std::size_t k) { return !sc.runs(k); });
    }
    try {
      Scenario world = scenario_with(s, at);
      name_own_pilots(world, sc);
      asked.requests.push_back({std::move(world), sc});
      asked.index[static_cast<std::size_t>(i)] = asked.requests.size() - 1;
    } catch (...) {
      asked.unbuilt[static_cast<std::size_t>(i)] = std::current_exception();
    }
  };
  auto asking = [&] {
    Asked a;
    a.index.assign(static_cast<std::size_t>(points), SIZE_MAX);
    a.unbuilt.resize(static_cast<std::size_t>(points));
    return a;
  };
  // The outcome of point i's request (an error rethrown).
  auto outcome = [](Asked& asked, std::vector<EvaluationOutcome>& got, int i) {
    if (asked.unbuilt[static_cast<std::size_t>(i)])
      std::rethrow_exception(asked.unbuilt[static_cast<std::size_t>(i)]);
    EvaluationOutcome& o = got[asked.index[static_cast<std::size_t>(i)]];
    if (o.error) std::rethrow_exception(o.error);
    return std::move(o.runs);
  };
  // Every world's first seeds, then the rest of them where those leave the leader tied: for the
  // leader and its contenders only (the strategies those seeds leave within its CI).
  Asked early = asking();
  for (int i = 0; i < points; ++i) ask(early, i, first > 0 ? first : rb.seeds, 0, {});
  // Progress: a world is told once, when its first evaluation is done (or could not be built).
  std::vector<int> world_of;
  for (int i = 0; i < points; ++i)
    if (early.index[static_cast<std::size_t>(i)] == SIZE_MAX) {
      if (evaluated) evaluated(i + 1);
    } else {
      world_of.push_back(i);
    }
  std::vector<EvaluationOutcome> early_got = run_all(early.requests, [&](std::size_t r) {
    if (evaluated) evaluated(world_of[r] + 1);
  });
  Asked rest = asking();
  std::vector<char> extend(static_cast<std::size_t>(points), 0);
  std::vector<std::vector<std::size_t>> ranked(static_cast<std::size_t>(points));  // empty: all
  if (first > 0) {
    for (int i = 0; i < points; ++i) {
      const std::size_t r = early.index[static_cast<std::size_t>(i)];
      if (r == SIZE_MAX || early_got[r].error) continue;
      const SensitivityPoint pt = point_of_runs(early_got[r].runs);
      const std::size_t lead = leader(pt);
      if (!tied_at(pt, lead)) continue;
      extend[static_cast<std::size_t>(i)] = 1;
      ranked[static_cast<std::size_t>(i)] = contenders(pt, lead);
      ask(rest, i, rb.seeds, first, ranked[static_cast<std::size_t>(i)]);
    }
  }
  std::vector<EvaluationOutcome> rest_got = run_all(rest.requests, {});
  std::vector<std::vector<double>> axis(static_cast<std::size_t>(dims));
  std::vector<double> gap;
  for (int i = 0; i < points; ++i) {
    const auto& ui = u[static_cast<std::size_t>(i)];
    std::vector<StrategyRuns> runs;
    bool refused = false;  // a combination the scenario refuses (e.g. a schedule that does not fit)
    try {
      runs = outcome(early, early_got, i);
      if (extend[static_cast<std::size_t>(i)]) {  // the rest of the seeds
        ++rb.extended;
        append_runs(runs, outcome(rest, rest_got, i));
      }
    } catch (const InputError&) {
      refused = true;
    } catch (const std::invalid_argument&) {  // a model the cost model cannot build
      refused = true;
    }
    if (refused) {
      ++rb.refused;
      continue;
    }
    if (rb.wins.empty()) rb.wins.assign(runs.size(), 0);
    // A win only beyond the 95% CI of the paired lead over the second (sensitivity.hpp), among
    // the strategies ranked on every seed (an extended world: the contenders).
    std::vector<std::size_t> among = ranked[static_cast<std::size_t>(i)];
    if (among.empty()) {
      among.resize(runs.size());
      std::iota(among.begin(), among.end(), std::size_t{0});
    }
    const SensitivityPoint pt = point_of_runs(runs_of(runs, among));
    const std::size_t lead = leader(pt);
    if (tied_at(pt, lead))
      ++rb.tied;
    else
      ++rb.wins[among[lead]];
    // The gap on the seeds every world ran for every strategy (its first).
    std::vector<double> mean;
    for (const Summary& g : point_of_runs(first > 0 ? first_runs(runs, first) : runs).goodput)
      mean.push_back(g.mean);
    double best_other = -1e300;
    for (std::size_t k = 0; k < mean.size(); ++k)
      if (k != winner) best_other = std::max(best_other, mean[k]);
    gap.push_back(mean.size() < 2 ? 0 : mean[winner] - best_other);
    for (std::size_t j = 0; j < params.size(); ++j)
      axis[j].push_back(plausible_value(params[j], ui[j]));
    for (std::size_t j = 0; j < switches.size(); ++j)
      axis[params.size() + j].push_back(
          static_cast<double>(switch_index(switches[j], ui[coordinate[j]])));
    ++rb.points;
  }
  double best = 0;
  for (int d = 0; d < dims; ++d) {
    const double rho = spearman(axis[static_cast<std::size_t>(d)], gap);
    rb.rank_correlation.push_back(rho);
    if (std::abs(rho) > best) {
      best = std::abs(rho);
      rb.deciding_input = rb.inputs[static_cast<std::size_t>(d)];
    }
  }
  return rb;
}

}  // namespace goodput
