// Runs the points of a sweep: points spread over threads (each point's Monte Carlo gets the
// threads left over), results identical whatever the thread count. Each finished point is
// streamed to DIR.partial/records/point-NNN.json (lossless, written atomically), so an
// interrupted sweep keeps its finished points and `resume` reuses them once they check out
// (point_record.hpp: same scenario and named files' hashes, else exit 2; every field valid,
// else the point runs again with a note). When all points are done the final files are published
// into DIR (output_dir.hpp: claimed and locked from the start) and only then DIR.partial is
// removed. A point whose scenario says "seeds": "auto" adds seeds in deterministic batches
// (seed_rule.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/run/seed_rule.hpp"
#include "sim/sweep/sweep_report.hpp"

namespace goodput {

// The seed rule (sim/run/seed_rule.hpp) for points whose scenario says "seeds": "auto"
// (Scenario::seeds_auto, set by the file, --set or --seeds auto): seeds are added to such a point
// until its verdict (the leader against every rival) and every strategy's Goodput CI are settled.
// None: SeedRule's defaults. A point whose scenario gives a count runs that many.
using SeedPolicy = std::optional<SeedRule>;
// The most seeds a point record of `scenario` may hold (point_record.hpp's
// RecordExpect::max_seeds): the cap when it says auto, 0 (exactly the scenario's) otherwise.
inline int record_max_seeds(const Scenario& scenario, const SeedPolicy& seeds) {
  return scenario.seeds_auto ? seeds.value_or(SeedRule{}).max_seeds : 0;
}

// Computes one point on worker `worker` (0 <= worker < SweepOptions::workers) in place of
// run_point; each worker runs one point at a time and takes the next unfinished point when
// done (the MPI layer, sim/mpi/, maps worker 0 to rank 0 and the others onto ranks > 0). Must
// return what run_point would.
using PointRunner = std::function<SweepPoint(const Scenario& scenario, int worker)>;

struct SweepOptions {
  int threads = 1;
  PointRunner runner;  // set: points go to `workers` runners instead of threads of this process
  int workers = 1;
  bool resume = false;
  SeedPolicy seeds;
  std::string out_flag = "--out";  // where the directory came from, for messages
  int stop_after = -1;  // >= 0: compute at most this many points, then stop unfinished (tests)
  std::function<void(int done, int total, double seconds_left)> progress;
  // A line for people (stderr unless --quiet): a streamed record that was not trusted and runs
  // again, naming the file and its first bad field.
  std::function<void(const std::string& line)> note;
};

struct SweepOutcome {
  int computed = 0;  // points run now
  int resumed = 0;   // points taken from an earlier, interrupted run
  bool complete = false;
  std::filesystem::path target;  // the sweep folder, normalised
};

// One point: its plan and runs; when its scenario says auto, seeds grow until settled or capped.
SweepPoint run_point(const Scenario& scenario, int threads, const SeedPolicy& seeds);

// `sweep` holds the axes and scenario file; its points are filled in, in point order.
SweepOutcome run_sweep(Sweep& sweep, const std::vector<Scenario>& scenarios,
                       const std::vector<std::vector<std::string>>& values,
                       const SweepOptions& options, const std::string& directory);

}  // namespace goodput
