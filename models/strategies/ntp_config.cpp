#include "models/strategies/ntp_config.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "models/cost/bisect_boost.hpp"

namespace goodput {

bool NtpConfig::operator==(const NtpConfig& o) const {
  if (use.size() != o.use.size() || replicas != o.replicas || extra_replicas != o.extra_replicas)
    return false;
  for (std::size_t i = 0; i < use.size(); ++i)
    if (use[i].domain != o.use[i].domain || use[i].full != o.use[i].full ||
        use[i].partial != o.use[i].partial)
      return false;
  return true;
}

double NtpOptions::boost_cap(int degree, int tp) const {
  double cap = std::min(max_power, board_cap);
  if (domain_budget_gpus > 0 && degree > 0)
    cap = std::min(cap, (domain_budget_gpus - (gpus_per_domain - tp)) / degree);
  return std::max(1.0, cap);
}

bool keeps_global_batch(double throughput, const JobSpec& job) {
  const double samples = static_cast<double>(job.dp) * job.microbatches * job.micro_batch;
  return (1 - throughput) * samples < 1 - 1e-9;
}

double extra_throughput(double throughput, int extra, const JobSpec& job) {
  return extra > 0 ? std::min(1.0, throughput + static_cast<double>(extra) / job.dp) : throughput;
}

int extra_replicas_for_batch(double throughput, const JobSpec& job) {
  if (keeps_global_batch(throughput, job)) return 0;
  const double per_replica = static_cast<double>(job.microbatches) * job.micro_batch;
  const double samples = per_replica * job.dp;
  const double short_by = (1 - throughput) * samples;  // >= 1 sample (less than 1e-9 below)
  // Each extra replica trains up to per_replica samples; the batch is kept once less than one
  // sample is missing: short_by - extra x per_replica < 1.
  auto extra = static_cast<int>(std::floor(std::max(0.0, short_by - 1) / per_replica)) + 1;
  while (extra > 1 && keeps_global_batch(extra_throughput(throughput, extra - 1, job), job))
    --extra;  // rounding: the closed form by one too many
  while (!keeps_global_batch(extra_throughput(throughput, extra, job), job)) ++extra;
  return extra;
}

int allowed_degree(const NtpOptions& o, int tp, int available) {
  int best = 0;
  if (o.allowed.empty()) {
    best = std::min(available, tp);
  } else {
    for (int d : o.allowed)
      if (d <= available && d <= tp && d > best) best = d;
  }
  return best >= o.min_tp ? best : 0;
}

NtpConfig ntp_config(const ClusterHealth& health, int tp, int pp, int dp, const NtpOptions& o,
                     const CostModel& cost, std::uint32_t domains) {
  const Topology& topo = health.topology();
  const std::uint32_t limit = std::min(domains, topo.domains());
  const std::int64_t needed = static_cast<std::int64_t>(dp) * pp;
  NtpConfig c;
  // Full groups, in domain order, up to what the job needs.
  std::int64_t full_used = 0;
  std::vector<NtpPartial> partials;
  c.use.reserve(limit);
  for (std::uint32_t d = 0; d < limit; ++d) {
    const int h = static_cast<int>(health.healthy_in_domain(d));
    const auto full =
        static_cast<std::uint32_t>(std::min<std::int64_t>(h / tp, needed - full_used));
    full_used += full;
    if (full) c.use.push_back({d, full, 0});
    const int rest = h - static_cast<int>(full) * tp;
    if (rest > 0 && rest < tp) {  // rest >= tp: a spare the job does not need, not a partial
      const int deg = allowed_degree(o, tp, rest);
      if (deg > 0) partials.push_back({deg, d});
    }
  }
  // Largest partial groups first (ties: lower domain), as many as the job still needs.
  std::stable_sort(partials.begin(), partials.end(),
                   [](const NtpPartial& a, const NtpPartial& b) { return a.degree > b.degree; });
  const auto take = static_cast<std::size_t>(std::max<std::int64_t>(
      0, std::min<std::int64_t>(static_cast<std::int64_t>(partials.size()), needed - full_used)));
  partials.resize(take);
  if (take > 0) {
    // Merge the chosen partial groups into the domain-ordered use list.
    std::vector<std::pair<std::uint32_t, int>> by_domain;
    for (const NtpPartial& p : partials) by_domain.push_back({p.domain, p.degree});
    std::sort(by_domain.begin(), by_domain.end());
    std::vector<NtpDomainUse> merged;
    merged.reserve(c.use.size() + by_domain.size());
    std::size_t j = 0;
    for (const auto& u : c.use) {
      for (; j < by_domain.size() && by_domain[j].first < u.domain; ++j)
        merged.push_back({by_domain[j].first, 0, static_cast<std::uint32_t>(by_domain[j].second)});
      merged.push_back(u);
      if (j < by_domain.size() && by_domain[j].first == u.domain)
        merged.back().partial = static_cast<std::uint32_t>(by_domain[j++].second);
    }
    for (; j < by_domain.size(); ++j)
      merged.push_back({by_domain[j].first, 0, static_cast<std::uint32_t>(by_domain[j].second)});
    c.use = std::move(merged);
  }
  CostMemo memo(cost);
  const std::vector<NtpDegreeRun> runs = degree_runs(partials);
  ntp_replica_figures(c, full_used, runs, tp, pp, dp, o, memo);
  return c;
}

std::vector<NtpDegreeRun> degree_runs(std::span<const NtpPartial> partials) {
  std::vector<NtpDegreeRun> runs;
  for (const NtpPartial& p : partials)
    if (!runs.empty() && runs.back().degree == p.degree)
      ++runs.back().count;
    else
      runs.push_back({p.degree, 1});
  return runs;
}

void ntp_replica_figures(NtpConfig& c, std::int64_t full_used, std::span<const NtpDegreeRun> runs,
                         int tp, int pp, int dp, const NtpOptions& o, CostMemo& cost,
                         WordMemo<NtpWindowFigures>* windows) {
  // Replicas and their pace: the exact pipeline schedule of the replica's stages, in order.
  // `copies` identical replicas are costed once and counted `copies` times, so the work grows
  // with the number of runs, not of groups.
  c.replicas = c.degraded_replicas = c.boosted_domains = c.capped_domains = 0;
  c.extra_replicas = 0;
  c.max_power = 1;
  c.extra_power_gpus = 0;
  double total = 0;
  int min_degree = tp;
  // Scratch reused across calls (this runs on every layout-changing event): no allocation once
  // warm. One set per thread; the function does not recurse.
  thread_local std::vector<double> powers, base, caps;
  thread_local std::vector<char> short_alone;       // per stage: short of pace alone at its cap
  thread_local std::vector<int> degrees, distinct;  // distinct: lower_to_least's
  thread_local std::vector<NtpDegreeRun> seq;
  const double useful = cost.model().power_curve().useful_power();
  // One degraded replica's figures: a pure function of its stage vector (for these options and
  // this cost model), so remembered by it when a memo is given.
  auto window_figures = [&](std::span<const int> stages) {
    NtpWindowFigures w{};
    w.min_degree = tp;
    powers.assign(stages.size(), 1.0);
    caps.assign(stages.size(), 1.0);
    short_alone.assign(stages.size(), 0);
    int last_degree = -1;  // stages come in runs of equal degree: one power lookup per run
    double last_power = 1.0, last_cap = 1.0;
    for (std::size_t i = 0; i < stages.size(); ++i) {
      const int deg = stages[i];
      if (deg >= tp) continue;
      if (deg != last_degree) {
        last_degree = deg;
        last_cap = o.boost ? std::min(o.boost_cap(deg, tp), useful) : 1.0;
        last_power = o.boost ? cost.boost_power(deg, last_cap) : 1.0;
      }
      powers[i] = last_power;
      caps[i] = last_cap;
      w.min_degree = std::min(w.min_degree, deg);
    }
    double r = cost.replica_throughput(stages, powers);
    int capped = 0;
    auto lower_to_least = [&](double kept) {
      distinct.clear();
      for (int deg : stages)
        if (deg < tp) distinct.push_back(deg);
      std::sort(distinct.begin(), distinct.end(), std::greater<>());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      for (int deg : distinct) {
        const auto first =
            static_cast<std::size_t>(std::find(stages.begin(), stages.end(), deg) - stages.begin());
        const double now = powers[first];
        if (now <= 1.0) continue;
        auto keeps = [&](double p) {
          for (std::size_t i = first; i < stages.size(); ++i)
            if (stages[i] == deg) powers[i] = p;
          return cost.replica_throughput(stages, powers) >= kept;
        };
        keeps(bisect_boost(now, keeps));  // `now` keeps it: the bisection's answer does too
      }
    };
    if (o.boost && r < 1.0) {
      // Each stage's power kept pace were it the only degraded one; together they fall short
      // (a stage's slack no longer hides another's): raise them together toward their caps,
      // by bisection on the share of the way, to the least that keeps the full batch.
      base = powers;
      auto at = [&](double share) {
        for (std::size_t i = 0; i < stages.size(); ++i)
          if (stages[i] < tp) powers[i] = base[i] + share * (caps[i] - base[i]);
        return cost.replica_throughput(stages, powers);
      };
      if (base != caps && at(1.0) >= 1.0) {
        double lo = 0, hi = 1;  // at(lo) < 1 <= at(hi)
        for (int k = 0; k < 50 && hi - lo > 1e-9; ++k) {
          const double mid = (lo + hi) / 2;
          (at(mid) >= 1.0 ? hi : lo) = mid;
        }
        r = at(hi);
      } else {
        r = at(1.0);
        // Capped: the stages that fall short alone at their cap (they keep the replica short,
        // whatever the others draw), or every degraded stage where only together they do. A
        // stage whose own least power is its cap may still keep pace there: asked directly.
        int last = -1;
        bool last_short = false, alone = false;
        for (std::size_t i = 0; i < stages.size(); ++i) {
          if (stages[i] >= tp) continue;
          if (stages[i] != last) {
            last = stages[i];
            last_short =
                base[i] >= caps[i] && cost.model().replica_throughput(stages[i], caps[i]) < 1.0;
          }
          short_alone[i] = last_short;
          alone = alone || last_short;
        }
        for (std::size_t i = 0; i < stages.size(); ++i)
          capped += stages[i] < tp && (!alone || short_alone[i]);
      }
      // Raised together, a stage may run above what it needs: one with slack beside the stage
      // that sets the pace, or any stage where whole samples round the batch down to what less
      // power also keeps. Each degree in turn, from the highest (the most slack), gets the least
      // power that still keeps r; power that buys nothing is not drawn.
      lower_to_least(r);
    }
    w.throughput = r;
    w.capped = capped;
    w.max_power = 1;
    for (std::size_t i = 0; i < stages.size(); ++i)
      if (stages[i] < tp && powers[i] > 1) {
        w.extra_power_gpus += (powers[i] - 1) * stages[i];
        ++w.boosted;
        w.max_power = std::max(w.max_power, powers[i]);
      }
    return w;
  };
  auto add_degraded_replicas = [&](std::span<const int> stages, std::int64_t copies) {
    NtpWindowFigures w;
    if (windows) {
      std::vector<std::uint64_t>& key = windows->key();
      for (std::size_t i = 0; i < stages.size();) {
        std::size_t j = i + 1;
        while (j < stages.size() && stages[j] == stages[i]) ++j;
        key.push_back(static_cast<std::uint64_t>(j - i) << 32 |
                      static_cast<std::uint32_t>(stages[i]));
        i = j;
      }
      if (const NtpWindowFigures* known = windows->find()) {
        w = *known;
      } else {
        w = window_figures(stages);
        windows->insert(w);
      }
    } else {
      w = window_figures(stages);
    }
    min_degree = std::min(min_degree, w.min_degree);
    c.max_power = std::max(c.max_power, w.max_power);
    const auto n = static_cast<double>(copies);
    total += n * w.throughput;
    c.extra_power_gpus += n * w.extra_power_gpus;
    c.boosted_domains += static_cast<int>(copies) * w.boosted;
    c.capped_domains += static_cast<int>(copies) * w.capped;
    c.degraded_replicas += static_cast<int>(copies);
  };
  std::int64_t partial_groups = 0;
  for (const NtpDegreeRun& run : runs) partial_groups += run.count;
  const auto groups = full_used + partial_groups;
  if (o.packing) {
    c.replicas = static_cast<int>(std::min<std::int64_t>(dp, groups / pp));
    const auto full_replicas = static_cast<int>(std::min<std::int64_t>(c.replicas, full_used / pp));
    total += full_replicas;
    // The remaining replicas take the leftover full groups then the partials, in degree order:
    // a sequence of runs cut into windows of pp stages. A window inside one run of degree d is
    // pp stages at d, as are the next ones while the run lasts: costed once.
    seq.clear();
    const std::int64_t leftover = full_used - static_cast<std::int64_t>(full_replicas) * pp;
    if (leftover > 0) seq.push_back({tp, leftover});
    seq.insert(seq.end(), runs.begin(), runs.end());
    std::size_t j = 0;       // run of the next stage
    std::int64_t taken = 0;  // stages of seq[j] already placed
    std::int64_t left = c.replicas - full_replicas;
    while (left > 0 && j < seq.size()) {
      const std::int64_t in_run = seq[j].count - taken;
      if (in_run >= pp) {
        const std::int64_t copies = std::min(left, in_run / pp);
        degrees.assign(static_cast<std::size_t>(pp), seq[j].degree);
        add_degraded_replicas(degrees, copies);
        taken += copies * pp;
        left -= copies;
      } else {
        degrees.clear();
        while (static_cast<int>(degrees.size()) < pp) {
          if (taken == seq[j].count) ++j, taken = 0;
          const auto n = std::min<std::int64_t>(seq[j].count - taken,
                                                pp - static_cast<std::int64_t>(degrees.size()));
          degrees.insert(degrees.end(), static_cast<std::size_t>(n), seq[j].degree);
          taken += n;
        }
        add_degraded_replicas(degrees, 1);
        --left;
      }
      if (j < seq.size() && taken == seq[j].count) ++j, taken = 0;
    }
  } else {
    // Each partial group sits in a replica whose other pp - 1 stages are full groups.
    std::int64_t full_left = full_used;
    degrees.assign(static_cast<std::size_t>(pp), tp);
    for (const NtpDegreeRun& run : runs) {
      // As many of this run as the full groups and dp allow; stop at the first that does not fit.
      std::int64_t copies = std::min<std::int64_t>(run.count, dp - c.replicas);
      if (pp > 1) copies = std::min<std::int64_t>(copies, full_left / (pp - 1));
      if (copies <= 0) break;
      full_left -= copies * (pp - 1);
      degrees.back() = run.degree;  // the partial group takes the replica's last stage
      add_degraded_replicas(degrees, copies);
      c.replicas += static_cast<int>(copies);
      if (copies < run.count) break;
    }
    const int healthy = static_cast<int>(std::min<std::int64_t>(dp - c.replicas, full_left / pp));
    c.replicas += healthy;
    total += healthy;
  }
  c.min_degree = min_degree;
  c.throughput = total / dp;
  c.reshard = c.degraded_replicas > 0 ? cost.model().reshard_overhead(min_degree) : 0.0;
}

void NtpFigures::fill(NtpConfig& c, std::int64_t full_used, std::span<const NtpDegreeRun> runs) {
  std::vector<std::uint64_t>& key = memo_.key();
  key.push_back(static_cast<std::uint64_t>(full_used));
  for (const NtpDegreeRun& r : runs)
    key.push_back(static_cast<std::uint64_t>(r.count) << 16 | static_cast<std::uint16_t>(r.degree));
  if (const Figures* f = memo_.find()) {
    c.extra_replicas = 0;
    c.replicas = f->replicas;
    c.degraded_replicas = f->degraded_replicas;
    c.min_degree = f->min_degree;
    c.boosted_domains = f->boosted_domains;
    c.capped_domains = f->capped_domains;
    c.max_power = f->max_power;
    c.throughput = f->throughput;
    c.reshard = f->reshard;
    c.extra_power_gpus = f->extra_power_gpus;
    return;
  }
  ntp_replica_figures(c, full_used, runs, tp_, pp_, dp_, o_, *cost_, &windows_);
  memo_.insert({c.replicas, c.degraded_replicas, c.min_degree, c.boosted_domains, c.capped_domains,
                c.throughput, c.reshard, c.extra_power_gpus, c.max_power});
}

}  // namespace goodput
