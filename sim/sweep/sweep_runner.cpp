#include "sim/sweep/sweep_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/core/parallel_for.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/seed_rule.hpp"
#include "sim/run/work_budget.hpp"
#include "sim/sweep/point_record.hpp"

namespace goodput {

namespace {

namespace fs = std::filesystem;

// A record not trusted, for people: which file, its first bad field, and what happens now.
std::string record_note(const std::string& path, const JsonProblem& problem) {
  return display_path(path) + ": " + (problem.pointer.empty() ? "" : problem.pointer + ": ") +
         problem.why + "; this point runs again";
}

std::string record_path(const fs::path& records, std::size_t p) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%03zu.json", p);
  return (records / name).string();
}

}  // namespace

SweepPoint run_point(const Scenario& scenario, int threads, const SeedPolicy& seeds) {
  SweepPoint pt;
  pt.plan = make_plan(scenario);
  const bool automatic = scenario.seeds_auto;
  if (!automatic || pt.plan.deterministic_replay()) {  // auto: a deterministic replay is one run
    if (automatic) set_seeds(pt.plan.scenario, 1);
    pt.report = build_report(pt.plan, run_monte_carlo(pt.plan, threads));
    return pt;
  }
  // "seeds": "auto": batches until the point's verdict and precision are settled (seed_rule.hpp).
  auto runs = run_until_settled(
      [&](int have, int n) {
        set_seeds(pt.plan.scenario, n);
        return run_monte_carlo(pt.plan, threads, {}, have);  // only the new seeds
      },
      seeds.value_or(SeedRule{}), nullptr);
  pt.report = build_report(pt.plan, std::move(runs));
  return pt;
}

SweepOutcome run_sweep(Sweep& sweep, const std::vector<Scenario>& scenarios,
                       const std::vector<std::vector<std::string>>& values, const SweepOptions& opt,
                       const std::string& directory) {
  OutputDir out(directory, opt.out_flag);
  const fs::path staging = out.records(opt.resume);
  const std::size_t total = scenarios.size();
  std::vector<SweepPoint> points(total);
  std::vector<bool> have(total, false);
  SweepOutcome outcome;
  outcome.target = out.target();
  if (opt.resume)
    for (std::size_t p = 0; p < total; ++p) {
      const std::string path = record_path(staging, p);
      RecordExpect expect;
      expect.scenario = &scenarios[p];
      expect.index = static_cast<long>(p);
      expect.values = values[p];
      expect.max_seeds = record_max_seeds(scenarios[p], opt.seeds);
      RecordRead read = read_point_record(path, expect);
      if (read.problem && opt.note) opt.note(record_note(path, *read.problem));
      if (!read.record) continue;
      points[p] = point_from_record(scenarios[p], std::move(*read.record));
      points[p].values = values[p];
      have[p] = true;
      ++outcome.resumed;
    }
  std::vector<std::size_t> todo;
  for (std::size_t p = 0; p < total; ++p)
    if (!have[p]) todo.push_back(p);
  // Largest expected work first (events, then GPUs), so the last points to finish are small ones
  // and no worker is left computing a big point while the others idle. Each point lands in its
  // own slot: the order changes nothing written.
  {
    std::vector<std::pair<double, double>> work(total);
    for (std::size_t p : todo) {
      const WorkEstimate w = estimate_work(scenarios[p], 1);
      work[p] = {w.events, w.gpus};
    }
    std::stable_sort(todo.begin(), todo.end(),
                     [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  }
  if (opt.stop_after >= 0 && todo.size() > static_cast<std::size_t>(opt.stop_after))
    todo.resize(static_cast<std::size_t>(opt.stop_after));

  const int threads = std::max(1, opt.threads);
  const int workers =
      std::max(1, std::min(opt.runner ? opt.workers : threads, static_cast<int>(todo.size())));
  const int inner = std::max(1, threads / workers);  // Monte Carlo threads per point
  const auto t0 = std::chrono::steady_clock::now();
  int done = outcome.resumed;
  // Worker w runs its points (the MPI runner sends each worker's to its rank); each point lands
  // in its own slot, so the result does not depend on which worker ran it.
  parallel_for(
      static_cast<int>(todo.size()), workers,
      [&](int i, int w) {
        const std::size_t p = todo[static_cast<std::size_t>(i)];
        SweepPoint pt =
            opt.runner ? opt.runner(scenarios[p], w) : run_point(scenarios[p], inner, opt.seeds);
        pt.values = values[p];
        pt.report.plan = &pt.plan;
        write_point_record(pt, static_cast<long>(p), record_path(staging, p));
        points[p] = std::move(pt);
      },
      [&](int) {  // under parallel_for's lock
        const int d = ++done;
        if (!opt.progress) return;
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const int ran = d - outcome.resumed;
        const int remaining = static_cast<int>(todo.size()) + outcome.resumed - d;
        opt.progress(d, static_cast<int>(total), secs / ran * remaining);
      });
  outcome.computed = static_cast<int>(todo.size());
  outcome.complete = outcome.resumed + outcome.computed == static_cast<int>(total);
  if (!outcome.complete) return outcome;
  sweep.points = std::move(points);
  for (auto& pt : sweep.points) pt.report.plan = &pt.plan;
  write_sweep_files(sweep, out.staging());
  out.publish();
  out.drop_records();  // only now: a crash while publishing keeps them for --resume
  return outcome;
}

}  // namespace goodput
