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
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/core/stats.hpp"
#include "sim/run/run_metrics.hpp"

namespace goodput {

inline constexpr int kSensitivitySchemaVersion = 1;
inline constexpr int kBreakEvenIterations = 12;  // bisection halvings: range / 4096

// One input to move. `pointer` names a number in the scenario (JSON pointer).
struct SensitivityParam {
  std::string pointer;
  double lo = 0, base = 0, hi = 0;
  bool integer = false;  // an integer key: values and the break-even are whole numbers
  std::string unit;      // "s", "h" or "" (from the declaration or the key's suffix)
  std::string range;     // how lo/hi were chosen ("given", "0.25x..4x", ...)
};

// The default range rule: prices (/recovery/*, /checkpoint/*_s, repair hours) 0.25x..4x of the
// resolved value, or 0..60 s (0..1 h) when it is 0; /failures/rate_scale 0.5x..2x. Clamped to
// the declared bounds; rounded outwards for integer keys.
SensitivityParam param_with_default_range(const Scenario& s, const std::string& pointer);
// "PTR" (default range) or "PTR=LO:HI". Throws InputError naming --param.
SensitivityParam parse_param(const Scenario& s, const std::string& spec);
// With no --param: every /recovery price the resolved scenario holds (state_copy_s and
// ntp_reshard_s only when the scenario sets them), /checkpoint/load_s, /checkpoint/save_s,
// /failures/rate_scale, and the repair hours of explicit classes with a fixed or lognormal
// repair (a preset's repair mixtures have no single key).
std::vector<SensitivityParam> default_params(const Scenario& s);

// The scenario with `param` set to `value` (--set's apply_override on s.input, then parsed).
Scenario scenario_at(const Scenario& s, const SensitivityParam& param, double value);

// The x in [lo, hi] where diff changes sign, by `iters` bisection halvings of the bracket (the
// midpoint of the last bracket). NaN when diff(lo) and diff(hi) have the same sign (> 0 counts
// as one sign, <= 0 as the other).
double break_even(std::function<double(double)> diff, double lo, double hi, int iters);
// For integer keys: the first integer after lo at which the sign differs from diff(lo)'s (so
// the last one on lo's side is the result - 1); nullopt when diff(lo) and diff(hi) agree.
std::optional<long> break_even_integer(const std::function<double(long)>& diff, long lo, long hi);

// Every strategy's Goodput at one value, and the paired winner - runner-up difference.
struct SensitivityPoint {
  double value = 0;
  std::vector<Summary> goodput;  // per strategy, in the report's order
  Summary lead;                  // winner minus runner-up, per seed
};

// Where the winner and runner-up swap: the winner leads on one side of `value`.
struct Crossing {
  double value = 0;
  double resolution = 0;     // half-width of the last bisection bracket (0: integer key)
  bool ahead_below = false;  // the winner leads below `value` (else at and above it)
};

struct SensitivityResult {
  SensitivityParam param;
  SensitivityPoint lo, hi;
  double swing = 0;  // max - min of the winner's mean Goodput over lo, base, hi
  // In ascending order. With the scenario's value inside [lo, hi] (where the winner leads by
  // definition) each end where it does not lead gives one crossing, searched between that end
  // and the scenario's value, so a lead held only in the middle of the range is found (two
  // crossings). Otherwise one crossing when the ends disagree.
  std::vector<Crossing> crossings;
  int evaluations = 0;  // Monte Carlo runs of the scenario for this input (lo, hi, bisection)
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
  Json resolved;                          // the base scenario, defaults filled in
  std::vector<std::string> command;       // the command that reproduces it (empty: none)
};

// Runs the scenario's Monte Carlo (every strategy, all seeds) for a modified scenario.
using Evaluate = std::function<std::vector<StrategyRuns>(const Scenario&)>;
Evaluate monte_carlo_evaluator(int threads);

// Every range end must give a valid scenario and plan (make_plan: cost model, profile
// coverage, trace); throws InputError naming --param and the value. Costs a plan per end.
void check_param_ends(const Scenario& s, const std::vector<SensitivityParam>& params);

// Checks that every range end parses (scenario_at), then evaluates the base, both ends of each
// input and the bisection values; an InputError from an evaluation names --param and the value.
// `progress` (may be empty) is told each evaluation: the pointer ("base" first) and value.
SensitivityReport run_sensitivity(
    const Scenario& s, const std::vector<SensitivityParam>& params, const Evaluate& evaluate,
    const std::function<void(const std::string&, double)>& progress = {});

// "ntp stays ahead of dp_drop while /recovery/communicator_rebuild_s < ~225 s" (or "> x", or
// "x < PTR < y"), or over the whole range, or "... is ahead of ... at both ends".
std::string break_even_sentence(const SensitivityReport& r, const SensitivityResult& p);

// The strategy with the highest mean Goodput at a point (ties: the first), and the sentence
// naming a leader at an end other than the winner and runner-up ("at /x = 480 s dp_drop leads
// instead of ntp"), or "".
std::size_t leader(const SensitivityPoint& p);
std::string other_leader_sentence(const SensitivityReport& r, const SensitivityResult& p);

Json sensitivity_json(const SensitivityReport& r);
std::string sensitivity_markdown(const SensitivityReport& r);
std::string sensitivity_terminal(const SensitivityReport& r);
void write_sensitivity_files(const SensitivityReport& r, const std::filesystem::path& dir);

}  // namespace goodput
