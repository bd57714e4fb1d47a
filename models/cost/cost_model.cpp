#include "models/cost/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "models/strategies/tp_degrees.hpp"
#include "sim/core/error.hpp"

namespace goodput {

ReshardGeometry reshard_geometry(double cols, int n1, int n2) {
  ReshardGeometry g;
  g.shard_n1 = cols / n1;
  g.shard_n2 = cols / n2;
  g.moved_per_core = g.shard_n2 - g.shard_n1;
  return g;
}

double CostModel::boost_power(int degree, double max_power) const {
  if (replica_throughput(degree, 1.0) >= 1.0) return 1.0;
  if (replica_throughput(degree, max_power) < 1.0) return max_power;
  double lo = 1.0, hi = max_power;  // throughput(lo) < 1 <= throughput(hi)
  for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
    const double mid = (lo + hi) / 2;
    (replica_throughput(degree, mid) >= 1.0 ? hi : lo) = mid;
  }
  return hi;
}

std::vector<int> needed_tp_degrees(const Scenario& s) {
  std::vector<TpDegreeRule> rules;
  for (const auto& st : s.strategies) {
    if (st.name != "ntp" && st.name != "ntp_boost") continue;
    TpDegreeRule r;
    if (st.params.contains("min_tp") && !st.params["min_tp"].is_null()) r.min_tp = st.params["min_tp"].get<int>();
    if (st.params.contains("allowed_tp"))
      for (const auto& d : st.params["allowed_tp"]) r.allowed.push_back(static_cast<int>(d.get<double>()));
    rules.push_back(r);
  }
  return reachable_tp_degrees(s.job.tp, rules);
}

namespace {

int lowest_degree(const Scenario& s) { return needed_tp_degrees(s).front(); }

class ProportionalCost final : public CostModel {
 public:
  ProportionalCost(const Scenario& s, PowerCurve curve) : CostModel(std::move(curve)), tp_(s.job.tp), step_(s.job.step_s) {}
  double replica_throughput(int degree, double power) const override {
    return std::min(1.0, static_cast<double>(degree) / tp_ * curve_.speed(power));
  }
  double reshard_overhead(int) const override { return 0; }
  double healthy_step_s() const override { return step_; }

 private:
  int tp_;
  double step_;
};

// Step time of a replica = (micro-batches + pp - 1) x micro-batch time of its slowest stage
// (1F1B pipeline) + the exposed part of its DP gradient all-reduce. A micro-batch on a stage:
// layers/pp x (GEMM + attention time from the profile / speed(power) + 4 TP all-reduces of the
// activations over NVLink, ring: 2 (t-1)/t x bytes / bandwidth).
class IterationCost final : public CostModel {
 public:
  IterationCost(const Scenario& s, PowerCurve curve, const calib::Profile& profile, const calib::ModelShape& shape)
      : CostModel(std::move(curve)), tp_(s.job.tp), pp_(s.job.pp), m_(s.job.microbatches) {
    const Json& model = s.job.model;
    const double layers = model["layers"].get<double>();
    const double h = shape.hidden, f = shape.ffn, hd = shape.head_dim();
    const double kv = shape.kv_heads;
    const double nvlink = (s.cost.nvlink_gbps > 0 ? s.cost.nvlink_gbps
                           : (s.cluster.gpu_type == "H100" || s.cluster.gpu_type == "H200") ? 450.0
                                                                                           : 900.0) * 1e9;
    const double scaleout = s.cost.scaleout_gbps * 1e9;
    const double per_layer_params = h * (h + 2 * kv * hd) + h * h + h * f * (shape.gated_mlp ? 2 : 1) + f * h;
    stage_params_ = layers / pp_ * per_layer_params;
    const double act_bytes = 2.0 * static_cast<double>(shape.tokens()) * h;
    compute_.assign(tp_ + 1, 0);
    comm_.assign(tp_ + 1, 0);
    dp_.assign(tp_ + 1, 0);
    lowest_ = lowest_degree(s);
    for (int t = lowest_; t <= tp_; ++t) {
      const auto lt = calib::layer_time(profile, shape, t);
      compute_[t] = layers / pp_ * (lt.fwd_s + lt.bwd_s);
      comm_[t] = layers / pp_ * 4 * (2.0 * (t - 1) / t) * act_bytes / nvlink;
      const double grad_bytes = 2.0 * stage_params_ / t;  // bf16 gradients per GPU
      const int dp = std::max(1, s.job.dp);
      dp_[t] = (1 - s.cost.dp_overlap) * 2.0 * (dp - 1) / dp * grad_bytes / scaleout;
    }
    healthy_step_ = step(tp_, m_, 1.0);
    // Reshard (see shared/reference/ntp.md): a healthy rank's gradient shard, (N1 - N2)/N2 of it
    // moved in and out over NVLink around the all-reduce, plus pack/unpack kernels; and the
    // all-reduce on N2 ranks carrying N1/N2 of the volume each.
    reshard_.assign(tp_ + 1, 0);
    for (int t = lowest_; t < tp_; ++t) {
      // bytes: bf16 gradients of the stage, seen as one matrix of stage_params columns
      const double moved = 2.0 * reshard_geometry(stage_params_, tp_, t).moved_per_core;
      const double wire = 2 * moved / nvlink + 2 * calib::reshard_time_s(profile, static_cast<std::int64_t>(moved));
      const double bigger_allreduce = dp_[tp_] * (static_cast<double>(tp_) / t - 1);
      reshard_[t] = ((1 - s.cost.reshard_overlap) * wire + bigger_allreduce) / healthy_step_;
    }
  }

  double replica_throughput(int degree, double power) const override {
    if (degree >= tp_) return 1.0;
    if (degree < lowest_) return 0.0;  // below every strategy's min_tp: never run
    const double mb = micro_batch_s(degree, power);
    const double fit = std::floor((healthy_step_ - dp_[degree]) / mb + 1e-9) - (pp_ - 1);
    return std::clamp(fit, 0.0, static_cast<double>(m_)) / m_;
  }
  double reshard_overhead(int degree) const override {
    return degree >= tp_ || degree < lowest_ ? 0.0 : reshard_[degree];
  }
  double healthy_step_s() const override { return healthy_step_; }

 private:
  double micro_batch_s(int t, double power) const { return compute_[t] / curve_.speed(power) + comm_[t]; }
  double step(int t, int micro_batches, double power) const {
    return (micro_batches + pp_ - 1) * micro_batch_s(t, power) + dp_[t];
  }

  int tp_, pp_, m_, lowest_ = 1;
  double stage_params_ = 0, healthy_step_ = 0;
  std::vector<double> compute_, comm_, dp_, reshard_;
};

calib::ModelShape shape_of(const Scenario& s) {
  const Json& m = s.job.model;
  calib::ModelShape shape;
  shape.name = s.name;
  shape.hidden = m["hidden"].get<int>();
  shape.heads = m["heads"].get<int>();
  shape.kv_heads = m.contains("kv_heads") ? m["kv_heads"].get<int>() : shape.heads;
  shape.ffn = m["ffn"].get<int>();
  shape.gated_mlp = m["gated_mlp"].get<bool>();
  shape.seq_len = m["seq_len"].get<int>();
  shape.micro_batch = s.job.micro_batch;
  return shape;
}

}  // namespace

std::shared_ptr<const CostModel> make_cost_model(const Scenario& s, CostInfo* info) {
  PowerCurve curve(s.cost.curve_power, s.cost.curve_speed);
  const bool iteration = s.cost.model == "iteration" || (s.cost.model == "auto" && !s.job.model.is_null());
  if (!iteration) {
    if (info) *info = {"proportional", "", "", "", "", s.job.step_s, {}};
    return std::make_shared<ProportionalCost>(s, curve);
  }
  const calib::ModelShape shape = shape_of(s);
  try {
    calib::validate(shape);
  } catch (const std::invalid_argument& e) {
    throw InputError(s.file, "/job/model", e.what());
  }
  calib::Profile profile;
  std::vector<int> interpolated;
  std::string path = s.cost.profile;
  if (path.empty()) {
    // The datasheet profile for this GPU, generated for exactly this model and TP range.
    std::string gpu = s.cluster.gpu_type == "GB200" ? "B200" : s.cluster.gpu_type;
    if (gpu != "H100" && gpu != "H200" && gpu != "B200")
      throw InputError(s.file, "/cost/profile", "no analytical profile for GPU '" + s.cluster.gpu_type +
                                                    "' (H100, H200, B200, GB200): give /cost/profile");
    profile = calib::analytical_profile(gpu, shape, s.job.tp, lowest_degree(s));
    path = "analytical:" + gpu;
  } else {
    profile = calib::load_profile(path);
    // Every degree the strategies can reach must have been measured for this model shape;
    // /cost/interpolate lets the profile's fit answer for the others (listed in the report).
    interpolated = calib::uncovered_degrees(profile, shape, needed_tp_degrees(s));
    if (!interpolated.empty() && !s.cost.interpolate) {
      std::string list;
      for (int t : interpolated) list += (list.empty() ? "" : ", ") + std::to_string(t);
      throw InputError(s.file, "/cost/profile",
                       "profile " + path + " does not cover TP degree" + (interpolated.size() > 1 ? "s " : " ") +
                           list + " of this model shape, which the scenario's strategies can reach; calibrate "
                           "for this scenario (goodput-calibrate --scenario) or set /cost/interpolate to true");
    }
  }
  auto model = std::make_shared<IterationCost>(s, curve, profile, shape);
  if (info)
    *info = {"iteration", path, calib::profile_hash(profile),
             profile.source == calib::Source::measured ? "measured" : "analytical", calib::device_name(profile),
             model->healthy_step_s(), interpolated};
  return model;
}

}  // namespace goodput
