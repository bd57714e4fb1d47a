#include "models/strategies/ntp_strategy.hpp"

#include <algorithm>

namespace goodput {

Phase ntp_phase(const NtpConfig& c) {
  Phase p;
  p.rate = c.throughput * (1 - c.reshard);
  p.loss[static_cast<int>(Bucket::DegradedCapacity)] = 1 - c.throughput;
  p.loss[static_cast<int>(Bucket::ReshardOverhead)] = c.throughput * c.reshard;
  return p;
}

NtpConfig NtpJob::compute() const {
  const JobSpec& j = scenario().job;
  return ntp_config(*ctx().health, j.tp, j.pp, j.dp, o_.layout, *ctx().cost);
}

void NtpJob::apply(const NtpConfig& c) {
  // Only domains whose groups change are touched (both lists are sorted by domain).
  JobLayout& layout = *ctx().layout;
  std::size_t i = 0;
  for (const auto& u : c.use) {
    for (; i < config_.use.size() && config_.use[i].domain < u.domain; ++i)
      layout.assign(config_.use[i].domain, 0, 0);  // no longer used
    if (i < config_.use.size() && config_.use[i].domain == u.domain) ++i;
    if (layout.assigned(u.domain) != u.full || layout.partial(u.domain) != u.partial)
      layout.assign(u.domain, u.full, u.partial);
  }
  for (; i < config_.use.size(); ++i) layout.assign(config_.use[i].domain, 0, 0);
  config_ = c;
  active_ = c.replicas;
  ctx().signals->boost(ctx().sim->now(), c.extra_power_gpus, c.boosted_domains);
}

void NtpJob::on_layout_reset() {
  config_ = NtpConfig{};
  // The controller laid out dp x pp full groups; describe them (and drop any partial group).
  JobLayout& layout = *ctx().layout;
  for (std::uint32_t d = 0; d < ctx().health->topology().domains(); ++d) {
    if (layout.partial(d)) layout.assign(d, layout.assigned(d), 0);
    if (layout.assigned(d)) config_.use.push_back({d, layout.assigned(d), 0});
  }
  config_.replicas = scenario().job.dp;
  config_.min_degree = scenario().job.tp;
  config_.throughput = 1.0;
  active_ = config_.replicas;
  ctx().signals->boost(ctx().sim->now(), 0, 0);
}

void NtpJob::reconfigure(bool planned) {
  const auto& r = scenario().recovery;
  if (o_.inplace) recover_by_reconfiguring(o_.inplace_s, 0, false, planned);
  else recover_by_reconfiguring(r.restart_s, scenario().checkpoint.load_s, !o_.in_memory_recovery && !planned, planned);
}

void NtpJob::react(const FaultImpact&, std::span<const std::uint32_t> hit_domains) {
  // Fast path: every hit domain was refilled in place (idle GPUs of the domain stood in), so the
  // layout is unchanged; the job still pays the reconfiguration (the new GPU needs its shard).
  const JobLayout& layout = *ctx().layout;
  bool unchanged = true;
  for (std::uint32_t d : hit_domains) {
    const auto it = std::lower_bound(config_.use.begin(), config_.use.end(), d,
                                     [](const NtpDomainUse& u, std::uint32_t x) { return u.domain < x; });
    const bool used = it != config_.use.end() && it->domain == d;
    unchanged = unchanged && used && layout.assigned(d) == it->full && layout.partial(d) == it->partial;
  }
  if (!unchanged) {
    const NtpConfig next = compute();
    if (next.replicas == 0) {
      recover_by_restart(hit_domains);
      return;
    }
    apply(next);
  }
  reconfigure(false);
}

void NtpJob::react_repair(const RepairImpact&) {
  if (!o_.upgrade_on_repair && !waiting()) return;
  // Nothing to gain when the job already runs every replica whole.
  if (config_.replicas == scenario().job.dp && config_.degraded_replicas == 0) return;
  const NtpConfig next = compute();
  const double gain = next.throughput * (1 - next.reshard) - config_.throughput * (1 - config_.reshard);
  if (gain <= 1e-12) return;
  // The next fault that changes the layout reconfigures anyway (and takes the better layout
  // then): upgrade now only if the gain repays the stall before that fault is expected.
  if (!waiting() && ctx().job_faults_per_hour > 0) {
    const double stall_s = o_.inplace ? o_.inplace_s : scenario().recovery.restart_s + scenario().checkpoint.load_s;
    if (gain * 3600.0 / ctx().job_faults_per_hour < stall_s) return;
  }
  apply(next);
  if (waiting()) resume_if_waiting();
  else reconfigure(true);  // an upgrade after repairs: planned, no detection, no rollback
}

std::unique_ptr<Strategy> make_ntp_job(const Scenario& s, const Json& params, bool boost) {
  return std::make_unique<NtpJob>(read_ntp_options(s, params, boost));
}

Phase snapshot_ntp_job(const SnapshotInput& in, bool boost) {
  const auto o = read_ntp_options(*in.scenario, in.params, boost);
  const JobSpec& j = in.scenario->job;
  return ntp_phase(ntp_config(*in.health, j.tp, j.pp, j.dp, o.layout, *in.cost));
}

Phase NtpJob::running_phase() const { return ntp_phase(config_); }

bool NtpJob::can_run() const { return !restarting() && config_.replicas > 0; }

NtpStrategyOptions read_ntp_options(const Scenario& scenario, const Json& params, bool boost) {
  const ParamReader r(params, boost ? ntp_boost_params() : ntp_params(), "", "", nullptr);
  NtpStrategyOptions o;
  const int tp = scenario.job.tp;
  o.layout.min_tp = r.present("min_tp") ? r.integer32("min_tp") : std::max(1, tp - tp / 4);
  const std::string where = "/strategies/" + std::string(boost ? "ntp_boost" : "ntp");
  if (o.layout.min_tp > tp)
    throw InputError(scenario.file, where + "/min_tp", "min_tp " + std::to_string(o.layout.min_tp) +
                                                           " is above the job's tp " + std::to_string(tp));
  for (double d : r.numbers("allowed_tp")) {
    if (d != static_cast<int>(d) || d > tp)
      throw InputError(scenario.file, where + "/allowed_tp", "allowed degrees must be integers <= tp");
    o.layout.allowed.push_back(static_cast<int>(d));
  }
  o.layout.packing = r.boolean("packing");
  o.layout.boost = boost;
  if (boost) o.layout.max_power = r.number("max_power");
  o.inplace = r.string("reconfig") == "inplace";
  o.inplace_s = r.number("inplace_s");
  o.in_memory_recovery = r.boolean("in_memory_recovery");
  o.upgrade_on_repair = r.boolean("upgrade_on_repair");
  return o;
}

}  // namespace goodput
