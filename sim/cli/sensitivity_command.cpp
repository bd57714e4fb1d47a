#include "sim/cli/sensitivity_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "models/scenario/scenario_loader.hpp"
#include "sim/cli/command_line.hpp"
#include "sim/cli/strategy_choice.hpp"
#include "sim/core/error.hpp"
#include "sim/core/progress_line.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/plausible.hpp"
#include "sim/report/sensitivity.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/seed_rule.hpp"
#include "sim/run/work_budget.hpp"

namespace goodput {

namespace {

// The budget covers the request's cap (most_evaluations), each evaluation at the costlier range
// end's estimate. Runs go one after another.
void check_budget(const SensitivityArgs& a, const Scenario& s, const SensitivityRequest& req,
                  int threads) {
  WorkBudget budget;
  budget.max_events = a.max_events;
  if (!a.max_memory.empty()) budget.max_memory_bytes = parse_bytes(a.max_memory, "--max-memory");
  WorkEstimate total = estimate_work(s, threads);
  double per_run = total.events;
  for (const auto& p : req.params) {
    const WorkEstimate lo = estimate_work(scenario_at(s, p, p.lo), threads);
    const WorkEstimate hi = estimate_work(scenario_at(s, p, p.hi), threads);
    per_run = std::max({per_run, lo.events, hi.events});
    total.memory_bytes = std::max({total.memory_bytes, lo.memory_bytes, hi.memory_bytes});
    total.failures_per_run =
        std::max({total.failures_per_run, lo.failures_per_run, hi.failures_per_run});
  }
  total.events = per_run * most_evaluations(req, s.strategies.size());
  check_work_budget(total, budget, a.scenario);
}

}  // namespace

CLI::App* add_sensitivity(CLI::App& app, SensitivityArgs& a) {
  auto* cmd = app.add_subcommand("sensitivity",
                                 "move each uncertain input over a range (same failures) and "
                                 "report what the verdict depends on: "
                                 "a tornado table of each strategy's Goodput and the break-even "
                                 "value at which the top two swap");
  affects_results(cmd->add_option("scenario", a.scenario, "scenario JSON"))->required();
  takes_pointer(
      affects_results(cmd->add_option(
          "--param", a.params,
          "input to move: /json/pointer of a number, or /json/pointer=LO:HI (repeatable). Default: "
          "every input of the plausible table that applies (`goodput describe plausible`), its "
          "model switches included. PTR alone: 0.25x..4x of the scenario's value (0..60 s, 0..1 "
          "h when it is 0); 0.5x..2x for /failures/rate_scale; clamped to the declared range")),
      "")
      ->allow_extra_args(false);  // one value per flag: never the scenario after it
  cmd->add_option("--out", a.out,
                  "report folder: new, empty or an earlier goodput report (default: "
                  "goodput-out/<scenario name>-sensitivity)");
  affects_results(
      cmd->add_option("--seeds", a.seeds,
                      "Monte Carlo runs per value (overrides /seeds; where /seeds is auto: " +
                          std::to_string(kAutoSeedBatch) + ", the seed rule's first batch)"))
      ->check(goodput::positive_number());
  affects_results(
      cmd->add_option("--strategies", a.strategies, "comma-separated strategies to compare"));
  takes_pointer(affects_results(cmd->add_option("--set", a.sets,
                                                "override: /json/pointer=value (repeatable), "
                                                "applied before --param")))
      ->allow_extra_args(false);
  cmd->add_option("--threads", a.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--max-events", a.max_events,
                  "work budget: refuse if all runs together are estimated above this many events "
                  "(default 2e9)")
      ->check(goodput::positive_number());
  cmd->add_option("--max-memory", a.max_memory,
                  "work budget: refuse if one run is estimated to need more (default 8G)");
  affects_results(cmd->add_option("--robustness-points", a.robustness_points,
                                  "points of the plausible box sampled for the robustness line "
                                  "(0: none; default 32)"))
      ->check(CLI::Range(0, 100000));
  affects_results(cmd->add_option("--robustness-seeds", a.robustness_seeds,
                                  "seeds per robustness point, the first of the scenario's "
                                  "(default: max(2, seeds / 4))"))
      ->check(CLI::Range(0, 1000000));
  cmd->add_flag("--quiet", a.quiet, "print nothing on success");
  cmd->add_flag("--progress", a.progress,
                "progress and time left on stderr even when it is not a terminal (on a terminal "
                "it is shown anyway, unless --quiet)");
  return cmd;
}

int command_sensitivity(const SensitivityArgs& a) {
  std::vector<std::string> overrides = a.sets;
  if (a.seeds > 0) overrides.push_back("/seeds=" + std::to_string(a.seeds));
  if (!a.strategies.empty())
    overrides.push_back(strategies_override(a.scenario, a.sets, a.strategies));
  Scenario scenario = load_scenario(a.scenario, overrides);
  if (scenario.seeds_auto) {
    // Every value runs the same seeds (common random numbers), so no count is chosen per value:
    // the seed rule's first batch, as the scenario's count (its input too, so every value's
    // scenario runs it), said in the report's seed count and here.
    set_seeds(scenario, kAutoSeedBatch);
    if (!a.quiet)
      std::cerr << "note: " << a.scenario << ": /seeds is \"auto\": sensitivity runs "
                << kAutoSeedBatch
                << " seeds per value (the seed rule's first batch); --seeds N sets another count\n";
  }
  SensitivityRequest req;
  for (const auto& spec : a.params) req.params.push_back(parse_param(scenario, spec));
  if (a.params.empty()) {
    PlausibleInputs in = plausible_inputs(scenario);
    req.params = std::move(in.numbers);
    req.switches = std::move(in.switches);
  }
  if (req.params.empty() && req.switches.empty())
    throw InputError("--param", "", "no input to move: give --param /json/pointer[=LO:HI]");
  req.robustness_points = a.robustness_points;
  req.robustness_seeds = a.robustness_seeds > 0
                             ? std::min(a.robustness_seeds, scenario.seeds)
                             : std::min(scenario.seeds, std::max(2, scenario.seeds / 4));
  int switch_values = 0;
  for (const auto& sw : req.switches) switch_values += static_cast<int>(sw.values.size());
  req.max_evaluations =
      1 + 2 * static_cast<int>(req.params.size()) + switch_values + req.robustness_points +
      4 * kBreakEvenIterations * std::max(1, static_cast<int>(scenario.strategies.size()) - 1);
  const auto& params = req.params;
  const int threads = a.threads > 0
                          ? a.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Both before claiming the folder (a bad range or a refused budget leaves nothing); the budget
  // first: it estimates each end without building its plan, which check_param_ends does.
  check_budget(a, scenario, req, threads);
  check_param_ends(scenario, params);
  OutputDir out(a.out.empty() ? default_output(scenario.name, a.scenario, "-sensitivity") : a.out,
                a.out.empty() ? "default output" : "--out");
  // Root searches may stop early: the count shown is the most it can take.
  const int most = most_evaluations(req, scenario.strategies.size());
  ProgressLine progress(progress_wanted(a.progress, a.quiet));
  progress.begin("runs of the scenario", true);
  int evaluations = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const MonteCarloEvaluators evaluators = monte_carlo_evaluators(threads);
  req.batch = evaluators.many;
  SensitivityReport report =
      run_sensitivity(scenario, req, evaluators.one,
                      [&](const std::string&, double) { progress.update(++evaluations, most); });
  progress.finish();
  report.command = a.command;
  write_sensitivity_files(report, out.staging());
  out.publish();
  if (!a.quiet) {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "goodput sensitivity — " << scenario.name << ": " << params.size() << " inputs, "
              << count_text(evaluations, "evaluation", "evaluations") << " of "
              << count_text(scenario.seeds, "seed", "seeds") << " each (" << elapsed_text(secs)
              << ")\n\n"
              << sensitivity_terminal(report) << "\nreport: " << display_path(out.target())
              << "/sensitivity.md\n";
  }
  return 0;
}

}  // namespace goodput
