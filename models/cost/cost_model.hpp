// How fast a replica runs at a reduced TP degree, and what nonuniform TP costs the others.
// replica_throughput(t, power): samples per second of a replica whose slowest stage runs at TP
// degree t (power multiplier `power` on its compute), relative to a healthy replica, with the
// local batch cut so its step fits in the healthy step time (never above 1).
// reshard_overhead(t): the share of each step that every replica loses to the gradient reshard
// when degraded replicas at degree t exist. Two models: `proportional` (throughput = t/tp x
// speed, no overheads; for closed-form checks) and `iteration` (per-layer GEMMs and attention
// from a calibration profile, TP collectives over NVLink, pipeline bubble, DP all-reduce).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/cost/power_curve.hpp"
#include "models/scenario/scenario.hpp"

namespace goodput {

class CostModel {
 public:
  virtual ~CostModel() = default;
  virtual double replica_throughput(int degree, double power) const = 0;
  virtual double reshard_overhead(int degree) const = 0;
  virtual double healthy_step_s() const = 0;
  const PowerCurve& power_curve() const { return curve_; }
  // The smallest power in [1, max_power] at which a replica at `degree` keeps its full batch;
  // max_power when even that is not enough.
  double boost_power(int degree, double max_power) const;

 protected:
  explicit CostModel(PowerCurve curve) : curve_(std::move(curve)) {}
  PowerCurve curve_;
};

// NTP gradient-sync geometry (shared/reference/ntp.md): a weight of `cols` columns split over
// N1 ranks (shards of cols/N1) or N2 ranks (cols/N2); each of the N2 core ranks keeps its N1
// shard and takes cols/N2 - cols/N1 columns of the N1 - N2 extra ranks' shards.
struct ReshardGeometry {
  double shard_n1 = 0, shard_n2 = 0, moved_per_core = 0;
};
ReshardGeometry reshard_geometry(double cols, int n1, int n2);

struct CostInfo {
  std::string name;          // "proportional" | "iteration"
  std::string profile_path;  // iteration only
  std::string profile_hash;
  std::string profile_source;  // "analytical" | "measured"
  std::string device;
  double healthy_step_s = 0;
  std::vector<int> interpolated_tp;  // reachable degrees the profile lacks (/cost/interpolate)
};

// The TP degrees the scenario's strategies can run replicas at (models/strategies/
// tp_degrees.hpp, the rule the calibration harness measures by), ascending, ending with tp.
std::vector<int> needed_tp_degrees(const Scenario& scenario);

// Builds the scenario's cost model (loads and checks the calibration profile).
std::shared_ptr<const CostModel> make_cost_model(const Scenario& scenario, CostInfo* info);

}  // namespace goodput
