#include "sim/cli/sweep_flags.hpp"

#include <CLI/CLI.hpp>

#include "sim/cli/command_line.hpp"

namespace goodput {

void add_sweep_flags(CLI::App& sweep, SweepArgs& sw, SweepFlagSet set) {
  const bool local = set == SweepFlagSet::Local;
  affects_results(sweep.add_option("scenario", sw.scenario,
                                   local ? "scenario JSON" : "scenario JSON (read on rank 0 only)"))
      ->required();
  takes_pointer(affects_results(sweep.add_option("--axis", sw.axes,
                                                 "axis: /json/pointer=v1,v2,... (repeatable)")))
      ->allow_extra_args(false);  // one value per flag: never the scenario after it
  sweep.add_option("--out", sw.out,
                   std::string("sweep folder") + (local ? "" : " on rank 0") +
                       ": new, empty or an earlier goodput report (default: "
                       "goodput-out/<scenario name>-sweep or -seek)");
  add_seed_flags(sweep, sw.seed, "per point");
  sweep.add_flag("--resume", sw.resume,
                 "reuse the finished points of an interrupted sweep into the same --out");
  takes_pointer(
      affects_results(sweep.add_option(
          "--seek", sw.seek,
          "goal seek: /json/pointer of an integer field (instead of --axis); the answer is its "
          "smallest value in [--min, --max] meeting --target, by bisection (assumes the metric "
          "moves toward the target as the value grows)")),
      "");
  affects_results(sweep.add_option("--min", sw.seek_min, "goal seek: smallest value to consider"));
  affects_results(sweep.add_option("--max", sw.seek_max, "goal seek: largest value to consider"));
  affects_results(sweep.add_option(
      "--target", sw.target,
      "goal seek: 'METRIC>=X' or 'METRIC<=X' (quoted), met when the metric's 95% CI bound "
      "clears X: mean - CI >= X, or mean + CI <= X (one seed: the mean). METRIC: any "
      "per-strategy metric, e.g. goodput>=0.95, WAITING_FOR_CAPACITY<=0.01 (or <=1%), "
      "paused_hours<=5, interruptions<=400 (a wrong name lists them)"));
  affects_results(sweep.add_option("--target-goodput", sw.target_goodput,
                                   "goal seek: the same as --target goodput>=X"))
      ->check(CLI::Range(0.0, 1.0));
  affects_results(sweep.add_option("--strategy", sw.strategy,
                                   "goal seek: the strategy whose metric must reach the target"));
  takes_pointer(affects_results(sweep.add_option("--set", sw.sets,
                                                 "override: /json/pointer=value (repeatable)")))
      ->allow_extra_args(false);
  affects_results(
      sweep.add_option("--strategies", sw.strategies, "comma-separated strategies to compare"));
  sweep
      .add_option("--threads", sw.threads,
                  local ? "worker threads (default: all cores)"
                        : "Monte Carlo threads per rank (default 1)")
      ->check(CLI::Range(1, kMaxThreads));
  if (local) {
    sweep
        .add_option(
            "--max-events", sw.max_events,
            "work budget: refuse sweeps estimated above this many events in all (default 2e9)")
        ->check(positive_number());
    sweep.add_option("--max-memory", sw.max_memory,
                     "work budget: refuse sweeps estimated to need more memory (default 8G)");
  }
  sweep.add_flag("--quiet", sw.quiet, "print nothing on success");
  sweep.add_flag("--progress", sw.progress,
                 "progress and time left on stderr even when it is not a terminal (on a terminal "
                 "it is shown anyway, unless --quiet)");
}

}  // namespace goodput
