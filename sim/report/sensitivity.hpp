// What the verdict depends on (`goodput sensitivity`): each uncertain input is moved over a
// range [lo, hi] with everything else fixed, under common random numbers (the same seeds, so
// the same failures; only the scenario changes), and every strategy's mean Goodput is taken
// at lo, at the scenario's value and at hi (a tornado table). For each input, the break-even
// value at which the base run's winner and runner-up swap is found by bisection on their
// paired mean difference where it changes sign (between the scenario's value and an end, or
// between the ends when the scenario's value lies outside them). Values are applied with
// `--set`'s mechanism (apply_override) on the scenario's input; bad ones are InputErrors
// naming --param. Printers: sensitivity.json, sensitivity.md and a plain-text terminal table.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/core/stats.hpp"
#include "sim/run/evaluation_scope.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

inline constexpr int kSensitivitySchemaVersion = 2;
inline constexpr int kBreakEvenIterations = 12;  // bisection halvings: range / 4096
// A paired Goodput lead this small is rounding between identical runs (two equal leads give a CI
// of 0): it separates nothing (tied_at, sequential ends).
inline constexpr double kRoundingLead = 1e-9;

// One input to move. `pointer` names a number in the scenario (JSON pointer).
struct SensitivityParam {
  std::string pointer;
  double lo = 0, base = 0, hi = 0;
  bool integer = false;  // an integer key: values and the break-even are whole numbers
  std::string unit;      // "s", "h" or "" (from the declaration or the key's suffix)
  std::string range;     // how lo/hi were chosen ("given", "0.25x..4x", "plausible", ...)
  std::string source;    // where a plausible range comes from (plausible.hpp), else ""
  // The scenario derives the value (an optional price left unset): `base` is NaN, no point of
  // the axis; crossings are searched between lo and hi only.
  bool derived = false;
};

// A model switch: the scenario's value and the others it may plausibly take (plausible.hpp).
struct SwitchInput {
  std::string pointer;
  Json base;
  std::vector<Json> values;  // the alternatives, the base excluded
  std::string source;
};

// The default range rule: prices (/recovery/*, /checkpoint/*_s, repair hours) 0.25x..4x of the
// resolved value, or 0..60 s (0..1 h) when it is 0; /failures/rate_scale 0.5x..2x. Clamped to
// the declared bounds; rounded outwards for integer keys.
SensitivityParam param_with_default_range(const Scenario& s, const std::string& pointer);
// `pointer` over [lo, hi] clamped to its declared bounds (rounded outwards for integer keys), an
// optional price the scenario derives marked `derived`; nullopt when nothing is left.
std::optional<SensitivityParam> param_in_range(const Scenario& s, const std::string& pointer,
                                               double lo, double hi, const std::string& range);
// "PTR" (default range) or "PTR=LO:HI". Throws InputError naming --param.
SensitivityParam parse_param(const Scenario& s, const std::string& spec);
// With no --param: every /recovery price the resolved scenario holds (state_copy_s and
// ntp_reshard_s only when the scenario sets them), /checkpoint/load_s, /checkpoint/save_s,
// /failures/rate_scale, and the repair hours of explicit classes with a fixed or lognormal
// repair (a preset's repair mixtures have no single key).
std::vector<SensitivityParam> default_params(const Scenario& s);

// The scenario with `param` set to `value` (--set's apply_override on s.input, then parsed).
Scenario scenario_at(const Scenario& s, const SensitivityParam& param, double value);
// The scenario with every "pointer=value" assignment applied (InputError names --param).
Scenario scenario_with(const Scenario& s, const std::vector<std::string>& assignments);
// "PTR=VALUE" as --set takes it (whole numbers without ".0", others the shortest round trip).
std::string assignment(const SensitivityParam& p, double value);

// The x in [lo, hi] where diff changes sign, by `iters` bisection halvings of the bracket (the
// midpoint of the last bracket). NaN when diff(lo) and diff(hi) have the same sign (> 0 counts
// as one sign, <= 0 as the other).
double break_even(std::function<double(double)> diff, double lo, double hi, int iters);
// The crossing of diff's sign between a and b (diff(a) = fa and diff(b) = fb of different signs,
// > 0 one sign, <= 0 the other): regula falsi on the paired difference, each interpolated point
// followed by a probe `width` beyond it towards the root, so a nearly linear difference is
// bracketed to `width` in two evaluations; a step that does not halve the bracket is followed
// by a bisection. Stops when the bracket is at most `width` wide or after `max_evals` calls.
struct Bracket {
  double lo = 0, hi = 0;    // diff(lo) and diff(hi) of different signs
  double flo = 0, fhi = 0;  // diff(lo), diff(hi)
  int evaluations = 0;
  // The crossing's estimate: where the line through the bracket's ends crosses 0 (its midpoint
  // when they are equal), within the bracket.
  double root() const;
};
Bracket break_even_secant(const std::function<double(double)>& diff, double a, double b, double fa,
                          double fb, double width, int max_evals);
// For integer keys: the first integer after lo at which the sign differs from diff(lo)'s (so
// the last one on lo's side is the result - 1); nullopt when diff(lo) and diff(hi) agree.
std::optional<long> break_even_integer(const std::function<double(long)>& diff, long lo, long hi);

// Every strategy's Goodput at one value, and the paired differences winner minus each strategy.
struct SensitivityPoint {
  double value = 0;
  std::vector<Summary> goodput;  // per strategy, in the report's order
  std::vector<Summary> lead;     // per strategy: the base winner minus it, per seed (its own: 0)
  double winner_job_faults = 0;  // the winner's mean faults that hit the job, per run
  double wall_hours = 0;         // the winner's mean wall time, per run
  std::vector<std::vector<double>> per_seed;  // per strategy: each seed's Goodput
};

// Where the winner and runner-up swap: the winner leads on one side of `value`.
struct Crossing {
  double value = 0;                       // the root of the line through the last bracket's ends
  double resolution = 0;                  // half-width of the last bracket (0: integer key)
  double bracket_lo = 0, bracket_hi = 0;  // the last bracket (the winner leads on one side)
  bool ahead_below = false;               // the winner leads below `value` (else at and above it)
  double winner_goodput = -1;  // the winner's mean Goodput at the crossing (bracket ends' mean)
};

struct SensitivityResult {
  SensitivityParam param;
  SensitivityPoint lo, hi;
  double swing = 0;  // max - min of the winner's mean Goodput over lo, base, hi
  // Per strategy (the winner's own: empty), in ascending order. With the scenario's value inside
  // [lo, hi] (where the winner leads that rival by definition) each end where it does not lead
  // gives one crossing, searched between that end and the scenario's value, so a lead held only
  // in the middle of the range is found (two crossings). Otherwise one crossing when the ends
  // disagree. The rivals' searches share evaluations (one evaluation gives every strategy).
  std::vector<std::vector<Crossing>> crossings;
  int evaluations = 0;  // Monte Carlo runs of the scenario for this input (lo, hi, searches)
};

// A switch: every strategy at each alternative value (invalid values: the scenario's refusal).
struct SwitchResult {
  SwitchInput input;
  std::vector<SensitivityPoint> points;  // per input.values entry (empty goodput: invalid)
  std::vector<std::string> invalid;      // per input.values entry: why refused, or ""
};

// The robustness line (robustness.hpp): points of the plausible box sampled jointly.
struct Robustness {
  int points = 0;         // sampled points evaluated (refused ones excluded)
  int refused = 0;        // sampled points the scenario refused
  int seeds = 0;          // seeds per point (the first of the scenario's)
  int first_seeds = 0;    // > 0: each point ran these first (RobustnessSpec::first_seeds)
  int extended = 0;       // points that then ran all `seeds`: the first left the lead within its CI
  std::vector<int> wins;  // per strategy: points where it leads every other beyond CI
  int tied = 0;           // points where the leader and the second are within CI
  std::vector<std::string> inputs;       // the box's axes: numbers, then switches
  std::vector<double> rank_correlation;  // per input: Spearman rho with the winner's gap
  std::string deciding_input;            // the largest |rho| ("" when none)
  // Per input: the input whose sampled value it takes (itself, or an earlier switch that is the
  // same setting of another strategy: switch_coordinates).
  std::vector<std::size_t> moves_with;
};

struct SensitivityReport {
  std::string scenario_name, scenario_file;
  int seeds = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> strategies;
  std::size_t winner = 0, runner_up = 0;
  bool decided = false;  // the base lead is significant at 95%
  SensitivityPoint base;
  std::vector<SensitivityResult> params;  // sorted by swing, largest first
  std::vector<SwitchResult> switches;     // in the order given
  Robustness robustness;                  // points == 0 and refused == 0: not computed
  // Sequential ends (SensitivityRequest::first_seeds): every range end and switch value ran
  // `first_seeds` first, `extended` of the `evaluated` then every seed (first_seeds 0: off).
  struct EndSeeds {
    int first_seeds = 0;
    int evaluated = 0;
    int extended = 0;
  } ends;
  bool capped = false;               // the evaluation cap stopped a search early (coarser brackets)
  Json resolved;                     // the base scenario, defaults filled in
  std::vector<std::string> command;  // the command that reproduces it (empty: none)
};

// Runs the scenario's Monte Carlo (every strategy, all seeds) for a modified scenario. The
// simulating one is monte_carlo_evaluator (sim/run/monte_carlo.hpp), given by the caller: the
// report layer searches and prints, it does not simulate. A ScopedEvaluate is told which
// strategies an evaluation needs and whether the checkpoint pilot may be the base's
// (EvaluationScope): a root search against one rival runs the winner and that rival only, an
// input of one strategy (/strategies/NAME/...) runs that strategy only (the others' runs are the
// base's: they do not read it), and the pilot is the base's, kept or scaled, unless the input
// decides which faults roll the job back (pilot_rule). An
// Evaluate is taken as a ScopedEvaluate that runs every strategy every time.
using Evaluate = std::function<std::vector<StrategyRuns>(const Scenario&)>;

// Every range end must give a valid scenario and plan (make_plan: cost model, profile
// coverage, trace); throws InputError naming --param and the value. Costs a plan per end.
void check_param_ends(const Scenario& s, const std::vector<SensitivityParam>& params);

// Checks that every range end parses (scenario_at), then evaluates the base, both ends of each
// input and the bisection values; an InputError from an evaluation names --param and the value.
// `progress` (may be empty) is told each evaluation: the pointer ("base" first) and value.
SensitivityReport run_sensitivity(
    const Scenario& s, const std::vector<SensitivityParam>& params, const Evaluate& evaluate,
    const std::function<void(const std::string&, double)>& progress = {});
SensitivityReport run_sensitivity(
    const Scenario& s, const std::vector<SensitivityParam>& params, const ScopedEvaluate& evaluate,
    const std::function<void(const std::string&, double)>& progress = {});

// Everything `goodput run` and `goodput sensitivity` ask for: numeric inputs, switches, the
// robustness sample (robustness.hpp) and a cap on evaluations (0: none) after which each root
// search stops at its current bracket.
struct SensitivityRequest {
  std::vector<SensitivityParam> params;
  std::vector<SwitchInput> switches;
  int robustness_points = 0;       // 0: no robustness line
  int robustness_seeds = 0;        // seeds per point (0: the scenario's)
  int robustness_first_seeds = 0;  // RobustnessSpec::first_seeds (0: every point's seeds at once)
  int max_evaluations = 0;
  // Root searches stop once their bracket is narrower than the crossing's sampling precision
  // (the paired lead's 95% CI over its slope, at most a quarter of the range) instead of
  // range / 2^kBreakEvenIterations: the seeds cannot place the crossing more finely.
  bool sampling_precision = false;
  // Evaluations that move the failures or only how fast the job trains scale the base's
  // checkpoint pilot instead of simulating their own (pilot_rule, PilotEstimate): `goodput run`'s
  // analysis. Off, only prices keep the base's; every other evaluation simulates its pilot.
  bool scale_pilots = false;
  // Sequential ends (0: off; used when below the scenario's seeds): every range end and switch
  // value runs its first `first_seeds` seeds, and the rest only where, against some rival, the
  // paired lead's sign on those seeds is within its 95% CI or differs from the scenario's value's
  // (where a crossing is searched); an end a crossing search starts from then runs the rest too.
  // A point left at its first seeds reports every strategy on those seeds.
  int first_seeds = 0;
  // The winner to explain (the full run's, when the analysis runs fewer seeds); -1: the base's.
  int winner = -1;
  int runner_up = -1;  // likewise (ignored unless `winner` is given and it differs from it)
  // Optional: runs the evaluations known in advance (every range end, switch value and robustness
  // world, then the worlds' extensions) as batches, side by side; the report is the same with or
  // without it, only sooner on several threads (monte_carlo_evaluators).
  BatchEvaluate batch;
};
SensitivityReport run_sensitivity(
    const Scenario& s, const SensitivityRequest& request, const Evaluate& evaluate,
    const std::function<void(const std::string&, double)>& progress = {});
SensitivityReport run_sensitivity(
    const Scenario& s, const SensitivityRequest& request, const ScopedEvaluate& evaluate,
    const std::function<void(const std::string&, double)>& progress = {});
// Where an evaluation moving this input takes its checkpoint pilot from (EvaluationScope::Pilot):
// Keep for a price or a checkpoint cost (/recovery/*, /checkpoint/*); Scale for the failures
// (/failures/*) and inputs that only change how fast the job trains (the cost model's, /cost/*,
// /job/virtual_stages, a strategy's max_power); Simulate for everything else, a strategy's rules
// (they decide which faults roll it back), the job's shape and the cluster among them. And the
// index of the one strategy an input configures (/strategies/NAME/...; nullopt: it may touch all).
// `scale`: false turns Scale into Simulate (`goodput sensitivity`: every pilot measured).
EvaluationScope::Pilot pilot_rule(const std::string& pointer, bool scale = true);
std::optional<std::size_t> strategy_of_input(const Scenario& s, const std::string& pointer);
// "/strategies/NAME/REST" split into NAME and REST (REST may hold further '/'); nullopt for any
// other pointer, the whole entry "/strategies/NAME" included.
std::optional<std::pair<std::string, std::string>> split_strategy_input(const std::string& pointer);
// Strategy j's rules in `s`: its name and the settings that decide which faults roll it back
// (those pilot_rule simulates for), as EvaluationScope::own_pilot_rules names them.
std::string pilot_rules_of(const Scenario& s, std::size_t j);
// Fills scope.own_pilot_rules from the evaluated scenario `s`.
void name_own_pilots(const Scenario& s, EvaluationScope& scope);
// The strategies that read an input, when not every one may: the one strategy it configures, or
// for the NTP prices (/recovery/ntp_reshard_s, ntp_reconfig_s) those that run TP groups below
// the job's tp (StrategyInfo::tp_degrees). An evaluation moving it runs these; the others' runs
// are the base's. nullopt: every strategy may read it.
std::optional<std::vector<std::size_t>> readers_of_input(const Scenario& s,
                                                         const std::string& pointer);
// The mechanisms (bits of RunMetrics::prices_read) whose list price `pointer` sets when nothing
// but the price list reads it (not the plan's checkpoint interval, not the failures); 0: none.
std::uint32_t price_only_mechanisms(const Scenario& s, const std::string& pointer);
// readers_of_input, less the strategies whose `base` runs never read the price `pointer` sets
// (price_only_mechanisms): a run that never read a price is the same at any value of it, so
// their runs are the base's (the same seeds).
std::optional<std::vector<std::size_t>> readers_of_input(const Scenario& s,
                                                         const std::string& pointer,
                                                         const std::vector<StrategyRuns>& base);
// The most evaluations a request takes (its cap, or its worst case without one).
int most_evaluations(const SensitivityRequest& request, std::size_t strategies);

// The winner's margin over rival `i` as seconds of stall per fault: the paired Goodput gap
// times the wall time over the winner's job faults (gap x wall / faults); NaN without faults.
double stall_per_fault_s(const SensitivityPoint& p, std::size_t i);

// Sentences against rival `rival` (the runner-up when not given).
// "ntp stays ahead of dp_drop while /recovery/communicator_rebuild_s < ~225 s" (or "> x", or
// "x < PTR < y"), or over the whole range, or "... is ahead of ... at both ends".
std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& p);
std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& p,
                                std::size_t rival);
// "flipping /job/virtual_stages to 4 keeps ntp_boost ahead" / "... makes dp_drop the winner".
std::string switch_sentence(const SensitivityReport& r, const SwitchResult& sw);
// "ntp_boost wins in 71% of plausible worlds, dp_drop in 29%; the deciding input is X".
std::string robustness_sentence(const SensitivityReport& r);
// The leader of a point and whether the second is within the CI of the paired difference.
bool tied_at(const SensitivityPoint& p, std::size_t leader_index, std::size_t* second = nullptr);

// The strategy with the highest mean Goodput at a point (ties: the first), and the sentence
// naming a leader at an end other than the winner and runner-up ("at /x = 480 s dp_drop leads
// instead of ntp"), or "".
std::size_t leader(const SensitivityPoint& p);
std::string other_leader_sentence(const SensitivityReport& r, const SensitivityResult& p);

Json sensitivity_json(const SensitivityReport& r);
// report.json's "depends_on" and sensitivity.json's "verdict": inputs, every rival's margin and
// break-evens, switches and the robustness line.
Json verdict_dependencies_json(const SensitivityReport& r);
// The bullet lines of "What the verdict depends on": robustness, one per rival, one per switch.
std::vector<std::string> verdict_lines(const SensitivityReport& r);
std::string sensitivity_markdown(const SensitivityReport& r);
std::string sensitivity_terminal(const SensitivityReport& r);
std::string sensitivity_html(const SensitivityReport& r);  // tornado per rival (vega-lite)
void write_sensitivity_files(const SensitivityReport& r, const std::filesystem::path& dir);

}  // namespace goodput
