#include "sim/run/slow_pacer.hpp"

#include <algorithm>

namespace goodput {

void SlowPacer::slow_start(Time t, const Fault& f) {
  Span s{&f, 1.0, 1.0, 1.0, f.slow != Fault::Slow::Undetected};
  if (f.slow == Fault::Slow::Undetected) {
    s.stretch = cost_->slow_step_ratio(f.slowdown, 1.0);
  } else if (fixed_batch_) {  // the replica keeps its whole batch: every step waits for it
    if (boost_cap_ > 1) s.power = cost_->slow_paced_power(f.slowdown, boost_cap_);
    s.stretch = cost_->slow_step_ratio(f.slowdown, s.power);
  } else {
    s.kept = cost_->slow_replica_throughput(f.slowdown, boost_cap_);
    if (boost_cap_ > 1) s.power = cost_->slow_boost_power(f.slowdown, boost_cap_);
  }
  spans_.push_back(s);
  if (have_phase_) emit(t);
}

void SlowPacer::slow_end(Time t, const Fault& f) {
  const auto it =
      std::find_if(spans_.begin(), spans_.end(), [&](const Span& s) { return s.fault == &f; });
  if (it == spans_.end()) return;
  spans_.erase(it);
  if (have_phase_) emit(t);
}

double SlowPacer::effect(Boost* boost) const {
  double stretch = 1, lost = 0;
  for (const Span& s : spans_) {
    const GpuRange gpus = topology_.blast_radius(s.fault->component);
    bool used = false;
    for (std::uint32_t g : gpus)
      if (layout_.in_use(g)) {
        used = true;
        break;
      }
    if (!used) continue;
    stretch = std::max(stretch, s.stretch);
    lost += (1 - s.kept) / std::max(1, replicas_);
    if (s.power > 1) {
      boost->extra_power_gpus += (s.power - 1) * cost_->tp();  // its TP group's GPUs
      ++boost->boosted_domains;
    }
    if (boost_cap_ > 1 && s.detected && (s.kept < 1 || s.stretch > 1))
      ++boost->capped_domains;  // held short by its cap
  }
  return std::max(0.0, 1 - lost) / stretch;
}

void SlowPacer::emit(Time t) {
  Phase q = phase_;
  Boost slow;  // the slow groups draw their boost only while the job runs
  if (!spans_.empty() && q.rate > 0) {
    const double kept = q.rate * effect(&slow);
    q.loss[static_cast<int>(Bucket::SlowComponents)] += q.rate - kept;
    q.rate = kept;
  }
  out_.phase(t, q);
  slow_ = slow;
  send_boost(t, /*always=*/false);
}

void SlowPacer::boost(Time t, double p, int d, int c) {
  own_ = {p, d, c};
  send_boost(t, /*always=*/true);
}

void SlowPacer::send_boost(Time t, bool always) {
  const Boost sum{own_.extra_power_gpus + slow_.extra_power_gpus,
                  own_.boosted_domains + slow_.boosted_domains,
                  own_.capped_domains + slow_.capped_domains};
  if (sum == sent_ && !always) return;
  sent_ = sum;
  out_.boost(t, sum.extra_power_gpus, sum.boosted_domains, sum.capped_domains);
}

void SlowPacer::phase(Time t, const Phase& p) {
  phase_ = p;
  have_phase_ = true;
  emit(t);
}

void SlowPacer::gpus_in_use(Time t, std::int64_t in_use) {
  out_.gpus_in_use(t, in_use);
}

void SlowPacer::replicas(Time t, int active, int total) {
  replicas_ = std::max(1, active);
  out_.replicas(t, active, total);
  if (have_phase_ && !spans_.empty()) emit(t);
}

}  // namespace goodput
