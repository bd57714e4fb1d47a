// A scenario as the simulator uses it, after strict loading (scenario_loader.hpp): cluster
// shape, job layout, failure model, recovery and checkpoint costs, and the strategies to
// compare with their parameters. `resolved` is the input with every default filled in; it is
// written into report.json so a run can be reproduced from the report alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "models/failures/failure_spec.hpp"
#include "models/topology/topology.hpp"
#include "sim/core/params.hpp"

namespace goodput {

// Seeds per batch when the seed count is chosen by its rule ("seeds": "auto" or `--seeds auto`,
// sim/run/seed_rule.hpp): the rule's first batch, and what Scenario::seeds holds until it runs.
inline constexpr int kAutoSeedBatch = 8;

// Activation recomputation in the backward pass (/job/recompute).
enum class Recompute { None, Selective, Full };

struct JobSpec {
  int tp = 8;
  int pp = 1;
  int cp = 1;  // context parallelism: a stage's sequence split over cp TP groups (ring attention)
  int dp = 1;
  double step_s = 10;        // iteration time of the healthy job
  int microbatches = 8;      // micro-batches per replica per step (granularity of accumulation)
  bool fixed_batch = false;  // /job/batch: fixed keeps the global batch (pause rather than shrink)
  int micro_batch = 1;       // sequences per micro-batch
  int virtual_stages = 1;    // interleaved 1F1B when > 1
  Recompute recompute = Recompute::None;  // /job/recompute
  bool sequence_parallel = true;
  std::vector<int> stage_layers;  // /job/stage_layers: whole layers per stage (empty: even)
  Json model;                     // transformer shape, for the cost model and calibration
  // TP groups one replica needs: cp per pipeline stage.
  int groups_per_replica() const { return pp * cp; }
  // "TP 8 x PP 16 x DP 128", with "CP c" after TP when cp > 1.
  std::string layout_text() const {
    return "TP " + std::to_string(tp) + (cp > 1 ? " x CP " + std::to_string(cp) : "") + " x PP " +
           std::to_string(pp) + " x DP " + std::to_string(dp);
  }
};

// The price list of recovery mechanisms (declared with defaults and sources in
// scenario_params.cpp, /recovery): every strategy pays these for the same physical action.
// A negative state_copy_s / ntp_reshard_s means "derive from the bytes moved" (cost model).
struct RecoverySpec {
  double detection_s = 120;
  double restart_s = 600;
  double communicator_rebuild_s = 60;
  double spare_swap_s = 180;
  double state_copy_s = -1;
  double ntp_reshard_s = -1;
  double ntp_reconfig_s = 10;
  double rejoin_s = -1;  // negative: the communicator rebuild's price
  // What strategies do about a detected slow component (fail-slow classes): each its declared
  // response, or every strategy tolerates it, or every strategy evicts it (treats it as failed).
  enum class SlowResponse : std::uint8_t { Declared, Tolerate, Evict };
  SlowResponse slow_response = SlowResponse::Declared;
};

struct CheckpointSpec {
  enum class Policy { None, Fixed, Young, Daly, AvailabilityOptimal };
  Policy policy = Policy::Daly;
  double interval_s = 3600;
  double save_s = 60;
  bool async = false;
  double async_blocking_s = 5;
  double load_s = 300;
  bool operator==(const CheckpointSpec&) const = default;
};

struct CostSpec {
  enum class Model { Auto, Proportional, Iteration };
  Model model = Model::Auto;  // auto: iteration when /job/model is given
  std::string profile;        // calibration profile path ("" = the shipped analytical one)
  bool interpolate = false;   // accept a profile measured for another model shape
  double nvlink_gbps = 0;     // per GPU, one direction (0 = from the GPU type)
  double scaleout_gbps = 50;  // per GPU
  double dp_overlap = 0.9;
  double reshard_overlap = 0.8;
  // A degraded replica's local batch (/cost/local_batch): whole samples (a micro-batch shrinks
  // by whole sequences), whole micro-batches, or any fraction (the NTP paper's idealisation).
  enum class LocalBatch { WholeSamples, WholeMicrobatches, Fractional };
  LocalBatch local_batch = LocalBatch::WholeSamples;
  // The power curve past its last point (/cost/curve_extension): the last segment's slope, or
  // no further speed.
  enum class CurveExtension { Linear, Flat };
  CurveExtension curve_extension = CurveExtension::Linear;
  std::vector<double> curve_power{1.0, 1.1, 1.2};
  std::vector<double> curve_speed{1.0, 1.1 * 0.972, 1.2 * 0.935};
};

// time: simulate a wall-clock horizon; snapshot: steady state with a fixed share of GPUs down.
enum class RunMode { Timed, Snapshot };

struct StrategyConfig {
  std::string name;
  Json params;  // validated and resolved against the strategy's parameter section
};

struct Scenario {
  std::string file;
  std::string name;
  std::string description;
  RunMode mode = RunMode::Timed;
  double horizon_hours = 720;
  int seeds = 10;
  // /seeds "auto": the seed rule chooses the count (goodput run and sweep, sim/run/seed_rule.hpp);
  // until it has, `seeds` is kAutoSeedBatch, its first batch (what `goodput sensitivity` and the
  // work estimates before the rule use). It stays set once the rule has set `seeds`.
  bool seeds_auto = false;
  std::uint64_t seed = 1;
  ClusterShape cluster;
  // The GPU's figures: the catalogue's entry that /cluster/gpu names, or /cluster/gpu_spec
  // (calibrate/profile/gpu_catalogue.hpp); its name is cluster.gpu_type.
  calib::GpuSpec gpu;
  int spare_domains = 0;
  // /cluster: the GPU's nominal (TDP) power and its rated maximum board power, W (defaults from
  // the GPU's figures, `gpu`; 0: none declared), and a per-domain GPU power budget, kW (0: none).
  double gpu_nominal_power_w = 0, gpu_max_power_w = 0, domain_power_budget_kw = 0;
  JobSpec job;
  FailureSpec failures;
  RecoverySpec recovery;
  CheckpointSpec checkpoint;
  CostSpec cost;
  double failed_fraction = 0;  // snapshot mode
  std::vector<double> failed_gpu_thresholds{
      0.001};                 // /report: cluster-health time-above thresholds
  double train_hours = 0;     // /report: ideal training hours the job needs (0: no time-to-train)
  double train_steps = 0;     // /report: the same in healthy steps (make_plan sets train_hours)
  double train_tokens = 0;    // /report: the same in tokens (the loader sets train_steps)
  double gpu_hour_price = 0;  // /report: price per GPU-hour (0: no cost; from gpu_capex if set)
  double gpu_capex = 0, gpu_lifetime_years = 5;  // /report: capex alternative (0: not used)
  double spare_gpu_hour_price = 0;  // /report: a spare domain's GPU-hour (default gpu_hour_price)
  // /report energy: kW per working GPU (0: no energy figures), idle share, PUE, price per kWh.
  double gpu_power_kw = 0, idle_power_fraction = 0.3, pue = 1.2, energy_price_per_kwh = 0;
  std::string baseline;  // /report: a compared strategy, or "" (none)
  // /report: the currency of every price and money figure: an ISO 4217 code ("USD", printed after
  // the figure) or a symbol ("$", before it); checked by currency_problem (sim/report/units_text).
  std::string currency = "USD";
  // What the command line's overrides (--set, --seeds, --strategies, --baseline) changed in the
  // file, one JSON pointer each with the file's value (null: absent) and the run's (null:
  // removed); empty when the scenario is the file's. A report shows the file's description only
  // when nothing it could describe was changed (description_applies, sim/report).
  struct Change {
    std::string pointer;
    Json before, after;
  };
  std::vector<Change> changes;
  std::vector<StrategyConfig> strategies;
  Json resolved;
  Json input;  // what was parsed (the file with overrides applied): parse_scenario(input, file)
               // rebuilds this

  // Tokens the healthy job trains per step: dp x microbatches x micro_batch x /job/model's seq_len
  // (0 without a model).
  std::int64_t tokens_per_step() const {
    if (!job.model.is_object() || !job.model.contains("seq_len")) return 0;
    return static_cast<std::int64_t>(job.dp) * job.microbatches * job.micro_batch *
           job.model["seq_len"].get<std::int64_t>();
  }
  int groups_per_domain() const { return cluster.gpus_per_domain() / job.tp; }
  std::int64_t job_groups() const {
    return static_cast<std::int64_t>(job.dp) * job.groups_per_replica();
  }
  std::int64_t job_gpus() const { return job_groups() * job.tp; }
  const StrategyConfig* strategy(const std::string& n) const {
    for (const auto& s : strategies)
      if (s.name == n) return &s;
    return nullptr;
  }
};

}  // namespace goodput
