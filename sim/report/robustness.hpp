// The robustness line: the plausible box (plausible.hpp) sampled jointly. Sampler: a centred
// Latin hypercube of N points in [0,1)^d, d = numeric inputs + switches, each axis's cell order a
// Fisher-Yates permutation drawn from SplitMix64 seeded by (scenario seed, axis): the same seed
// gives the same points. A coordinate u maps to a number log-uniformly over [lo, hi] when lo > 0
// (a price as likely halved as doubled), uniformly when lo <= 0 (rounded for integer keys), and to
// a switch's value floor(u * k) of its k values (the scenario's first). Every point runs the same
// failure seeds (common random numbers; the first `seeds` of the scenario's). At each point the
// leader is the highest mean Goodput; it wins the point when its paired lead over the second is
// beyond the 95% CI, else the point is tied. The deciding input: the axis whose values have the
// largest |Spearman rank correlation| with the base winner's gap to its best rival at the point.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/report/sensitivity.hpp"

namespace goodput {

std::vector<std::vector<double>> latin_hypercube(int points, int dims, std::uint64_t seed);
// A numeric axis's value at u; a switch's value index at u.
double plausible_value(const SensitivityParam& p, double u);
std::size_t switch_index(const SwitchInput& sw, double u);
// Per switch: the coordinate of u it reads (numbers first, then switches). A switch that is the
// same setting of another strategy as an earlier one (/strategies/A/k and /strategies/B/k with
// the same value and alternatives, e.g. ntp's and ntp_boost's reconfig) reads that one's: both
// describe one fact of the world (the framework's), so a world moves them together.
std::vector<std::size_t> switch_coordinates(const std::vector<SensitivityParam>& params,
                                            const std::vector<SwitchInput>& switches);
// The --set assignments of one point (u: numbers first, then switches).
std::vector<std::string> world_assignments(const std::vector<SensitivityParam>& params,
                                           const std::vector<SwitchInput>& switches,
                                           const std::vector<double>& u);
// What one point's evaluation needs (EvaluationScope): every strategy; the pilot kept, scaled or
// simulated by the most demanding rule of the inputs that moved from the scenario's value
// (pilot_rule), a strategy's own rules piloting that strategy alone (own_pilot).
// `scale_pilots`: as SensitivityRequest::scale_pilots.
EvaluationScope world_scope(const Scenario& s, const std::vector<SensitivityParam>& params,
                            const std::vector<SwitchInput>& switches, const std::vector<double>& u,
                            bool scale_pilots = true);
// Spearman's rank correlation (average ranks for ties); 0 when either side is constant.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// The strategies a world's later seeds can still rank, from its first seeds' point: the leader
// `lead` and every rival whose paired lead from it is within its 95% CI (or kRoundingLead).
std::vector<std::size_t> contenders(const SensitivityPoint& pt, std::size_t lead);

// How the worlds are sampled and run: `points` worlds of `seeds` seeds each (0: the scenario's).
// `first_seeds` (0: off; used when below `seeds`): each world runs that many first and the rest
// (EvaluationScope::first_run) only where they leave the leader within its 95% CI: a sequential
// test that stops when the first seeds already separate the leader. The rest run for the
// contenders only (the others already trail the leader beyond its CI), and the world's leader and
// tie are decided among them; the gap is taken on the first seeds in every world, so every
// world's gap has the same seeds. Each world's evaluation asks for world_scope(..., scale_pilots).
struct RobustnessSpec {
  int points = 0;
  int seeds = 0;
  int first_seeds = 0;
  bool scale_pilots = false;
};

// Evaluates every point and counts wins and ties. `winner`: the base winner (the gap is its lead
// over the best other strategy). `evaluated(point)` is told once per point, when its first
// evaluation is done (for progress: in any order under a batch). `batch` (optional):
// runs every world's first evaluation as one batch, then the extensions as another; the result
// is the same as evaluating them in turn with `evaluate`.
Robustness run_robustness(const Scenario& s, const std::vector<SensitivityParam>& params,
                          const std::vector<SwitchInput>& switches, const RobustnessSpec& spec,
                          std::size_t winner, const ScopedEvaluate& evaluate,
                          const std::function<void(int)>& evaluated = {},
                          const BatchEvaluate& batch = {});

}  // namespace goodput
