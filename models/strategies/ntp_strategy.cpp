#include "models/strategies/ntp_strategy.hpp"

#include <algorithm>
#include <string>

#include "models/strategies/tp_degrees.hpp"
#include "models/strategies/tp_rule_read.hpp"
#include "sim/core/error.hpp"

namespace goodput {

Phase ntp_phase(const NtpConfig& c) {
  Phase p;
  p.rate = c.throughput * (1 - c.reshard);
  p.loss[static_cast<int>(Bucket::DegradedCapacity)] = 1 - c.throughput;
  p.loss[static_cast<int>(Bucket::ReshardOverhead)] = c.throughput * c.reshard;
  return p;
}

void NtpJob::set_domain(std::uint32_t d, std::uint32_t full, std::uint32_t partial) {
  JobLayout& layout = *ctx().layout;
  const bool used = full || partial, was_used = use_full_[d] || use_partial_[d];
  new_domains_ = new_domains_ || (used && !was_used);
  // A domain leaving the config is emptied; one the layout already holds no group in is left
  // (assign(d, 0, 0) would find nothing to change there).
  if (used ? layout.assigned(d) != full || layout.partial(d) != partial
           : was_used && (layout.assigned(d) != 0 || layout.partial(d) != 0))
    layout.assign(d, full, partial);
  if (full != use_full_[d] || partial != use_partial_[d])
    note_change(use_full_[d], use_partial_[d], full, partial);
  use_full_[d] = full;
  use_partial_[d] = static_cast<std::uint16_t>(partial);
}

void NtpJob::note_change(std::uint32_t full0, std::uint32_t partial0, std::uint32_t full,
                         std::uint32_t partial) {
  // The fewest groups whose degree changes between the domain's old degrees (full0 x tp,
  // partial0) and its new ones (full x tp, partial): groups of the same degree stay; a group
  // that only vanishes (its stage moves elsewhere) or only appears (fresh hardware, its state
  // from a peer) reshards nothing. What is left is at most one group that changes degree:
  // the partial group shrinking or growing (partial0 -> partial, partial0 -> tp when it grows
  // into a full group), or a full group shrinking to the new partial (tp -> partial).
  if (partial0 == partial) return;
  const auto tp = static_cast<std::uint32_t>(scenario().job.tp);
  std::uint32_t from = 0, to = 0;
  if (full0 > full) {  // full groups lost: the new partial group is an old group, shrunk
    from = partial0 ? partial0 : tp;
    to = partial;
  } else if (full > full0) {  // full groups gained: the old partial group grew into one
    from = partial0;
    to = tp;
  } else {
    from = partial0;
    to = partial;
  }
  if (from == 0 || to == 0 || from == to) return;
  ++changed_.groups;
  changed_.reshard_s = std::max(changed_.reshard_s,
                                ntp_reshard_price_s(static_cast<int>(from), static_cast<int>(to)));
}

void NtpJob::sync_indexes() {
  const int tp = scenario().job.tp;
  if (!caps_) {
    auto make = [&] { return std::make_unique<Indexes>(*ctx().health, tp, o_.layout); };
    Indexes* indexes = nullptr;
    if (ctx().shared) {
      // What the indexes depend on: tp and the degree rule (min_tp, allowed_tp).
      std::string key =
          "ntp-indexes/" + std::to_string(tp) + "/" + std::to_string(o_.layout.min_tp);
      for (int d : o_.layout.allowed) key += "," + std::to_string(d);
      indexes = &ctx().shared->get<Indexes>(key, make);
    } else {
      own_indexes_ = make();
      indexes = own_indexes_.get();
    }
    caps_ = &indexes->caps;
    partial_index_ = &indexes->partial;
  }
  if (!memo_) {
    std::unique_ptr<StrategyMemo>& slot = ctx().memo ? *ctx().memo : own_memo_;
    memo_ = dynamic_cast<Memo*>(slot.get());
    if (!memo_) {  // the slot's first run
      slot = std::make_unique<Memo>(*ctx().cost, scenario().job, o_.layout);
      memo_ = static_cast<Memo*>(slot.get());
    }
  }
  caps_->sync();
  partial_index_->sync();
}

void NtpJob::apply_layout(std::uint32_t cut, std::uint32_t cut_full, const NtpPartialChoice& choice,
                          std::uint32_t partial_limit) {
  auto target = [&](std::uint32_t d) {
    const bool partial = d < partial_limit && partial_index_->taken(choice, d);
    set_domain(d,
               d < cut    ? caps_->cap(d)
               : d == cut ? cut_full
                          : 0,
               partial ? static_cast<std::uint32_t>(partial_index_->degree(d)) : 0);
  };
  const std::uint32_t domains = ctx().health->topology().domains();
  const auto& log = ctx().health->changed_domains();
  if (!targeted_ || applied_log_ > log.size()) {
    for (std::uint32_t d = 0; d < domains; ++d) target(d);
  } else {
    // Elsewhere the capacity, the side of the cut, the partial group and its side of the
    // partial threshold are as at the last apply, and so is the layout.
    for (std::size_t k = applied_log_; k < log.size(); ++k) target(log[k]);
    const std::uint32_t last = std::min(std::max(cut, applied_cut_), domains - 1);
    for (std::uint32_t d = std::min(cut, applied_cut_); d <= last; ++d) target(d);
    // Domains whose side of the partial groups' limit changed (spare domains: few).
    const std::uint32_t below = std::min(std::max(partial_limit, applied_limit_), domains);
    for (std::uint32_t d = std::min(partial_limit, applied_limit_); d < below; ++d)
      if (d < std::min(cut, applied_cut_) || d > last) target(d);
    partial_index_->for_each_between(applied_choice_, choice, target);
  }
  targeted_ = true;
  applied_cut_ = cut;
  applied_limit_ = partial_limit;
  applied_choice_.slot = choice.slot;
  applied_choice_.cut = choice.cut;
  applied_log_ = log.size();
}

void NtpJob::apply_covering() {
  const JobSpec& j = scenario().job;
  std::int64_t before = 0;
  const std::uint32_t cut = caps_->cutoff(static_cast<std::int64_t>(j.dp) * j.pp, &before);
  apply_layout(cut, static_cast<std::uint32_t>(static_cast<std::int64_t>(j.dp) * j.pp - before),
               NtpPartialChoice{}, cut);
  // ntp_config's values when full groups cover the job: every replica whole, nothing degraded.
  config_ = NtpConfig{};
  config_.replicas = j.dp;
  config_.min_degree = j.tp;
  config_.throughput = 1.0;
  active_ = config_.replicas;
  ctx().signals->boost(ctx().sim->now(), 0, 0, 0);
}

void NtpJob::apply_short(const Candidate& c) {
  // Every full group below the cut (cut_full at it), plus the chosen partial groups.
  apply_layout(c.cut, c.cut_full, c.choice, c.limit);
  config_ = c.config;
  active_ = c.config.replicas;
  ctx().signals->boost(ctx().sim->now(), c.config.extra_power_gpus, c.config.boosted_domains,
                       c.config.capped_domains);
}

void NtpJob::on_layout_reset() {
  config_ = NtpConfig{};
  new_domains_ = false;
  changed_ = last_ = {};
  // The controller laid out dp x pp full groups; describe them (and drop any partial group).
  JobLayout& layout = *ctx().layout;
  const std::uint32_t domains = ctx().health->topology().domains();
  use_full_.assign(domains, 0);
  use_partial_.assign(domains, 0);
  applied_choice_ = NtpPartialChoice{};
  targeted_ = false;
  for (std::uint32_t d = 0; d < domains; ++d) {
    if (layout.partial(d)) layout.assign(d, layout.assigned(d), 0);
    use_full_[d] = layout.assigned(d);
  }
  config_.replicas = scenario().job.dp;
  config_.min_degree = scenario().job.tp;
  config_.throughput = 1.0;
  active_ = config_.replicas;
  ctx().signals->boost(ctx().sim->now(), 0, 0, 0);
}

JobController::Steps NtpJob::reconfiguration_steps(bool planned, std::uint32_t groups,
                                                   double reshard_s, std::uint32_t extras) const {
  Steps steps;  // the one object returned, built in place (no copy of its 8 places)
  if (!o_.inplace) {
    steps.push_back(pay(Mechanism::JobRestart));
    steps.push_back(pay(Mechanism::CheckpointLoad));
    return steps;
  }
  if (new_domains_) steps.push_back(pay(Mechanism::SpareSwapIn));
  // The lost GPUs' shards (a fault), and each attached extra replica's state, from a DP peer,
  // all at once: one stall, each paid.
  const std::uint32_t copies = (planned ? 0 : 1) + extras;
  if (copies > 0) steps.push_back(pay_each(Mechanism::StateCopy, copies));
  if (groups > 0) {
    // Every changed group reshards and re-forms its TP communicator, each inside its own
    // NVLink domain, all at once: the stall is the slowest, each group is paid.
    steps.push_back(pay_each(Mechanism::NtpReshard, reshard_s, groups));
    steps.push_back(pay_each(Mechanism::NtpReconfig, groups));
  }
  // Attached extra replicas join in the communicator rebuild below (it starts after their
  // state copy): each rejoin paid, no stall of its own.
  if (extras > 0) steps.push_back(pay_each(Mechanism::Rejoin, 0, extras));
  steps.push_back(pay(Mechanism::CommunicatorRebuild));
  return steps;
}

void NtpJob::reconfigure(bool planned) {
  const bool rollback = !o_.inplace && !o_.in_memory_recovery && !planned;
  recover(reconfiguration_steps(planned, changed_.groups, changed_.reshard_s, changed_.extras),
          rollback, planned);
  new_domains_ = false;
  last_ = changed_;
  changed_ = {};
}

void NtpJob::candidate(bool own, Candidate* c) {
  const JobSpec& j = scenario().job;
  const std::uint32_t all = ctx().health->topology().domains();
  const auto spares = static_cast<std::uint32_t>(std::max(0, scenario().spare_domains));
  const std::uint32_t limit = own ? all - std::min(all, spares) : all;
  c->own = own;
  c->limit = limit;
  c->cut = limit;
  c->cut_full = 0;
  c->config = NtpConfig{};
  c->choice.slot = 0;
  c->choice.cut = 0;
  c->choice.runs.clear();
  c->covering = caps_->prefix(limit) >= static_cast<std::int64_t>(j.dp) * j.pp;
  if (c->covering) {
    c->rate = 1.0;
    return;
  }
  c->config = ntp_short_config(*caps_, *partial_index_, limit, memo_->figures, &c->choice);
  c->rate = c->config.throughput * (1 - c->config.reshard);
  if (j.fixed_batch && !keeps_global_batch(c->config.throughput, j))
    c->rate = 0;  // would pause: short of the batch
}

bool NtpJob::with_extra_replicas(const Candidate& own, Candidate* out) const {
  const JobSpec& j = scenario().job;
  const int extra = extra_replicas_for_batch(own.config.throughput, j);
  if (extra <= 0) return false;
  // The spare domains' healthy full groups, after every full group of the own domains (a short
  // layout takes them all): the extra replicas take the first extra x pp of them.
  const std::int64_t used = caps_->prefix(own.limit);
  const std::int64_t needed = static_cast<std::int64_t>(extra) * j.pp;
  if (caps_->total() - used < needed) return false;
  *out = own;
  out->own = false;
  std::int64_t before = 0;
  out->cut = caps_->cutoff(used + needed, &before);
  out->cut_full = static_cast<std::uint32_t>(used + needed - before);
  out->config.extra_replicas = extra;
  out->config.throughput = extra_throughput(own.config.throughput, extra, j);
  out->rate = out->config.throughput * (1 - out->config.reshard);
  return true;
}

bool ntp_spare_repays(double any, double own, double faults_per_hour, double repair_s,
                      double swap_s) {
  if (any <= own) return false;
  if (own <= 0 || (faults_per_hour <= 0 && repair_s <= 0)) return true;  // keeps it running
  double until_s = faults_per_hour > 0 ? 3600.0 / faults_per_hour : repair_s;
  if (repair_s > 0) until_s = std::min(until_s, repair_s);
  return (any - own) * until_s > swap_s;
}

const NtpJob::Candidate& NtpJob::best_candidate(double repair_s) {
  sync_indexes();
  candidate(true, &own_);
  if (scenario().spare_domains <= 0 || own_.covering) return own_;
  candidate(false, &any_);
  // Spares replace damaged groups (any_) unless, under a fixed batch the own domains cannot
  // keep, extra replicas on them keep it at a better rate.
  const Candidate* spare = &any_;
  if (scenario().job.fixed_batch && own_.rate <= 0 && with_extra_replicas(own_, &extra_) &&
      extra_.rate > any_.rate)
    spare = &extra_;
  return ntp_spare_repays(spare->rate, own_.rate, ctx().job_faults_per_hour, repair_s,
                          price_s(Mechanism::SpareSwapIn))
             ? *spare
             : own_;
}

void NtpJob::take(const Candidate& c) {
  const int extras_before = config_.extra_replicas;
  if (c.covering)
    apply_covering();
  else
    apply_short(c);
  if (config_.extra_replicas > extras_before)
    changed_.extras += static_cast<std::uint32_t>(config_.extra_replicas - extras_before);
}

void NtpJob::react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) {
  // Fast path: every hit domain was refilled in place (idle GPUs of the domain stood in), so the
  // layout is unchanged; the job still pays the reconfiguration (the new GPU needs its shard).
  const JobLayout& layout = *ctx().layout;
  new_domains_ = false;
  start_changes();
  bool unchanged = true;
  for (std::uint32_t d : hit_domains) {
    const bool used = use_full_[d] || use_partial_[d];
    unchanged = unchanged && used && layout.assigned(d) == use_full_[d] &&
                layout.partial(d) == use_partial_[d];
  }
  if (!unchanged) {
    // The damage lasts the expected repair of this fault's class (the declared model's mean).
    const auto cls = impact.fault ? impact.fault->fault_class : 0;
    const double repair_s =
        cls < ctx().expected_repair_s.size() ? ctx().expected_repair_s[cls] : 0.0;
    const Candidate& next = best_candidate(repair_s);
    if (!next.covering && next.config.replicas == 0) {
      recover_by_restart(hit_domains);
      return;
    }
    take(next);
  }
  reconfigure(false);
}

void NtpJob::start_changes() {
  // A reconfiguration cut short by this one starts over with the groups of both.
  changed_ = running() || waiting() ? Changed{} : last_;
}

void NtpJob::react_repair(const RepairImpact& impact) {
  if (!o_.upgrade_on_repair && !waiting()) return;
  start_changes();
  // Nothing to gain when the job already runs every replica whole.
  if (config_.replicas == scenario().job.dp && config_.degraded_replicas == 0) return;
  // Nor when no repaired domain can now offer more than the layout takes from it (a further
  // full group, or a partial group of a higher degree): the best layout is unchanged.
  const int tp = scenario().job.tp;
  bool offers_more = false;
  // What the upgrade is expected to pay: the repaired domains' partial groups that grow (into
  // a full group or a partial group of a higher degree) reshard and re-form.
  std::uint32_t groups = 0;
  double reshard_s = 0;
  for (std::uint32_t d : impact.domains) {
    const auto healthy = static_cast<int>(ctx().health->healthy_in_domain(d));
    const auto full = static_cast<std::uint32_t>(healthy / tp);
    const int rest = healthy - static_cast<int>(use_full_[d]) * tp;
    const int higher = rest > 0 && rest < tp ? allowed_degree(o_.layout, tp, rest) : 0;
    const bool more_full = full > use_full_[d], higher_partial = higher > use_partial_[d];
    offers_more = offers_more || more_full || higher_partial;
    if (use_partial_[d] > 0 && (more_full || higher_partial)) {
      ++groups;
      reshard_s =
          std::max(reshard_s, ntp_reshard_price_s(use_partial_[d], more_full ? tp : higher));
    }
  }
  if (!offers_more) return;
  // The next fault that changes the layout reconfigures anyway (and takes the better layout
  // then): upgrade now only if the gain repays the stall before that fault is expected (the
  // controller's rule, repays()).
  const double now_rate = config_.throughput * (1 - config_.reshard);
  auto stall_s = [&](const Steps& steps) {
    double total = 0;
    for (const Step& s : steps) total += static_cast<double>(s.duration) / kMillisPerSecond;
    return total;
  };
  // Extra replicas (fixed batch) are spare hardware lent to make up a shortfall: they go back
  // as soon as the repaired own domains need fewer of them (a planned reconfiguration, whatever
  // its rate gain), so a job holding any always looks.
  const bool holding = config_.extra_replicas > 0;
  // Not even the largest gain (to rate 1) repays the smallest stall (the steps every planned
  // reconfiguration pays, without a reshard or a swap-in): the test below would refuse any
  // candidate, so do not search for one. Most repairs of a large job end here.
  if (!waiting() && !holding && !repays(1 - now_rate, stall_s(reconfiguration_steps(true, 0, 0))))
    return;
  // The damage left lasts a repair of the failure model's mean (rate-weighted over classes).
  const Candidate& next = best_candidate(ctx().mean_expected_repair_s);
  const bool release = next.config.extra_replicas < config_.extra_replicas &&
                       (next.own || next.config.extra_replicas > 0);
  if (!release) {
    const double gain = next.rate - now_rate;
    if (gain <= 1e-12) return;
    if (!waiting()) {
      const double swap_s = next.own ? 0.0 : price_s(Mechanism::SpareSwapIn);
      const auto extras = static_cast<std::uint32_t>(
          std::max(0, next.config.extra_replicas - config_.extra_replicas));
      if (!repays(gain, swap_s + stall_s(reconfiguration_steps(true, groups, reshard_s, extras))))
        return;
    }
  }
  new_domains_ = false;
  take(next);
  // An upgrade after repairs: planned, no detection, no rollback. A job waiting for capacity
  // pays it too once it can run (the groups reshard and re-form before it resumes).
  if (!waiting() || can_run()) reconfigure(true);
}

std::unique_ptr<Strategy> make_ntp_job(const Scenario& s, const Json& params, bool boost) {
  return std::make_unique<NtpJob>(read_ntp_options(s, params, boost));
}

SlowRule ntp_slow_rule(const Scenario& s, const Json& params, bool boost) {
  const auto o = read_ntp_options(s, params, boost);
  SlowRule r;
  r.kind = SlowRule::Kind::ExcludeIfFaster;
  r.min_tp = o.layout.min_tp;
  r.allowed = o.layout.allowed;
  r.boost_cap = boost ? o.layout.boost_cap(s.job.tp, s.job.tp) : 1.0;
  return r;
}

bool ntp_follows(const Scenario& s, const Json& params, const StrategyConfig& lead) {
  if (lead.name != "ntp_boost") return false;
  const NtpStrategyOptions mine = read_ntp_options(s, params, false);
  const NtpStrategyOptions theirs = read_ntp_options(s, lead.params, true);
  for (int degree = 1; degree <= s.job.tp; ++degree)
    if (theirs.layout.boost_cap(degree, s.job.tp) > 1.0) return false;
  // Every other option the same: theirs with the boost's own fields (what boost_cap reads) as
  // mine, compared whole, so an option added later is compared too.
  NtpStrategyOptions same = theirs;
  same.layout.boost = mine.layout.boost;
  same.layout.max_power = mine.layout.max_power;
  same.layout.board_cap = mine.layout.board_cap;
  same.layout.domain_budget_gpus = mine.layout.domain_budget_gpus;
  same.layout.gpus_per_domain = mine.layout.gpus_per_domain;
  return same == mine;
}

Phase snapshot_ntp_job(const SnapshotInput& in, bool boost) {
  const auto o = read_ntp_options(*in.scenario, in.params, boost);
  const JobSpec& j = in.scenario->job;
  const NtpConfig c =
      ntp_config(*in.health, j.tp, j.groups_per_replica(), j.dp, o.layout, *in.cost);
  if (!j.fixed_batch || keeps_global_batch(c.throughput, j)) return ntp_phase(c);
  // Spares replacing damaged groups cannot keep the batch: the own domains' layout plus extra
  // replicas on the spare domains' full groups (as the time mode's extra candidate).
  const std::uint32_t all = in.health->topology().domains();
  const std::uint32_t limit =
      all - std::min<std::uint32_t>(
                all, static_cast<std::uint32_t>(std::max(0, in.scenario->spare_domains)));
  NtpConfig own =
      ntp_config(*in.health, j.tp, j.groups_per_replica(), j.dp, o.layout, *in.cost, limit);
  const int extra = extra_replicas_for_batch(own.throughput, j);
  std::int64_t spare_groups = 0;
  for (std::uint32_t d = limit; d < all; ++d)
    spare_groups += in.health->healthy_in_domain(d) / static_cast<std::uint32_t>(j.tp);
  if (extra <= 0) return ntp_phase(own);  // the own domains keep it (not with more: never)
  if (limit == all || spare_groups < static_cast<std::int64_t>(extra) * j.pp)
    return Phase::stalled(Bucket::WaitingForCapacity);
  own.extra_replicas = extra;
  own.throughput = extra_throughput(own.throughput, extra, j);
  return ntp_phase(own);
}

Phase NtpJob::running_phase() const {
  return ntp_phase(config_);
}

bool NtpJob::can_run() const {
  // A fixed global batch: every replica's full batch (degraded ones keep it only with boost),
  // short by less than one sample.
  if (scenario().job.fixed_batch)
    return !restarting() && keeps_global_batch(config_.throughput, scenario().job);
  return !restarting() && config_.replicas > 0;
}

NtpStrategyOptions read_ntp_options(const Scenario& scenario, const Json& params, bool boost) {
  const auto& fields = boost ? ntp_boost_fields() : ntp_fields();
  const ParamReader r(params, fields.section(), "", "", nullptr);
  NtpStrategyOptions o;
  fields.fill(r, o);
  const int tp = scenario.job.tp;
  const TpDegreeRule rule = read_tp_rule(params, tp, scenario.file,
                                         "/strategies/" + std::string(boost ? "ntp_boost" : "ntp"));
  o.layout.min_tp = rule_min_tp(tp, rule);
  o.layout.allowed = rule.allowed;
  o.layout.boost = boost;
  if (boost) {
    // Physical limits: the GPU's rated board power, the domain's power budget.
    if (scenario.gpu_nominal_power_w <= 0 || scenario.gpu_max_power_w <= 0)
      throw InputError(scenario.file, "/cluster/gpu_max_power_w",
                       "ntp_boost needs the GPU's power ratings: GPU '" +
                           scenario.cluster.gpu_type +
                           "' has none declared (the catalogue's GPUs do: goodput describe "
                           "hardware): give /cluster/gpu_nominal_power_w and "
                           "/cluster/gpu_max_power_w, or gpu_spec's nominal_power_w and "
                           "max_power_w");
    o.layout.board_cap = scenario.gpu_max_power_w / scenario.gpu_nominal_power_w;
    o.layout.gpus_per_domain = scenario.cluster.gpus_per_domain();
    o.layout.domain_budget_gpus =
        scenario.domain_power_budget_kw * 1000.0 / scenario.gpu_nominal_power_w;
  }
  return o;
}

}  // namespace goodput
