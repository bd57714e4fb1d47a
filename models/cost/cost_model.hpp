// How fast a replica runs with degraded pipeline stages, and what nonuniform TP costs the others.
// replica_throughput(degrees, powers): samples per step of a replica whose stage i runs at TP
// degree degrees[i] with power multiplier powers[i] on its compute, relative to a healthy
// replica, with the local batch cut so its step fits in the healthy step time, by whole
// samples, whole micro-batches or any fraction (/cost/local_batch) (never above 1; 0 when a
// stage is below the lowest costed degree). Which stage a degree belongs to is the cost
// model's choice, not the caller's: the iteration model puts the lowest degrees where a slow
// stage costs the step most (worst case). replica_throughput(t, power): one stage at t, the others
// healthy. step_s(k): the step time of a healthy replica running k micro-batches (dp_drop
// accumulate). reshard_overhead(t): the share of each step that every replica loses to the gradient
// reshard when degraded replicas at degree t exist. Two models: `proportional` (a replica runs at
// the pace of its slowest stage, t/tp x speed, no overheads, no bubble; for closed-form checks) and
// `iteration` (step_model.hpp per stage, the exact pipeline schedule of pipeline_schedule.hpp
// per distinct stage configuration, computed once and cached; thread-safe).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/cost/power_curve.hpp"
#include "models/cost/step_model.hpp"
#include "models/scenario/scenario.hpp"

namespace goodput {

// What the iteration model is built from (for `goodput explain-step`).
struct IterationDetail {
  StepSetup setup;
  calib::Profile profile;
  // Per TP degree, the pipeline position a single degraded group at that degree is costed at.
  std::vector<int> worst_position;
};

class CostModel {
 public:
  virtual ~CostModel() = default;
  virtual double replica_throughput(std::span<const int> degrees,
                                    std::span<const double> powers) const = 0;
  double replica_throughput(int degree, double power) const;
  virtual double reshard_overhead(int degree) const = 0;
  virtual double healthy_step_s() const = 0;
  virtual double step_s(int microbatches) const = 0;
  int pp() const { return pp_; }
  int tp() const { return tp_; }
  const PowerCurve& power_curve() const { return curve_; }
  // The smallest power in [1, max_power] at which a replica with one stage at `degree` keeps
  // its full batch; max_power when even that is not enough.
  virtual double boost_power(int degree, double max_power) const;
  virtual const IterationDetail* iteration_detail() const { return nullptr; }
  // Fail-slow (issue 29): one full-degree TP group of a replica whose compute runs `slowdown`
  // (>= 1) times slower, at power multiplier `power` (speed curve(power) / slowdown), the others
  // healthy; placed where a slow stage costs the step most, like a degraded group.
  // slow_step_ratio: that replica's step with its full batch over the healthy step, at least 1
  // (what a synchronous job waiting for it at every step runs at). slow_replica_throughput: its
  // share of the batch when its local batch is cut to fit the healthy step (replica_throughput's
  // rule).
  virtual double slow_step_ratio(double slowdown, double power) const = 0;
  virtual double slow_replica_throughput(double slowdown, double power) const = 0;
  // The least power in [1, max_power] at which that slow group keeps what it keeps at
  // max_power (slow_replica_throughput): what a boosting strategy draws for it.
  double slow_boost_power(double slowdown, double max_power) const;
  // The least power in [1, max_power] whose step ratio is the one at max_power
  // (slow_step_ratio): what a boosting strategy draws for a slow group the job waits for.
  double slow_paced_power(double slowdown, double max_power) const;
  // Derived prices of state moves (the price list's defaults for /recovery/state_copy_s and
  // /recovery/ntp_reshard_s; 0 under the proportional model, which has no model shape).
  // Training state on a GPU: bf16 weights plus fp32 master weights and Adam moments over the
  // DP shard (distributed optimizer), 2 + 12 / dp bytes per parameter of its TP shard.
  // state_copy_s: one GPU's state from a DP peer over the scale-out link (GPUs in parallel).
  // ntp_reshard_s(from, to): a TP group of a stage goes from `from` to `to` ranks; the busiest
  // rank's bytes over NVLink (shrinking: the extra columns each core rank takes on; growing:
  // a new rank's whole shard).
  virtual double state_copy_s() const { return 0; }
  virtual double ntp_reshard_s(int /*from*/, int /*to*/) const { return 0; }

 protected:
  CostModel(PowerCurve curve, int tp, int pp) : curve_(std::move(curve)), tp_(tp), pp_(pp) {}
  PowerCurve curve_;
  int tp_, pp_;
};

// NTP gradient-sync geometry (shared/reference/ntp.md): a weight of `cols` columns split over
// N1 ranks (shards of cols/N1) or N2 ranks (cols/N2); each of the N2 core ranks keeps its N1
// shard and takes cols/N2 - cols/N1 columns of the N1 - N2 extra ranks' shards. Each extra
// rank sends its whole shard (cols/N1) out and takes it back: the busiest link's bytes.
struct ReshardGeometry {
  double shard_n1 = 0, shard_n2 = 0, moved_per_core = 0, sent_per_extra = 0;
};
ReshardGeometry reshard_geometry(double cols, int n1, int n2);

struct CostInfo {
  CostSpec::Model model = CostSpec::Model::Proportional;  // the one built (never Auto)
  std::string profile_path;                               // iteration only
  std::string profile_hash;
  std::string profile_source;  // "analytical" | "measured"
  std::string device;
  double healthy_step_s = 0;
  std::vector<int> interpolated_tp;  // reachable degrees the profile lacks (/cost/interpolate)
};

// Builds the scenario's cost model (loads and checks the calibration profile). `tp_degrees`: the
// TP degrees the scenario's strategies can run replicas at, ascending, ending with /job/tp (the
// caller asks the strategies: needed_tp_degrees, models/strategies/strategy.hpp). The iteration
// model costs every degree from the lowest up, and a profile must cover each of them.
std::shared_ptr<const CostModel> make_cost_model(const Scenario& scenario,
                                                 const std::vector<int>& tp_degrees,
                                                 CostInfo* info);
// Whether make_cost_model builds the iteration model (its exact pipeline schedule) for the
// scenario: /cost/model iteration, or auto with a /job/model; else the proportional one.
bool uses_iteration_model(const Scenario& scenario);

}  // namespace goodput
