#include "sim/cli/sweep_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "models/scenario/scenario_loader.hpp"
#include "sim/cli/command_line.hpp"
#include "sim/cli/strategy_choice.hpp"
#include "sim/core/error.hpp"
#include "sim/core/progress_line.hpp"
#include "sim/core/suggest.hpp"
#include "sim/report/html_page.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/run/fault_reach.hpp"
#include "sim/run/work_budget.hpp"
#include "sim/sweep/goal_seek.hpp"
#include "sim/sweep/point_record.hpp"
#include "sim/sweep/seek_html.hpp"
#include "sim/sweep/seek_prefetch.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/sweep/sweep_text.hpp"

namespace goodput {

namespace {

// What a finished point keeps in memory until the sweep's files are written: its plan (the
// topology, at most kBytesPerGpu of work_budget.cpp per GPU) and every run's metrics. Rounded up
// from sizeof(RunMetrics) and a RunPlan.
constexpr double kBytesPerPointGpu = 256;
constexpr double kBytesPerPointRun = 1024;
constexpr double kBytesPerPoint = 16 * 1024;

// The budget covers the whole sweep: events add up over points (each point's plan and runs,
// work_budget.hpp); points run side by side; every finished point is kept until the end.
// Checked as the points load, so a sweep far over the budget stops at the point that tips it.
class SweepBudget {
 public:
  SweepBudget(const SweepArgs& a, std::size_t points, int threads)
      : a_(a),
        threads_(threads),
        side_by_side_(std::max(1, std::min(threads, static_cast<int>(points)))) {
    budget_.max_events = a.max_events;
    if (!a.max_memory.empty()) budget_.max_memory_bytes = parse_bytes(a.max_memory, "--max-memory");
  }
  void add(Scenario sc) {
    if (sc.seeds_auto) sc.seeds = std::max(sc.seeds, a_.seed.max_seeds);  // the most it may take
    const WorkEstimate w = estimate_work(sc, std::max(1, threads_ / side_by_side_));
    total_.events += w.events;
    total_.gpus = std::max(total_.gpus, w.gpus);
    total_.failures_per_run = std::max(total_.failures_per_run, w.failures_per_run);
    running_ = std::max(running_, w.memory_bytes * side_by_side_);
    kept_ += kBytesPerPoint + w.gpus * kBytesPerPointGpu +
             static_cast<double>(sc.seeds) * static_cast<double>(sc.strategies.size()) *
                 kBytesPerPointRun;
    total_.memory_bytes = running_ + kept_;
    if (!(total_.events <= budget_.max_events)) check();  // no need to load the rest
  }
  void check() const { check_work_budget(total_, budget_, a_.scenario); }

 private:
  const SweepArgs& a_;
  int threads_, side_by_side_;
  WorkBudget budget_;
  WorkEstimate total_;
  double running_ = 0, kept_ = 0;
};

// A goal seek evaluates both ends, then halves [min, max]: at most 2 + log2(max - min) points,
// each counted at the largest value's estimate.
void check_seek_budget(const SweepArgs& a, const Scenario& largest, int threads) {
  const double width = static_cast<double>(a.seek_max) - static_cast<double>(a.seek_min);
  const int points = 2 + (width > 1 ? static_cast<int>(std::ceil(std::log2(width))) : 0);
  SweepBudget b(a, 1, threads);
  for (int i = 0; i < points; ++i) b.add(largest);
  b.check();
}

// The sweep's size, counted from the --axis texts before any is expanded.
void check_sweep_size(const std::vector<std::string>& axes) {
  double points = 1;
  std::string product;
  for (const auto& t : axes) {
    const double n = count_axis_values(t);
    points *= n;
    product += (product.empty() ? "" : " x ") + std::to_string(static_cast<long long>(n));
  }
  if (points > kMaxSweepPoints) {
    char count[32];
    if (points < 1e15)
      std::snprintf(count, sizeof count, "%.0f", points);
    else
      std::snprintf(count, sizeof count, "%.3g", points);
    throw InputError("--axis", "",
                     std::string("this sweep has ") + count + " points (" + product +
                         " values), more than the " +
                         std::to_string(static_cast<long>(kMaxSweepPoints)) +
                         " one sweep may have; split it into several sweeps (e.g. one per value or "
                         "range of the first axis, each with its own --out)");
  }
}

// The rule for points whose scenario says auto (--seeds auto adds "/seeds=auto" to `overrides`).
SeedPolicy seed_policy(const SweepArgs& a, std::vector<std::string>& overrides) {
  return seed_rule(a.seed, overrides);
}

// --target METRIC>=X, or --target-goodput X (a synonym of --target goodput>=X).
SeekTarget seek_target(const SweepArgs& a) {
  if (!a.target.empty() && a.target_goodput >= 0)
    throw InputError("--target", a.target, "give --target or --target-goodput, not both");
  if (a.target_goodput >= 0) {
    SeekTarget t;
    t.metric = find_strategy_metric("goodput");
    t.value = a.target_goodput;
    return t;
  }
  if (a.target.empty())
    throw InputError("--target", "",
                     "--seek needs a target: --target METRIC>=X or METRIC<=X (e.g. goodput>=0.95)");
  return parse_seek_target(a.target, "--target");
}

int seek(const SweepArgs& a, const SeedPolicy& seeds, const std::vector<std::string>& overrides,
         int threads) {
  const SeekTarget target = seek_target(a);
  if (a.strategy.empty())
    throw InputError("--strategy", "", "--seek needs --strategy NAME: whose metric to seek");
  auto scenario_at = [&](long v) {
    auto o = overrides;
    o.push_back(a.seek + "=" + std::to_string(v));
    std::vector<std::string> flags(overrides.size(), "--set");
    flags.push_back("--seek");
    return load_scenario(a.scenario, o, flags);
  };
  if (a.seek_min > a.seek_max)
    throw InputError("--min", std::to_string(a.seek_min),
                     "is greater than --max " + std::to_string(a.seek_max));
  const Scenario first = scenario_at(a.seek_min);
  check_seed_flags(a.seed, first.seeds_auto || scenario_at(a.seek_max).seeds_auto);
  if (!first.strategy(a.strategy)) {
    std::vector<std::string> names;
    for (const auto& s : first.strategies) names.push_back(s.name);
    throw InputError("--strategy", a.strategy,
                     "not among the scenario's strategies" + did_you_mean(a.strategy, names));
  }
  // Both ends must be valid values; the maximum is the largest run.
  check_seek_budget(a, scenario_at(a.seek_max), threads);
  OutputDir out(a.out.empty() ? default_output(first.name, a.scenario, "-seek") : a.out,
                a.out.empty() ? "default output" : "--out");
  // Each evaluated value is streamed to a record (point_record.hpp), so a killed seek resumes
  // with --resume without evaluating a finished value again; dropped once the files are out.
  const std::filesystem::path records = out.records(a.resume);
  auto record_path = [&](long v) {
    return (records / ("value" + std::to_string(v) + ".json")).string();
  };
  std::mutex noting;
  std::set<long> from_records;  // values taken from a record (under `noting`)
  auto from_record = [&](long v, const Scenario& s) -> std::optional<SweepPoint> {
    if (!a.resume) return std::nullopt;
    RecordExpect expect;
    expect.scenario = &s;
    expect.index = v;
    expect.values = {std::to_string(v)};
    expect.max_seeds = record_max_seeds(s, seeds);
    const std::string path = record_path(v);
    RecordRead read = read_point_record(path, expect);
    if (!read.record) {
      std::lock_guard<std::mutex> lock(noting);
      if (read.problem && !a.quiet)
        std::cerr << "note: " << display_path(path) << ": "
                  << (read.problem->pointer.empty() ? "" : read.problem->pointer + ": ")
                  << read.problem->why << "; this value is evaluated again\n";
      return std::nullopt;
    }
    SweepPoint pt = point_from_record(s, std::move(*read.record));
    std::lock_guard<std::mutex> lock(noting);
    from_records.insert(v);
    return pt;
  };
  std::map<long, SweepPoint> evaluated;
  std::map<long, Summary> metric_at;
  Json steps = Json::array();
  bool single_seed = true;  // every point ran one seed: no CI, the mean decides
  const bool tty = progress_wanted(a.progress, a.quiet);
  auto summary_of = [&](const SweepPoint& pt) {
    const auto& st = pt.report.strategies;
    std::size_t i = 0;
    while (st[i].name != a.strategy) ++i;
    return target.metric->get(st[i]);
  };
  // Spread over workers (goodput-mpi): the values bisection may ask next are computed (or read
  // from their records) while it waits; it still asks, and records, exactly what the sequential
  // search does.
  std::mutex loading;
  std::unique_ptr<SeekPrefetch> prefetch;
  if (a.runner && a.workers > 1)
    prefetch = std::make_unique<SeekPrefetch>(
        a.seek_min, a.seek_max, a.workers,
        [&](long v, int worker) {
          std::unique_lock<std::mutex> lock(loading);
          const Scenario s = scenario_at(v);
          lock.unlock();
          if (auto pt = from_record(v, s)) return std::move(*pt);
          return a.runner(s, worker);
        },
        [&](const SweepPoint& pt) { return meets_target(summary_of(pt), target); });
  int computed = 0, resumed = 0;
  struct Stopped {};  // --stop-after (tests): as if killed after that many values
  std::optional<SeekResult> result;
  try {
    result = bisect_smallest(a.seek_min, a.seek_max, [&](long v) {
      SweepPoint pt;
      bool recorded = false;
      if (prefetch) {
        pt = prefetch->get(v);
        std::lock_guard<std::mutex> lock(noting);
        recorded = from_records.count(v) > 0;
      } else {
        const Scenario s = scenario_at(v);
        if (auto r = from_record(v, s)) {
          pt = std::move(*r);
          recorded = true;
        } else {
          if (a.stop_after >= 0 && computed >= a.stop_after) throw Stopped{};
          pt = a.runner ? a.runner(s, 0) : run_point(s, threads, seeds);
        }
      }
      pt.values = {std::to_string(v)};
      if (recorded) {
        ++resumed;
      } else {
        if (a.stop_after >= 0 && computed >= a.stop_after) throw Stopped{};
        write_point_record(pt, v, record_path(v));
        ++computed;
      }
      const Summary s = summary_of(pt);
      const double bound = ci_bound(s, target.comparison);
      const bool ok = meets_target(s, target);
      single_seed = single_seed && s.n < 2;
      steps.push_back({{"value", v},
                       {"mean", s.mean},
                       {"ci95", s.ci95},
                       {"bound", bound},
                       {"seeds", s.n},
                       {"meets", ok}});
      if (tty)
        std::cerr << "  " << a.seek << "=" << v << ": " << a.strategy << " " << target.metric->name
                  << " " << format_metric_value(*target.metric, s.mean) << " (bound "
                  << format_metric_value(*target.metric, bound) << ")"
                  << (ok ? " meets" : " misses") << " the target"
                  << (recorded ? " (from a record)" : "") << "\n";
      metric_at.emplace(v, s);
      evaluated.emplace(v, std::move(pt));
      return ok;
    });
  } catch (const Stopped&) {
    if (!a.quiet)
      std::cout << "goodput sweep --seek " << a.seek << ": " << computed
                << " values evaluated, unfinished: rerun with --resume\n";
    return 0;
  }
  const SeekResult& r = *result;
  Sweep sweep;
  sweep.scenario_file = a.scenario;
  sweep.command = a.command;
  sweep.axes = {SweepAxis{a.seek, {}}};
  for (auto& [v, pt] : evaluated) {
    sweep.axes[0].values.push_back(std::to_string(v));
    sweep.points.push_back(std::move(pt));
  }
  for (auto& pt : sweep.points) pt.report.plan = &pt.plan;
  Json warnings = monotonicity_warnings(target, a.seek, metric_at);
  if (r.only_min_meets)
    warnings.push_back(target.metric->name + " meets the target at " + a.seek + " = " +
                       std::to_string(a.seek_min) + " but not at " + std::to_string(a.seek_max) +
                       ": it moves away from the target as the value grows, the opposite of what "
                       "bisection assumes; values in between were not evaluated");
  sweep.seek = {
      {"pointer", a.seek},
      {"min", a.seek_min},
      {"max", a.seek_max},
      {"strategy", a.strategy},
      {"metric", target.metric->name},
      {"unit", target.metric->unit},
      {"comparison", comparison_text(target.comparison)},
      {"target", target.value},
      {"rule", single_seed ? "mean (one seed per point: no 95% CI)" : "95% CI bound"},
      {"bound", single_seed ? "mean" : bound_text(target.comparison)},
      {"answer", r.answer ? Json(*r.answer) : Json(nullptr)},
      {"assumption", monotone_assumption(target, a.seek) +
                         " (bisection: once a value meets the target, every larger one does)"},
      {"evaluated", steps},
      {"warnings", warnings}};
  sweep.seek["reason"] = r.answer ? Json(nullptr) : Json(seek_reason(sweep.seek));
  // Spares (or domains) met at the minimum with the maximum met too: say what the faults can
  // take out against the room the job leaves.
  if (r.answer && *r.answer == a.seek_min && a.seek_min != a.seek_max && !r.only_min_meets &&
      a.seek.rfind("/cluster/", 0) == 0)
    sweep.seek["already_met_reason"] = already_met_reason(sweep.points.front().plan);
  write_sweep_files(sweep, out.staging());
  out.publish();
  out.drop_records();  // only now: a crash while publishing keeps them for --resume
  if (!a.quiet) {
    for (const auto& w : warnings) std::cerr << "warning: " << w.get<std::string>() << "\n";
    std::cout << "goodput sweep --seek " << a.seek << ": " << seek_answer_text(sweep.seek, false)
              << "\n";
    if (a.resume)
      std::cout << "resumed: " << resumed << " values from records, " << computed
                << " evaluated now\n";
    std::cout << "report: " << display_path(out.target()) << "/report.md\n";
  }
  return 0;
}

}  // namespace

int command_sweep(const SweepArgs& a) {
  std::vector<std::string> overrides = a.sets;
  if (!a.strategies.empty())
    overrides.push_back(strategies_override(a.scenario, a.sets, a.strategies));
  const SeedPolicy seeds = seed_policy(a, overrides);
  const int threads = a.threads > 0
                          ? a.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (a.seek.empty() && (!a.target.empty() || a.target_goodput >= 0))
    throw InputError(a.target.empty() ? "--target-goodput" : "--target", a.target,
                     "goal seek only: give --seek PTR too");
  if (!a.seek.empty()) {
    if (!a.axes.empty())
      throw InputError("--seek", a.seek, "give either --seek or --axis, not both");
    return seek(a, seeds, overrides, threads);
  }
  if (a.axes.empty())
    throw InputError("--axis", "", "a sweep needs at least one --axis (or --seek)");
  Sweep sweep;
  sweep.scenario_file = a.scenario;
  sweep.command = a.command;
  check_sweep_size(a.axes);
  for (const auto& t : a.axes) sweep.axes.push_back(parse_axis(t));
  const auto combos = axis_product(sweep.axes);
  // Validate every point before running any, so a bad value fails fast with its pointer.
  std::vector<Scenario> scenarios;
  SweepBudget budget(a, combos.size(), threads);
  for (const auto& values : combos) {
    auto o = overrides;
    std::vector<std::string> flags(overrides.size(), "--set");
    for (std::size_t i = 0; i < sweep.axes.size(); ++i) {
      o.push_back(sweep.axes[i].pointer + "=" + values[i]);
      flags.emplace_back("--axis");
    }
    scenarios.push_back(load_scenario(a.scenario, o, flags));
    budget.add(scenarios.back());
  }
  budget.check();
  check_seed_flags(a.seed, std::any_of(scenarios.begin(), scenarios.end(),
                                       [](const Scenario& s) { return s.seeds_auto; }));
  const std::string out =
      a.out.empty() ? default_output(scenarios.front().name, a.scenario, "-sweep") : a.out;
  SweepOptions opt;
  opt.threads = threads;
  opt.resume = a.resume;
  if (a.out.empty()) opt.out_flag = "default output";
  opt.seeds = seeds;
  opt.runner = a.runner;
  opt.workers = a.workers;
  opt.stop_after = a.stop_after;
  if (!a.quiet) opt.note = [](const std::string& line) { std::cerr << "note: " << line << "\n"; };
  ProgressLine progress(progress_wanted(a.progress, a.quiet));
  progress.begin("points");
  if (progress.on())
    opt.progress = [&](int done, int total, double left) { progress.update(done, total, left); };
  const auto t0 = std::chrono::steady_clock::now();
  const SweepOutcome r = run_sweep(sweep, scenarios, combos, opt, out);
  progress.finish();
  if (!charts_available())
    std::cerr << "warning: report.html has no charts: " << charts_missing_reason() << "\n";
  if (!a.quiet)
    std::cout << "goodput sweep: "
              << count_text(static_cast<long>(combos.size()), "point", "points") << ", "
              << r.computed << " run now"
              << (r.resumed ? ", " + std::to_string(r.resumed) + " resumed" : std::string()) << " ("
              << elapsed_text(
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
              << ")\n"
              << (r.complete ? "\n" + sweep_terminal_table(sweep) +
                                   "\nreport: " + display_path(r.target) + "/report.md\n"
                             : std::string("unfinished: rerun with --resume\n"));
  return 0;
}

}  // namespace goodput
