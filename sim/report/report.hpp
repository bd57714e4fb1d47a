// One result model, several printers: a Report is built once from the Monte Carlo runs
// (summaries with 95% CIs, paired differences against the winner) and printed as
// report.json (versioned schema), runs.csv, report.md, report.html (report_html.hpp) and a
// terminal table, plus timeline.json when one was recorded. Where reports may go and how
// they replace earlier ones is output_dir.hpp's business.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/stats.hpp"
#include "sim/report/timeline.hpp"
#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"
#include "sim/run/seed_rule.hpp"

namespace goodput {

inline constexpr int kReportSchemaVersion =
    2;  // 2: per-strategy checkpoint, price list, mechanisms paid
extern const char* const kToolVersion;

// Run to completion over the runs: hours until each run's progress reached /report/train_hours
// (RunMetrics::completion_hours). Percentiles are nearest-rank over every run, a run that did
// not finish within the horizon counting as longer than all: -1 when the percentile falls on
// such a run. `mean_hours` is over the finished runs (0: none).
struct CompletionSummary {
  std::size_t runs = 0, finished = 0;
  double mean_hours = 0, p50_hours = -1, p90_hours = -1, p99_hours = -1;
};
CompletionSummary summarize_completion(const std::vector<RunMetrics>& runs);

struct StrategySummary {
  std::string name;
  Summary goodput, goodput_per_provisioned_gpu, ettr, interruptions, failures, job_failures,
      gpu_hours_down, peak_failed_gpus, spare_gpu_hours, checkpoints, boost_energy_gpu_hours,
      boosted_domain_hours, capped_domain_hours, healthy_tp_groups_fraction;
  std::array<Summary, kBucketCount> badput;
  Summary difference_vs_winner;    // paired: this strategy minus the winner, per seed
  Summary difference_vs_baseline;  // paired: minus /report/baseline (n = 0 without one)
  // Cluster health (time mode): failed GPUs over time, time above each threshold, and the job's
  // mean time between interruptions (all runs' wall hours / all interruptions; 0: none) and
  // hours paused for capacity (WAITING_FOR_CAPACITY x wall time).
  Summary failed_gpus_mean, failed_gpus_p50, failed_gpus_p90, failed_gpus_p99, paused_hours;
  std::vector<Summary> time_above_failed;  // per /report/failed_gpu_thresholds entry
  double mtbi_hours = 0;
  // Recovery mechanisms paid per run (Mechanism order): how often, hours the job stood still.
  std::array<Summary, kMechanismCount> paid_count, paid_stall_hours;
  // /report/train_hours > 0: wall hours to train (train_hours / Goodput, per run) and the GPU-hours
  // (and cost, with /report/gpu_hour_price: cluster_price_per_hour) of the whole cluster for that
  // long.
  Summary time_to_train_hours, gpu_hours_to_train, cost_to_train;
  // With /report/gpu_power_kw too: the facility energy over that time to train (MWh; the run's
  // energy per wall hour x its time to train) and, with energy_price_per_kwh, its cost, so the
  // time-to-train table sets energy and cost on the same basis (the Energy table's cover the
  // horizon).
  // total_cost_to_train: cost_to_train + energy_cost_to_train, per run (both priced; else n = 0).
  Summary energy_to_train_mwh, energy_cost_to_train, total_cost_to_train;
  CompletionSummary completion;  // the same target, run to completion (runs = 0: no target)
  // /report/gpu_power_kw > 0 (time mode): the facility energy of a run in MWh (energy_kwh()),
  // its cost at energy_price_per_kwh, and, with gpu_hour_price, the cost of one useful GPU-hour:
  // (cluster_price_per_hour x wall h + energy cost) / (Goodput x job GPUs x wall h).
  Summary energy_mwh, energy_cost, cost_per_useful_gpu_hour;
  // The metrics of the table (strategy_metrics.hpp) with no member above, by name.
  std::map<std::string, Summary> more;
};

// The GPUs of the spare domains (/cluster/spare_domains x GPUs per domain).
std::int64_t spare_gpus(const RunPlan& plan);
// What holding the whole cluster costs per hour: the spare domains' GPUs at
// /report/spare_gpu_hour_price, every other GPU at gpu_hour_price (from gpu_capex when given).
double cluster_price_per_hour(const RunPlan& plan);

// Time in state: the badput buckets grouped into four states, each a share of wall time
// (ideal-time equivalents summing with Goodput to 1). running = Goodput; degraded =
// DEGRADED_CAPACITY + RESHARD_OVERHEAD + SLOW_COMPONENTS; stalled = recovery, checkpoint
// save/restore and rolled-back work; waiting = WAITING_FOR_CAPACITY.
inline constexpr std::array<const char*, 4> kStates = {"running", "degraded", "stalled", "waiting"};
std::array<double, 4> time_in_state(const StrategySummary& s);

// A run's facility energy in kWh: (GPU-hours the job held + idle_power_fraction x idle healthy
// GPU-hours + boost's extra GPU-TDP-hours) x gpu_power_kw x pue; failed GPUs draw nothing.
double energy_kwh(const Scenario& scenario, std::int64_t cluster_gpus, const RunMetrics& m);

struct Report {
  const RunPlan* plan = nullptr;
  std::vector<StrategyRuns> runs;
  std::vector<StrategySummary> strategies;
  std::size_t winner = 0;     // highest mean Goodput (the leader)
  std::size_t runner_up = 0;  // the next (== winner with one strategy)
  bool decided = false;       // the leader's paired lead over the runner-up is significant at 95%
  // A trace replay whose seeds vary nothing (RunPlan::deterministic_replay): every run is the
  // same, so each strategy keeps run 0 only; no CI, no significance.
  bool deterministic = false;
  std::optional<std::size_t> baseline;  // the /report/baseline strategy, when there is one
  RecordedTimeline timeline;  // run 0's timeline (timeline.json, report.html); empty: none
  // What the verdict depends on (goodput run, sensitivity.hpp): per price of the list, the
  // sentence saying where the leader and the runner-up swap, and the figures behind it
  // (report.json "depends_on"); `depends_on_note` says why it is missing when it is.
  std::vector<std::string> depends_on;
  Json depends_on_json;
  std::string depends_on_note;
  // How the seed count was chosen (`--seeds auto`, seed_rule.hpp); not automatic: the scenario's.
  SeedsChosen seeds_chosen;
  // The command that reproduces it (command_record.hpp; empty: none recorded, e.g. a sweep's
  // point).
  std::vector<std::string> command;
  bool html = true;  // write report.html (a sweep's per-point reports skip it: the sweep has one)
};

Report build_report(const RunPlan& plan, std::vector<StrategyRuns> runs);
// report.json. Each strategy's metrics go where the metric table (strategy_metrics.hpp) places
// them; report_json_derived_keys() are the summaries it adds at a strategy's top level that are
// no table metric (paired differences, shares and 1 - Goodput derived from metrics).
Json report_json(const Report& report);
const std::vector<std::string>& report_json_derived_keys();
std::string runs_csv(const Report& report);
std::string report_markdown(const Report& report);
std::string terminal_table(const Report& report);
// The verdict in one paragraph: a winner only when its paired lead over the runner-up is
// significant at 95%, else "tied" (one seed: no winner, no CI). `bold`: markdown emphasis.
std::string verdict_paragraph(const Report& report, bool bold);
// One sentence per strategy that ETTR ranks above one Goodput ranks it below (means more than
// 0.05 pp apart on both), against the highest such: why the two rankings differ.
std::vector<std::string> ettr_goodput_notes(const std::vector<StrategySummary>& strategies);
// Writes the report's files into `dir` (created if missing).
void write_report_files(const Report& report, const std::filesystem::path& dir);
// Claims `directory` (output_dir.hpp: refused unless new, empty or an earlier goodput
// report), writes the files into a staging folder and publishes them crash-safely.
void write_report(const Report& report, const std::string& directory);

}  // namespace goodput
