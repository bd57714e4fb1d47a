#include "models/cost/cost_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibrate/profile/profile.hpp"
#include "calibrate/profile/scenario.hpp"
#include "models/cost/bisect_boost.hpp"
#include "models/cost/last_fitting.hpp"
#include "models/cost/pipeline_schedule.hpp"
#include "models/cost/step_model.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/recent_memo.hpp"

namespace goodput {

ReshardGeometry reshard_geometry(double cols, int n1, int n2) {
  ReshardGeometry g;
  g.shard_n1 = cols / n1;
  g.shard_n2 = cols / n2;
  g.moved_per_core = g.shard_n2 - g.shard_n1;
  g.sent_per_extra = g.shard_n1;
  return g;
}

double CostModel::replica_throughput(int degree, double power) const {
  std::vector<int> degrees(static_cast<std::size_t>(pp_), tp_);
  std::vector<double> powers(static_cast<std::size_t>(pp_), 1.0);
  degrees.back() = degree;
  powers.back() = power;
  return replica_throughput(degrees, powers);
}

double CostModel::boost_power(int degree, double max_power) const {
  return bisect_boost(max_power,
                      [&](double power) { return replica_throughput(degree, power) >= 1.0; });
}

double CostModel::slow_boost_power(double slowdown, double max_power) const {
  const double kept = slow_replica_throughput(slowdown, max_power);
  return bisect_boost(
      max_power, [&](double power) { return slow_replica_throughput(slowdown, power) >= kept; });
}

double CostModel::slow_paced_power(double slowdown, double max_power) const {
  const double ratio = slow_step_ratio(slowdown, max_power);
  return bisect_boost(max_power,
                      [&](double power) { return slow_step_ratio(slowdown, power) <= ratio; });
}

namespace {

class ProportionalCost final : public CostModel {
 public:
  ProportionalCost(const Scenario& s, PowerCurve curve)
      : CostModel(std::move(curve), s.job.tp, s.job.groups_per_replica()),
        step_(s.job.step_s),
        m_(s.job.microbatches),
        grain_(s.cost.local_batch == CostSpec::LocalBatch::Fractional ? 0.0
               : s.cost.local_batch == CostSpec::LocalBatch::WholeMicrobatches
                   ? static_cast<double>(m_)
                   : static_cast<double>(m_) * s.job.micro_batch) {}
  // The pace of the slowest stage; the local batch is that share of the replica's samples (or
  // micro-batches), rounded down to a whole one under /cost/local_batch.
  double replica_throughput(std::span<const int> degrees,
                            std::span<const double> powers) const override {
    double pace = 1.0;
    for (std::size_t i = 0; i < degrees.size(); ++i)
      pace = std::min(pace, static_cast<double>(degrees[i]) / tp_ * curve_.speed(powers[i]));
    if (grain_ > 0 && pace < 1.0) pace = std::floor(pace * grain_ * (1 + 1e-12)) / grain_;
    return pace;
  }
  double slow_step_ratio(double slowdown, double power) const override {
    // Boosted: the slow group's speed relative to nominal power.
    if (power <= 1.0) return std::max(1.0, slowdown);
    return std::max(1.0, slowdown * curve_.speed(1.0) / curve_.speed(power));
  }
  double slow_replica_throughput(double slowdown, double power) const override {
    double pace = std::min(1.0, curve_.speed(power) / std::max(1.0, slowdown));
    if (grain_ > 0 && pace < 1.0) pace = std::floor(pace * grain_ * (1 + 1e-12)) / grain_;
    return pace;
  }
  double reshard_overhead(int) const override { return 0; }
  double healthy_step_s() const override { return step_; }
  double step_s(int microbatches) const override { return step_ * microbatches / m_; }

 private:
  double step_;
  int m_;
  double grain_;  // units of a replica's local batch (0: any fraction)
};

// Per-stage times from step_model.hpp, the step from the exact pipeline schedule. Results are
// cached per distinct (degree, power) vector; the common queries (one degraded stage, boost
// powers) hit the cache after their first computation.
class IterationCost final : public CostModel {
 public:
  IterationCost(const Scenario& s, PowerCurve curve, const calib::Profile& profile,
                const calib::ModelShape& shape, int lowest)
      : CostModel(std::move(curve), s.job.tp, s.job.groups_per_replica()),
        stages_(s.job.pp),
        m_(s.job.microbatches),
        v_(s.job.virtual_stages),
        lowest_(lowest),
        micro_batch_(s.job.micro_batch),
        local_batch_(s.cost.local_batch) {
    detail_.setup = step_setup(s, shape, profile);
    detail_.profile = profile;
    const StepSetup& setup = detail_.setup;
    // Stages that hold the same layers and ends cost the same: one breakdown per kind and
    // degree (first, middle and last stages, or more with a declared uneven split).
    std::vector<int> representative;
    stage_kind_.resize(static_cast<std::size_t>(stages_));
    for (int i = 0; i < stages_; ++i) {
      const auto same = [&](int j) {
        return setup.stage_layers[static_cast<std::size_t>(j)] ==
                   setup.stage_layers[static_cast<std::size_t>(i)] &&
               (j == 0) == (i == 0) && (j + 1 == stages_) == (i + 1 == stages_);
      };
      auto it = std::find_if(representative.begin(), representative.end(), same);
      stage_kind_[static_cast<std::size_t>(i)] = static_cast<int>(
          it == representative.end() ? representative.size() : it - representative.begin());
      if (it == representative.end()) representative.push_back(i);
    }
    kinds_.assign(representative.size(), std::vector<StageCost>(static_cast<std::size_t>(tp_) + 1));
    for (int t = lowest_; t <= tp_; ++t) {
      const LayerBreakdown layer = layer_breakdown(setup, profile, t);
      for (std::size_t k = 0; k < representative.size(); ++k) {
        const StageBreakdown b = stage_breakdown(setup, profile, t, representative[k], &layer);
        kinds_[k][static_cast<std::size_t>(t)] = {
            b.compute_fwd_s(), b.compute_bwd_s(), b.comm_fwd_s(),   b.comm_bwd_s(),
            b.p2p_s,           b.tail_s(),        b.params_per_gpu, b.dp_exposed_s};
      }
    }
    healthy_step_ = step_s(m_);
    rank_positions();
    for (const std::vector<int>& order : worst_by_degree_)
      detail_.worst_position.push_back(order.front());
    // Reshard (see shared/reference/ntp.md): each of the N1 - N2 extra ranks of a healthy
    // replica sends its whole gradient shard to the core ranks before the all-reduce and takes
    // it back after (over the domain's fabric), plus pack/unpack kernels; and the all-reduce on
    // N2 ranks carries N1/N2 of the volume each. Priced on the stage with the most parameters.
    reshard_.assign(static_cast<std::size_t>(tp_) + 1, 0);
    const StageCost& big = most_params(tp_);
    const double stage_params = big.params_per_gpu * tp_;
    for (int t = lowest_; t < tp_; ++t) {
      const double sent =
          2.0 * reshard_geometry(stage_params, tp_, t).sent_per_extra;  // bf16 bytes
      const double wire = 2 * sent / setup.nvlink_Bps +
                          2 * calib::reshard_time_s(profile, static_cast<std::int64_t>(sent));
      const double bigger_allreduce = big.dp_exposed_s * (static_cast<double>(tp_) / t - 1);
      reshard_[t] = ((1 - s.cost.reshard_overlap) * wire + bigger_allreduce) / healthy_step_;
    }
  }

  double replica_throughput(std::span<const int> degrees,
                            std::span<const double> powers) const override {
    bool healthy = true;
    for (std::size_t i = 0; i < degrees.size(); ++i) {
      if (degrees[i] < lowest_) return 0.0;  // below every strategy's min_tp: never run
      healthy = healthy && degrees[i] >= tp_ && powers[i] == 1.0;
    }
    if (healthy) return 1.0;
    // Where in the pipeline the degraded groups sit is not the strategies' business: the
    // lowest degrees take the positions where a slow stage costs most (worst case,
    // rank_positions). The key is that canonical order.
    thread_local std::vector<std::pair<int, double>> placed;
    placed.clear();
    for (std::size_t i = 0; i < degrees.size(); ++i)
      placed.emplace_back(std::min(degrees[i], tp_), powers[i]);
    // One entry per group of the replica (cp per stage): the lowest degrees take the worst
    // positions, one stage each (a stage runs at its slowest group's pace, so spreading them
    // is the worst case); other lengths (tests) keep their positions.
    const bool whole = placed.size() == static_cast<std::size_t>(pp_);
    if (whole) {
      std::sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
      });
      placed.resize(static_cast<std::size_t>(stages_));
    }
    std::vector<std::uint64_t> key;
    key.reserve(2 * placed.size());
    for (const auto& [d, p] : placed) {
      key.push_back(static_cast<std::uint64_t>(d));
      key.push_back(std::bit_cast<std::uint64_t>(p));
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    if (!whole && placed.size() > static_cast<std::size_t>(stages_))
      placed.resize(static_cast<std::size_t>(stages_));
    // Greedy worst case: the lowest degree takes its worst position, the next its worst
    // position not taken, and so on.
    std::vector<int> by_stage(placed.size(), tp_);
    std::vector<double> power_by_stage(placed.size(), 1.0);
    std::vector<char> taken(placed.size(), 0);
    for (std::size_t k = 0; k < placed.size(); ++k) {
      std::size_t at = k;
      if (whole) {
        for (const int pos : worst_first(placed[k].first))
          if (!taken[static_cast<std::size_t>(pos)]) {
            at = static_cast<std::size_t>(pos);
            break;
          }
        taken[at] = 1;
      }
      by_stage[at] = placed[k].first;
      power_by_stage[at] = placed[k].second;
    }
    const double r = compute_throughput(by_stage, power_by_stage);
    std::lock_guard<std::mutex> lock(mutex_);
    cache_.emplace(std::move(key), r);
    return r;
  }

  double boost_power(int degree, double max_power) const override {
    const auto key = std::make_pair(degree, max_power);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = boost_.find(key); it != boost_.end()) return it->second;
    }
    // CostModel::boost_power's bisection, each step asking only whether the replica keeps
    // pace (one schedule), not how much of a batch it can take when it does not (tens).
    const double p =
        bisect_boost(max_power, [&](double power) { return keeps_pace(degree, power); });
    std::lock_guard<std::mutex> lock(mutex_);
    boost_.emplace(key, p);
    return p;
  }

  double reshard_overhead(int degree) const override {
    return degree >= tp_ || degree < lowest_ ? 0.0 : reshard_[degree];
  }
  double slow_step_ratio(double slowdown, double power) const override {
    if (slowdown <= 1.0) return 1.0;
    // Three words, the first ~1: apart from slow_replica_throughput's (~0) and from
    // replica_throughput's keys (two words per stage).
    const std::vector<std::uint64_t> key{~std::uint64_t{1}, std::bit_cast<std::uint64_t>(slowdown),
                                         std::bit_cast<std::uint64_t>(power)};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    const double r = std::max(1.0, pipeline_step_s(slow_spec(slowdown, power)) / healthy_step_);
    std::lock_guard<std::mutex> lock(mutex_);
    cache_.emplace(key, r);
    return r;
  }
  double slow_replica_throughput(double slowdown, double power) const override {
    const std::vector<std::uint64_t> key{~std::uint64_t{0}, std::bit_cast<std::uint64_t>(slowdown),
                                         std::bit_cast<std::uint64_t>(power)};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    const double r = compute_throughput(slow_spec(slowdown, power));
    std::lock_guard<std::mutex> lock(mutex_);
    cache_.emplace(key, r);
    return r;
  }
  double healthy_step_s() const override { return healthy_step_; }
  const IterationDetail* iteration_detail() const override { return &detail_; }
  double state_copy_s() const override {
    return most_params(tp_).params_per_gpu * state_bytes_per_param() / detail_.setup.scaleout_Bps;
  }
  double ntp_reshard_s(int from, int to) const override {
    if (from == to || from < 1 || to < 1) return 0;
    const double stage_params = most_params(tp_).params_per_gpu * tp_;
    const auto g = reshard_geometry(stage_params, std::max(from, to), std::min(from, to));
    const double params = from > to ? g.moved_per_core : g.shard_n1;
    return params * state_bytes_per_param() / detail_.setup.nvlink_Bps;
  }
  double step_s(int microbatches) const override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = steps_.find(microbatches); it != steps_.end()) return it->second;
    }
    PipelineSpec spec = spec_for(std::vector<int>(static_cast<std::size_t>(stages_), tp_),
                                 std::vector<double>(static_cast<std::size_t>(stages_), 1.0));
    spec.microbatches = microbatches;
    const double t = pipeline_step_s(spec);
    std::lock_guard<std::mutex> lock(mutex_);
    steps_.emplace(microbatches, t);
    return t;
  }

 private:
  // One stage's costs at one degree (step_model.hpp's StageBreakdown, its sums only).
  struct StageCost {
    double compute_fwd_s = 0, compute_bwd_s = 0, comm_fwd_s = 0, comm_bwd_s = 0;
    double p2p_s = 0, tail_s = 0, params_per_gpu = 0, dp_exposed_s = 0;
    StageTimes times(double speed) const {
      return {compute_fwd_s / speed + comm_fwd_s, compute_bwd_s / speed + comm_bwd_s, p2p_s, p2p_s,
              tail_s};
    }
  };
  const StageCost& stage(int index, int degree) const {
    return kinds_[static_cast<std::size_t>(stage_kind_[static_cast<std::size_t>(index)])]
                 [static_cast<std::size_t>(degree)];
  }
  // The stage holding the most parameters per GPU (whose state moves take longest).
  const StageCost& most_params(int degree) const {
    const StageCost* best = &stage(0, degree);
    for (int i = 1; i < stages_; ++i)
      if (stage(i, degree).params_per_gpu > best->params_per_gpu) best = &stage(i, degree);
    return *best;
  }
  // Pipeline positions from the one where a slow stage costs the step most to the least, per
  // degree: each position probed with its stage at that degree, the others healthy (one
  // schedule each). Within kProbes schedules every degree is probed; beyond, only the lowest
  // and the others share its order; with no degree below tp, or above kProbes stages, from the
  // back (the last stage sits on the critical path of every micro-batch). Ties: the later
  // position first.
  static constexpr int kProbes = 128;
  void rank_positions() {
    std::vector<int> back(static_cast<std::size_t>(stages_));
    std::iota(back.rbegin(), back.rend(), 0);
    worst_by_degree_.assign(static_cast<std::size_t>(tp_) + 1, back);
    if (lowest_ >= tp_ || stages_ < 2 || stages_ > kProbes) return;
    const bool every = stages_ * (tp_ - lowest_) <= kProbes;
    std::vector<double> step(static_cast<std::size_t>(stages_));
    std::vector<int> degrees(static_cast<std::size_t>(stages_), tp_);
    const std::vector<double> powers(static_cast<std::size_t>(stages_), 1.0);
    for (int t = lowest_; t < tp_; ++t) {
      std::vector<int>& order = worst_by_degree_[static_cast<std::size_t>(t)];
      if (!every && t > lowest_) {
        order = worst_by_degree_[static_cast<std::size_t>(lowest_)];
        continue;
      }
      for (int i = 0; i < stages_; ++i) {
        degrees[static_cast<std::size_t>(i)] = t;
        step[static_cast<std::size_t>(i)] = pipeline_step_s(spec_for(degrees, powers));
        degrees[static_cast<std::size_t>(i)] = tp_;
      }
      std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        return step[static_cast<std::size_t>(x)] > step[static_cast<std::size_t>(y)];
      });
    }
  }
  const std::vector<int>& worst_first(int degree) const {
    return worst_by_degree_[static_cast<std::size_t>(std::clamp(degree, 1, tp_))];
  }
  double state_bytes_per_param() const { return 2.0 + 12.0 / std::max(1, detail_.setup.dp); }
  // The healthy replica with one full-degree stage at compute speed curve(power) / slowdown, at
  // the position where a slow stage costs the step most (the lowest degree's worst position).
  PipelineSpec slow_spec(double slowdown, double power) const {
    const std::vector<int> degrees(static_cast<std::size_t>(stages_), tp_);
    PipelineSpec spec = spec_for(degrees, std::vector<double>(degrees.size(), 1.0));
    const auto at = static_cast<std::size_t>(worst_first(lowest_).front());
    spec.stages[at] =
        stage(static_cast<int>(at), tp_).times(curve_.speed(power) / std::max(1.0, slowdown));
    return spec;
  }
  PipelineSpec spec_for(std::span<const int> degrees, std::span<const double> powers) const {
    PipelineSpec spec;
    spec.microbatches = m_;
    spec.virtual_stages = v_;
    spec.stages.reserve(degrees.size());
    for (std::size_t i = 0; i < degrees.size(); ++i)
      spec.stages.push_back(
          stage(static_cast<int>(i), std::min(degrees[i], tp_)).times(curve_.speed(powers[i])));
    return spec;
  }

  // replica_throughput(degree, power) >= 1, answered with one schedule: the worst position at
  // `degree` and `power`, the others healthy.
  bool keeps_pace(int degree, double power) const {
    if (degree < lowest_) return false;
    if (degree >= tp_ && power == 1.0) return true;
    std::vector<int> degrees(static_cast<std::size_t>(stages_), tp_);
    std::vector<double> powers(static_cast<std::size_t>(stages_), 1.0);
    const auto at = static_cast<std::size_t>(worst_first(degree).front());
    degrees[at] = degree;
    powers[at] = power;
    return pipeline_step_s(spec_for(degrees, powers)) <= healthy_step_ * (1 + 1e-12);
  }

  // The largest local batch whose step fits in the healthy step: whole micro-batches, then a
  // last one shortened by whole sequences (whole_samples), to any fraction (fractional), or
  // not at all (whole_microbatches).
  double compute_throughput(std::span<const int> degrees, std::span<const double> powers) const {
    return compute_throughput(spec_for(degrees, powers));
  }
  double compute_throughput(PipelineSpec spec) const {
    const double limit = healthy_step_ * (1 + 1e-12);
    auto step = [&](int k, double frac) {
      spec.microbatches = k;
      spec.last_fraction = frac;
      return pipeline_step_s(spec);
    };
    double t_hi = step(m_, 1.0);
    if (t_hi <= limit) return 1.0;
    int lo = 0, hi = m_;  // fits(lo) (0 trivially), !fits(hi)
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      const double t = step(mid, 1.0);
      if (t <= limit) {
        lo = mid;
      } else {
        hi = mid;
        t_hi = t;
      }
    }
    // One more micro-batch, cut to the largest j / grid of it that still fits: whole sequences
    // (whole_samples), j / 2^40 (fractional: as 40 halvings of [0, 1] find it), or nothing
    // (whole_microbatches); last_fitting finds j in fewer schedules than bisection.
    const std::int64_t grid = local_batch_ == CostSpec::LocalBatch::Fractional
                                  ? std::int64_t{1} << 40
                              : local_batch_ == CostSpec::LocalBatch::WholeSamples ? micro_batch_
                                                                                   : 1;
    double frac = 0;
    if (grid > 1) {
      const auto g = static_cast<double>(grid);
      const std::int64_t j = last_fitting(grid, t_hi, limit, [&](std::int64_t k) {
        return step(lo + 1, static_cast<double>(k) / g);
      });
      frac = static_cast<double>(j) / g;
    }
    return (lo + frac) / m_;
  }

  IterationDetail detail_;
  int stages_;  // pipeline stages; pp_ counts a replica's groups (cp per stage)
  int m_, v_, lowest_ = 1;
  int micro_batch_;
  CostSpec::LocalBatch local_batch_;
  double healthy_step_ = 0;
  std::vector<int> stage_kind_;                    // per pipeline position
  std::vector<std::vector<int>> worst_by_degree_;  // per degree: positions, rank_positions()
  std::vector<std::vector<StageCost>> kinds_;      // per kind, per degree
  std::vector<double> reshard_;
  mutable std::mutex mutex_;
  mutable std::map<std::vector<std::uint64_t>, double> cache_;
  mutable std::map<std::pair<int, double>, double> boost_;
  mutable std::map<int, double> steps_;
};

// The datasheet profile of a GPU for one model (calib::analytical_profile) and its hash, built
// once per process for the last few (GPU, model) pairs: a pure function of them, and most of a
// cost model's construction. Plans whose scenarios differ elsewhere (a sweep over the spare
// domains or the cluster's size, whose cost-model memo misses) and goodput-mpi's rank 0, which
// rebuilds each point another rank computed (point_from_record), share one.
struct DatasheetProfile {
  calib::Profile profile;
  std::string hash;  // calib::profile_hash(profile)
};

std::shared_ptr<const DatasheetProfile> datasheet_profile(const calib::GpuSpec& gpu,
                                                          const calib::ProfiledModel& pm) {
  static RecentMemo<std::pair<calib::GpuSpec, calib::ProfiledModel>, DatasheetProfile> memo;
  return memo.get({gpu, pm}, [&] {
    auto d = std::make_shared<DatasheetProfile>();
    d->profile = calib::analytical_profile(gpu, std::vector<calib::ProfiledModel>{pm});
    d->hash = calib::profile_hash(d->profile);
    return std::shared_ptr<const DatasheetProfile>(std::move(d));
  });
}

// A calibration profile file, parsed, and its hash: kept per process for the last few files by
// their path and bytes (read again each time, so an edited file is parsed again), since the
// plans of one analysis or sweep load the same profile dozens of times and its canonical hash
// costs more than the rest of a cost model's construction.
struct LoadedProfile {
  calib::Profile profile;
  std::string hash;  // calib::profile_hash(profile)
};

std::shared_ptr<const LoadedProfile> loaded_profile(const std::string& path) {
  static RecentMemo<std::pair<std::string, std::string>, LoadedProfile> memo;
  return memo.get({path, read_input_file(path, "the calibration profile")}, [&] {
    auto d = std::make_shared<LoadedProfile>();
    d->profile = calib::load_profile(path);
    d->hash = calib::profile_hash(d->profile);
    return std::shared_ptr<const LoadedProfile>(std::move(d));
  });
}

calib::ModelShape shape_of(const Scenario& s) {
  const Json& m = s.job.model;
  calib::ModelShape shape;
  shape.name = s.name;
  shape.hidden = m["hidden"].get<int>();
  shape.heads = m["heads"].get<int>();
  shape.kv_heads = m.contains("kv_heads") ? m["kv_heads"].get<int>() : shape.heads;
  shape.ffn = m["ffn"].get<int>();
  shape.gated_mlp = m["gated_mlp"].get<bool>();
  // Per CP rank: seq_len / cp tokens of each sequence (the step model restores the whole
  // sequence's attention work).
  shape.seq_len = m["seq_len"].get<int>() / std::max(1, s.job.cp);
  shape.micro_batch = s.job.micro_batch;
  return shape;
}

}  // namespace

bool uses_iteration_model(const Scenario& s) {
  return s.cost.model == CostSpec::Model::Iteration ||
         (s.cost.model == CostSpec::Model::Auto && !s.job.model.is_null());
}

std::shared_ptr<const CostModel> make_cost_model(const Scenario& s,
                                                 const std::vector<int>& tp_degrees,
                                                 CostInfo* info) {
  if (tp_degrees.empty() || tp_degrees.back() != s.job.tp ||
      !std::is_sorted(tp_degrees.begin(), tp_degrees.end()))
    throw std::invalid_argument("make_cost_model: tp_degrees must ascend to /job/tp");
  PowerCurve curve(s.cost.curve_power, s.cost.curve_speed,
                   s.cost.curve_extension == CostSpec::CurveExtension::Flat);
  if (!uses_iteration_model(s)) {
    if (info) *info = {CostSpec::Model::Proportional, "", "", "", "", s.job.step_s, {}};
    return std::make_shared<ProportionalCost>(s, curve);
  }
  // The exact schedule is laid out op by op: refuse one too large to lay out before any is.
  const double ops =
      schedule_ops(static_cast<std::size_t>(s.job.pp), s.job.microbatches, s.job.virtual_stages);
  if (ops > kMaxScheduleOps) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "the exact pipeline schedule of /job/pp %d x /job/microbatches %d x "
                  "/job/virtual_stages %d has %.3g ops (2 per micro-batch, chunk and stage), "
                  "more than the %.3g one schedule may have; ",
                  s.job.pp, s.job.microbatches, s.job.virtual_stages, ops, kMaxScheduleOps);
    throw InputError(s.file, "/job/microbatches",
                     std::string(buf) +
                         "lower /job/microbatches (a larger /job/micro_batch keeps the batch), "
                         "/job/pp or /job/virtual_stages, or set /cost/model to proportional");
  }
  const calib::ModelShape shape = shape_of(s);
  try {
    calib::validate(shape);
  } catch (const std::invalid_argument& e) {
    throw InputError(s.file, "/job/model", e.what());
  }
  calib::Profile profile;
  std::string hash;
  std::vector<int> interpolated;
  std::string path = s.cost.profile;
  if (path.empty()) {
    // The datasheet profile for this GPU (the catalogue's entry or /cluster/gpu_spec),
    // generated for exactly this model and TP range.
    // With the step's layout, so the memory-bound kernels of the loss and the optimizer have
    // entries at this job's sizes.
    calib::ProfiledModel pm;
    pm.shape = shape;
    pm.tp_max = s.job.tp;
    pm.tp_min = tp_degrees.front();
    pm.layout = calib::StepLayout{
        s.job.model["layers"].get<int>(),
        s.job.model.contains("vocab") ? s.job.model["vocab"].get<int>() : 1, s.job.pp,
        s.job.dp * s.job.cp};  // the optimizer's shards span dp x cp ranks
    const auto sheet = datasheet_profile(s.gpu, pm);
    profile = sheet->profile;
    hash = sheet->hash;
    path = "analytical:" + s.gpu.name;
  } else {
    const auto loaded = loaded_profile(path);
    profile = loaded->profile;
    // Every degree the strategies can reach must have been measured for this model shape;
    // /cost/interpolate lets the profile's fit answer for the others (listed in the report).
    interpolated = calib::uncovered_degrees(profile, shape, tp_degrees);
    if (!interpolated.empty() && !s.cost.interpolate) {
      std::string list;
      for (int t : interpolated) list += (list.empty() ? "" : ", ") + std::to_string(t);
      throw InputError(
          s.file, "/cost/profile",
          "profile " + path + " does not cover TP degree" + (interpolated.size() > 1 ? "s " : " ") +
              list +
              " of this model shape, which the scenario's strategies can reach; calibrate "
              "for this scenario (goodput-calibrate --scenario) or set /cost/interpolate to true");
    }
    hash = loaded->hash;
  }
  auto model = std::make_shared<IterationCost>(s, curve, profile, shape, tp_degrees.front());
  if (info)
    *info = {CostSpec::Model::Iteration,
             path,
             hash,
             profile.source == calib::Source::measured ? "measured" : "analytical",
             calib::device_name(profile),
             model->healthy_step_s(),
             interpolated};
  return model;
}

}  // namespace goodput
