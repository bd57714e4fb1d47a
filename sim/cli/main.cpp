// The goodput command line: the composition root. Library code throws; here errors become
// exit codes (0 ok, 2 bad input, 1 anything else) and messages on stderr.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <thread>

#include "models/scenario/scenario_loader.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/cli/command_line.hpp"
#include "sim/cli/completion.hpp"
#include "sim/cli/describe.hpp"
#include "sim/cli/diff_command.hpp"
#include "sim/cli/examples.hpp"
#include "sim/cli/explain_step.hpp"
#include "sim/cli/import_command.hpp"
#include "sim/cli/seed_flags.hpp"
#include "sim/cli/sensitivity_command.hpp"
#include "sim/cli/strategy_choice.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/cli/sweep_flags.hpp"
#include "sim/cli/validate_command.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/progress_line.hpp"
#include "sim/core/suggest.hpp"
#include "sim/report/depends_on.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report.hpp"
#include "sim/report/timeline.hpp"
#include "sim/report/units_text.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/work_budget.hpp"

namespace {

using namespace goodput;

// The working folder's, then an installed goodput's (data_dir.hpp), then the source tree's.
std::string default_scenario() {
  const auto installed = installed_data_dir();
  for (const std::string& p :
       {std::string("scenarios/default.json"),
        installed.empty() ? std::string() : (installed / "scenarios/default.json").string(),
        std::string(GOODPUT_SOURCE_DIR "/scenarios/default.json")})
    if (!p.empty() && std::filesystem::exists(p)) return p;
  throw InputError("scenarios/default.json", "",
                   "the shipped default scenario was not found; give a scenario file");
}

struct RunArgs {
  std::string scenario, out, strategies, baseline;
  SeedFlags seed;  // --seeds N|auto and the auto rule's flags
  int threads = 0;
  std::vector<std::string> sets;
  bool quiet = false, progress = false;
  std::vector<std::string> command;  // canonical, recorded in the outputs (command_line.hpp)
  double max_events = WorkBudget{}.max_events;
  std::string max_memory;
  bool no_break_even = false;
};

Scenario with_seeds(const Scenario& s, int seeds) {
  Scenario out = s;
  set_seeds(out, seeds);
  return out;
}

// --seeds auto: the most seeds (up to `cap`) whose run fits the work budget, so a cap the budget
// cannot afford lowers the cap instead of refusing the run; at least one seed must fit (else the
// caller's check_work_budget gives the budget's own error, naming the file).
int seeds_within_budget(const Scenario& s, int threads, const WorkBudget& budget, int cap) {
  auto fits = [&](int n) {
    return within_work_budget(estimate_work(with_seeds(s, n), threads), budget);
  };
  if (fits(cap)) return cap;
  int lo = 1, hi = cap;  // fits(lo) unless even one seed does not; !fits(hi)
  if (!fits(lo)) return lo;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

int command_run(const RunArgs& a) {
  const std::string path = a.scenario.empty() ? default_scenario() : a.scenario;
  std::vector<std::string> overrides = a.sets;
  const SeedRule auto_rule = seed_rule(a.seed, overrides);  // --seeds N|auto: an override
  if (!a.strategies.empty()) overrides.push_back(strategies_override(path, a.sets, a.strategies));
  if (!a.baseline.empty()) overrides.push_back("/report/baseline=" + a.baseline);
  const Scenario loaded = load_scenario(path, overrides);
  const int threads = a.threads > 0
                          ? a.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  WorkBudget budget;
  budget.max_events = a.max_events;
  if (!a.max_memory.empty()) budget.max_memory_bytes = parse_bytes(a.max_memory, "--max-memory");
  check_seed_flags(a.seed, loaded.seeds_auto);
  std::optional<SeedRule> rule;  // "seeds": "auto" (or --seeds auto): the rule chooses the count
  if (loaded.seeds_auto) rule = auto_rule;
  if (rule) rule->max_seeds = seeds_within_budget(loaded, threads, budget, rule->max_seeds);
  check_work_budget(estimate_work(rule ? with_seeds(loaded, rule->max_seeds) : loaded, threads),
                    budget, path);
  RunPlan plan = make_plan(loaded, threads);
  // Claimed before the simulation, so a path goodput may not write fails at once.
  OutputDir out(a.out.empty() ? default_output(loaded.name, path) : a.out,
                a.out.empty() ? "default output" : "--out");
  ProgressLine progress(progress_wanted(a.progress, a.quiet));
  progress.begin("runs");
  const auto t0 = std::chrono::steady_clock::now();
  RecordedTimeline timeline;  // run 0's, recorded while the Monte Carlo simulates it
  TimelineRecording recording(plan);
  RunWatch watch{0, [&] { return recording.observers(); },
                 [&](const FaultList& faults) { timeline = recording.finish(0, faults); }};
  const RunWatch* watching = plan.scenario.mode == RunMode::Snapshot ? nullptr : &watch;
  auto run_seeds = [&](int have, int n) {
    set_seeds(plan.scenario, n);
    return run_monte_carlo(
        plan, threads, [&](int done, int total) { progress.update(done, total); }, have, watching);
  };
  SeedsChosen chosen;
  // A deterministic trace replay: every seed is the same run, so --seeds auto stops at one.
  const bool one_run = rule && plan.deterministic_replay();
  if (one_run)
    chosen = {true,
              *rule,
              1,
              1,
              true,
              "the trace replay is deterministic (/failures/trace/seeds_vary): every seed is the "
              "same run, so one is all there is"};
  auto runs = one_run ? run_seeds(0, 1)
              : rule  ? run_until_settled(run_seeds, *rule, &chosen)
                      : run_seeds(0, loaded.seeds);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The scenario as run: with --seeds auto, the seeds it settled on.
  const Scenario& scenario = plan.scenario;
  const WorkEstimate work = estimate_work(scenario, threads);
  Report report = build_report(plan, std::move(runs));
  report.command = a.command;
  report.timeline = std::move(timeline);
  report.seeds_chosen = std::move(chosen);
  const DependsOnPlan depends_on = plan_depends_on(report, scenario, work, budget, a.no_break_even);
  const auto t1 = std::chrono::steady_clock::now();
  // Root searches may stop early: the count shown is the most it can take.
  if (depends_on.max_runs > 0)
    progress.begin("what the verdict depends on: runs of the scenario", true);
  const MonteCarloEvaluators evaluators =
      monte_carlo_evaluators(threads, plan.pilot, plan.job_faults_per_hour);
  add_depends_on(
      report, scenario, depends_on, evaluators.one,
      [&](int done, int total) { progress.update(done, total); }, evaluators.many);
  progress.finish();
  const double analysis_secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  write_report_files(report, out.staging());
  out.publish();
  // The command's time from its first run to its files written, and the two parts.
  const double total_secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!charts_available())
    std::cerr << "warning: report.html has no charts: " << charts_missing_reason() << "\n";
  if (!a.quiet) {
    std::cout << "goodput " << kToolVersion << " — " << scenario.name << ": "
              << with_separators(static_cast<double>(plan.topology->gpus()), 0) << " GPUs, "
              << with_separators(
                     scenario.horizon_hours,
                     scenario.horizon_hours == std::round(scenario.horizon_hours) ? 0 : 2)
              << " h, " << count_text(scenario.seeds, "seed", "seeds")
              << (report.seeds_chosen.automatic
                      ? report.seeds_chosen.settled ? ", auto: settled" : ", auto: at the cap"
                      : "")
              << " (" << elapsed_text(total_secs)
              << (depends_on.max_runs > 0
                      ? ": " + elapsed_text(secs) + " for the runs, " +
                            elapsed_text(analysis_secs) + " for what the verdict depends on"
                      : "")
              << ")\n\n"
              << terminal_table(report) << "\nreport: " << display_path(out.target())
              << "/report.md\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"goodput: how much useful LLM training survives GPU failures, by recovery strategy"};
  app.name("goodput");  // also in the help of a bare `goodput`, parsed or not
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", std::string("goodput ") + goodput::kToolVersion);

  RunArgs run_args;
  auto* run =
      app.add_subcommand("run", "simulate a scenario under each strategy and write a report");
  affects_results(run->add_option("scenario", run_args.scenario,
                                  "scenario JSON (default: scenarios/default.json)"));
  run->add_option("--out", run_args.out,
                  "report folder: new, empty or an earlier goodput report (default: "
                  "goodput-out/<scenario name>)");
  goodput::add_seed_flags(*run, run_args.seed, "");
  affects_results(run->add_option("--strategies", run_args.strategies,
                                  "comma-separated strategies to compare"));
  affects_results(run->add_option("--baseline", run_args.baseline,
                                  "compare every strategy with this one, paired (overrides "
                                  "/report/baseline; default: checkpoint_restart when compared)"));
  takes_pointer(affects_results(run->add_option("--set", run_args.sets,
                                                "override: /json/pointer=value (repeatable)")))
      ->allow_extra_args(false);  // one value per --set: never the scenario after it
  run->add_option("--threads", run_args.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, kMaxThreads));
  run->add_option("--max-events", run_args.max_events,
                  "work budget: refuse scenarios estimated above this many events (default 2e9)")
      ->check(goodput::positive_number());
  run->add_option("--max-memory", run_args.max_memory,
                  "work budget: refuse scenarios estimated to need more memory (default 8G)");
  run->add_flag("--quiet", run_args.quiet, "print nothing on success");
  run->add_flag("--progress", run_args.progress,
                "progress and time left on stderr even when it is not a terminal (on a terminal "
                "it is shown anyway, unless --quiet)");
  affects_results(run->add_flag(
      "--no-break-even", run_args.no_break_even,
      "skip what the verdict depends on (break-evens of the plausible inputs against every "
      "rival, model switches and the robustness line: capped at about 2 runs of the scenario "
      "per input plus 16 robustness points)"));

  SweepArgs sw;
  auto* sweep = app.add_subcommand(
      "sweep", "run a scenario over the cross product of axis values, or goal-seek one");
  goodput::add_sweep_flags(*sweep, sw, goodput::SweepFlagSet::Local);
  sweep
      ->add_option("--stop-after", sw.stop_after,
                   "testing: compute this many points (seek: values), then stop unfinished")
      ->group("");  // hidden, as goodput-mpi's

  std::vector<std::string> validate_files;
  auto* validate = app.add_subcommand(
      "validate",
      "check scenario files without running them, and print what each resolves to: GPUs, "
      "domains, job size, faults per hour, the spare pool, warnings");
  validate->add_option("files", validate_files, "scenario files")->required();

  std::string topic;
  auto* desc = app.add_subcommand("describe",
                                  "print the accepted scenario keys, strategies, failure models, "
                                  "metrics, the calibration profile format and the GPU catalogue");
  goodput::one_of(desc->add_option("topic", topic, "one topic (all when absent)"),
                  goodput::describe_topics());
  bool describe_json = false;
  desc->add_flag("--json", describe_json,
                 "with the topic schema: the scenario file's JSON Schema (draft 2020-12), for "
                 "editors and validators, instead of the Markdown tables");

  goodput::ExplainArgs explain_args;
  auto* explain = goodput::add_explain_step(app, explain_args);

  goodput::SensitivityArgs sens_args;
  auto* sens = goodput::add_sensitivity(app, sens_args);

  goodput::ImportArgs import_args;
  auto* import = goodput::add_import(app, import_args);

  goodput::DiffArgs diff_args;
  auto* diff = goodput::add_diff(app, diff_args);

  std::string shell;
  auto* completion = app.add_subcommand(
      "completion", "print a shell completion script, generated from these commands and flags");
  goodput::one_of(completion->add_option("shell", shell, "bash, zsh or fish")->required(),
                  goodput::completion_shells());

  goodput::add_examples(app);

  // No command: the help (the commands and what each does) is what a bare `goodput` asks for.
  if (argc < 2) {
    std::cout << app.help();
    return 0;
  }
  // A mistyped command: say which one was meant instead of CLI11's "A subcommand is required".
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    commands.push_back(sub->get_name());
  if (argv[1][0] != '-' && std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    std::string list;
    for (const auto& c : commands) list += (list.empty() ? "" : ", ") + c;
    std::cerr << "error: unknown command '" << argv[1] << "'"
              << goodput::did_you_mean(argv[1], commands) << " (commands: " << list
              << "; goodput --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // An unknown flag: name it and the closest known one ("--seed": did you mean "--seeds"?),
    // rather than CLI11's "arguments were not expected" or a requirement it then misses.
    const std::string message = goodput::unknown_flag_message(app, "goodput");
    if (message.empty())
      app.exit(e);
    else
      std::cerr << "error: " << message << "\n";
    return 2;
  }
  if (*run) run_args.command = goodput::canonical_command(*run);
  if (*sweep) sw.command = goodput::canonical_command(*sweep);
  if (*sens) sens_args.command = goodput::canonical_command(*sens);
  // The commands that write files leave nothing behind on Ctrl-C, kill or a closed terminal
  // (before any worker thread starts: they inherit the blocked signals).
  if (*run || *sweep || *sens || *import) goodput::watch_interrupts();
  try {
    if (*run) return command_run(run_args);
    if (*validate) return goodput::command_validate(validate_files);
    if (*sweep) return command_sweep(sw);
    if (*explain) return goodput::command_explain_step(explain_args);
    if (*sens) return goodput::command_sensitivity(sens_args);
    if (*import) return goodput::command_import(import_args);
    if (*diff) return goodput::command_diff(diff_args);
    if (*desc) {
      if (describe_json && topic != "schema") {
        std::cerr << "error: --json goes with the topic schema (goodput describe schema --json)\n";
        return 2;
      }
      std::cout << (describe_json ? goodput::scenario_json_schema_text()
                                  : goodput::describe(topic));
      return 0;
    }
    if (*completion) {
      std::cout << goodput::completion_script(app, "goodput", shell, goodput::scenario_pointers());
      return 0;
    }
  } catch (const std::exception&) {
    return goodput::exit_code_for_current_exception("goodput");
  }
  return 1;
}
