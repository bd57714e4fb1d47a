// The layout nonuniform tensor parallelism would run on the current healthy GPUs. Each domain
// offers floor(healthy / tp) full TP groups and, from the GPUs left over, at most one partial
// group at the highest allowed degree >= min_tp. The job takes the full groups first, then the
// largest partial groups, up to dp x pp. With packing, groups are sorted by degree and cut into
// replicas of pp stages, so damaged groups share as few replicas as possible; without it each
// partial group degrades a replica of its own (as its last stage). A replica's stages keep their
// order (full groups first, then partial groups by falling degree) and its throughput is the
// cost model's for that stage vector; with boost, each degraded stage gets the least power
// that would keep the full batch were it the only degraded stage (up to its cap), raised
// together toward their caps when the replica's stages together still fall short, then each
// degree, highest first, lowered to the least power that still keeps what the replica keeps
// (no power that buys no sample). Capped: the stages short alone at their cap (every degraded
// stage of a replica whose stages fall short only together). A stage's
// cap (boost_cap) is the least of max_power, the GPU's rated board power over its nominal
// power, the domain's power budget and the power past which the curve buys no speed.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "models/cost/cost_memo.hpp"
#include "models/cost/cost_model.hpp"
#include "models/job/cluster_health.hpp"
#include "sim/core/word_memo.hpp"

namespace goodput {

struct NtpOptions {
  int min_tp = 1;
  std::vector<int> allowed;  // empty: every degree from min_tp to tp
  bool packing = true;
  bool boost = false;
  double max_power = 1.3;
  // Physical limits (read_ntp_options fills them from the scenario; defaults: none).
  double board_cap = 1e300;       // rated maximum board power / nominal power
  double domain_budget_gpus = 0;  // domain power budget in nominal GPU powers (0: none)
  int gpus_per_domain = 0;
  // The highest power multiplier a partial group of `degree` (of tp) may get: max_power, the
  // board cap, and the domain budget less the domain's other GPUs at nominal power (its
  // failed GPUs draw none): (budget - (gpus_per_domain - tp)) / degree; never below 1.
  double boost_cap(int degree, int tp) const;
  bool operator==(const NtpOptions&) const = default;
};

struct NtpDomainUse {
  std::uint32_t domain;
  std::uint32_t full;     // full groups used
  std::uint32_t partial;  // degree of the partial group used, 0: none
};

struct NtpConfig {
  std::vector<NtpDomainUse> use;  // domains the job uses
  int replicas = 0;               // replicas formed (<= dp)
  int degraded_replicas = 0;
  int min_degree = 0;           // lowest degree in use (tp when none is degraded)
  double throughput = 0;        // sum of replica contributions / dp
  double reshard = 0;           // share of each step lost to the reshard
  double extra_power_gpus = 0;  // boost: (power - 1) x degree, summed over boosted groups
  int boosted_domains = 0;
  int capped_domains = 0;  // boosted groups at their cap in replicas still short of the batch
  double max_power = 1;    // boost: the highest power multiplier any GPU of the layout gets
  // /job/batch fixed: extra replicas on spare domains (pp full groups each, not counted in
  // `replicas`) that train the samples the replicas above fall short by; `throughput` then
  // includes theirs (at most 1: the global batch is never exceeded).
  int extra_replicas = 0;
  bool operator==(const NtpConfig& o) const;
};

// A partial group the layout takes: its degree and domain. Ranked by degree falling, then
// domain rising (the order ntp_config takes them in).
struct NtpPartial {
  int degree;
  std::uint32_t domain;
};

int allowed_degree(const NtpOptions& o, int tp, int available);  // 0: none
// Under /job/batch fixed: whether a layout training `throughput` of the job's samples per step
// keeps the global batch, counted in whole samples (dp x microbatches x micro_batch per step):
// a shortfall below one sample is none (the layout then runs at its throughput).
bool keeps_global_batch(double throughput, const JobSpec& job);
// Under /job/batch fixed: the fewest extra replicas (each training up to a whole replica's
// microbatches x micro_batch samples, the last only as many whole samples as are still missing)
// that bring a layout training `throughput` of the global batch back to it:
// ceil((shortfall - 1) / replica samples) for a shortfall of one sample or more, else 0. With
// them the layout trains min(1, throughput + extra / dp) of the batch (extra_throughput).
int extra_replicas_for_batch(double throughput, const JobSpec& job);
double extra_throughput(double throughput, int extra, const JobSpec& job);
// `domains`: only the first `domains` domains may be used (default: all).
NtpConfig ntp_config(const ClusterHealth& health, int tp, int pp, int dp, const NtpOptions& o,
                     const CostModel& cost, std::uint32_t domains = UINT32_MAX);
// Partial groups of one degree taken together: `count` groups at `degree`.
struct NtpDegreeRun {
  int degree;
  std::int64_t count;
};
// The runs of partial groups in rank order (degree falling): consecutive equal degrees merged.
std::vector<NtpDegreeRun> degree_runs(std::span<const NtpPartial> partials);

// ntp_config's second half: every field but `use` of the layout that takes `full_used` full
// groups and the partial groups `runs` (degree falling; at most dp x pp - full_used in all).
// Identical replicas are costed once, so the work grows with the number of runs, not of groups.
// The memo answers the cost queries (a strategy keeps one per lane; see cost_memo.hpp).
// `windows` (optional): the figures of each degraded replica's stage vector, remembered for
// these options and this cost model (NtpFigures keeps one); the values are the same without it.
struct NtpWindowFigures {
  double throughput;  // the replica's, with its stages' powers
  double extra_power_gpus;
  double max_power;  // the highest power of a boosted stage (1: none)
  int boosted, capped, min_degree;
};
void ntp_replica_figures(NtpConfig& c, std::int64_t full_used, std::span<const NtpDegreeRun> runs,
                         int tp, int pp, int dp, const NtpOptions& o, CostMemo& cost,
                         WordMemo<NtpWindowFigures>* windows = nullptr);

// ntp_replica_figures for one job (tp, pp, dp) and one set of options, remembered by
// (full_used, runs): a long run keeps going back to the same few layouts (a handful of damaged
// domains at a time), so most layout changes find their figures here instead of costing the
// replicas again; a layout it has not seen usually degrades replicas it has (the same stage
// vectors beside another count of whole ones), whose figures it keeps too (windows_). One per
// simulation lane (single-threaded, like CostMemo). Contract: fill() sets every field but `use`
// to exactly ntp_replica_figures' values.
class NtpFigures {
 public:
  NtpFigures(int tp, int pp, int dp, NtpOptions o, CostMemo& cost)
      : tp_(tp), pp_(pp), dp_(dp), o_(std::move(o)), cost_(&cost) {}
  void fill(NtpConfig& c, std::int64_t full_used, std::span<const NtpDegreeRun> runs);
  int pp() const { return pp_; }
  int dp() const { return dp_; }
  std::size_t remembered() const { return memo_.size(); }
  std::size_t windows_remembered() const { return windows_.size(); }  // stage vectors costed

 private:
  struct Figures {
    int replicas, degraded_replicas, min_degree, boosted_domains, capped_domains;
    double throughput, reshard, extra_power_gpus, max_power;
  };
  int tp_, pp_, dp_;
  NtpOptions o_;
  CostMemo* cost_;
  WordMemo<Figures> memo_;              // key: full_used, then (count << 16 | degree) per run
  WordMemo<NtpWindowFigures> windows_;  // key: (run length << 32 | degree) per run of stages
};

}  // namespace goodput
