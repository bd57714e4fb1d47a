// What one (seed, strategy) run measured. Fractions are of the wall-clock horizon; the
// badput buckets are ideal-time equivalents and goodput + sum(badput) == 1.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/job/job_signals.hpp"
#include "sim/core/params.hpp"

namespace goodput {

struct RunMetrics {
  double goodput = 0;
  // Goodput x the job's GPUs / every GPU provisioned (the cluster's: the job's domains, spare
  // domains and GPUs no group uses): what the hardware paid for keeps, spares included.
  double goodput_per_provisioned_gpu = 0;
  std::array<double, kBucketCount> badput{};
  double ettr = 0;  // training time kept / wall time
  std::int64_t interruptions = 0;
  std::int64_t failures = 0;      // faults that started within the horizon
  std::int64_t job_failures = 0;  // faults that hit the job's GPUs
  double gpu_hours_down = 0;
  std::int64_t peak_failed_gpus = 0;
  double spare_gpu_hours = 0;             // healthy GPUs not used by the job, integrated
  std::int64_t checkpoints = 0;           // durable checkpoints
  std::int64_t rollbacks = 0;             // returns to the last durable checkpoint
  std::int64_t events = 0;                // engine events fired
  double boost_energy_gpu_hours = 0;      // extra power x time, in GPU-TDP-hours
  double boosted_domain_hours = 0;        // domains boosted x time
  double capped_domain_hours = 0;         // degraded domains at a power cap, replica short x time
  double healthy_tp_groups_fraction = 0;  // snapshot mode: job TP groups with no failed GPU
  double wall_hours = 0;
  // Run to completion (/report/train_hours or train_steps): hours until the job's progress first
  // reached the target; -1: not within the horizon; 0: no target.
  double completion_hours = 0;
  // Cluster health over the run (the same for every strategy of a seed): failed GPUs as a
  // time-weighted distribution, and per /report/failed_gpu_thresholds entry the share of wall
  // time with more than that fraction of all GPUs failed.
  double failed_gpus_mean = 0, failed_gpus_p50 = 0, failed_gpus_p90 = 0, failed_gpus_p99 = 0;
  std::vector<double> time_above_failed;
  // Recovery mechanisms paid (JobObserver::paid): how often, and hours the job stood still.
  std::array<std::int64_t, kMechanismCount> paid_count{};
  std::array<double, kMechanismCount> paid_stall_hours{};
  // The mechanisms whose list price the run read (Strategy::prices_read; every bit: unknown).
  // In-process only, for the verdict analysis: not in the field table, so a record read back
  // (sweep point, MPI transfer) has every bit.
  std::uint32_t prices_read = ~0u;
};

// The per-run metrics as a table (run_metrics.cpp): each field once, with its name, unit,
// meaning and declared range, so records (sweep points, MPI transfers) store metrics by name,
// are checked against the range before they are trusted, and a new field is one line there; the
// report's per-strategy metrics (strategy_metrics.cpp) take their names, units and docs from it.
// to_json/from_json go through it; from_json throws std::out_of_range when a field is missing
// (an older record): check_run_metrics first.
struct RunMetricField {
  std::string name, unit, doc;
  double min = 0, max = 0;  // declared range of the value (of each element for arrays)
  bool integer = false;     // a count: the JSON value must be an integer
  // Arrays: -1 scalar; > 0 its fixed length (Bucket or Mechanism order); 0 one element per
  // /report/failed_gpu_thresholds entry, or none (snapshot mode).
  int length = -1;
  std::function<Json(const RunMetrics&)> get;
  std::function<void(RunMetrics&, const Json&)> set;
  std::function<double(const RunMetrics&)> scalar;  // a number field's value; empty for arrays
};
const std::vector<RunMetricField>& run_metric_fields();
const RunMetricField* find_run_metric_field(const std::string& name);  // nullptr: unknown
Json run_metrics_to_json(const RunMetrics& m);
RunMetrics run_metrics_from_json(const Json& j);

// Where a JSON document is wrong: the pointer of the first bad value, and why.
struct JsonProblem {
  std::string pointer, why;
};
// Whether `j` (at `pointer`) is one run's metrics as run_metrics_to_json writes them: an object
// with every field, each of its JSON type (integers for counts), finite, within its declared
// range (to 1e-9: rounding) and, for arrays, of its length (`thresholds`: the scenario's
// /report/failed_gpu_thresholds count). Then run_metrics_from_json(j) cannot throw.
std::optional<JsonProblem> check_run_metrics(const Json& j, const std::string& pointer,
                                             std::size_t thresholds);

struct StrategyRuns {
  std::string strategy;
  std::vector<RunMetrics> runs;  // one per seed, in seed order
};

// Appends each strategy's later runs (`more`, the same strategies in the same order) to its
// runs: an evaluation extended to more seeds.
inline void append_runs(std::vector<StrategyRuns>& runs, const std::vector<StrategyRuns>& more) {
  for (std::size_t s = 0; s < runs.size() && s < more.size(); ++s)
    runs[s].runs.insert(runs[s].runs.end(), more[s].runs.begin(), more[s].runs.end());
}

}  // namespace goodput
