#include "sim/run/slow_pacer.hpp"

#include <algorithm>

namespace goodput {

void SlowPacer::slow_start(Time t, const Fault& f) {
  Span s{&f, 1.0, 1.0};
  if (f.slow == Fault::Slow::Undetected)
    s.stretch = cost_->slow_step_ratio(f.slowdown);
  else
    s.kept = cost_->slow_replica_throughput(f.slowdown, boost_cap_);
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

double SlowPacer::multiplier() const {
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
  }
  return std::max(0.0, 1 - lost) / stretch;
}

void SlowPacer::emit(Time t) {
  Phase q = phase_;
  if (!spans_.empty() && q.rate > 0) {
    const double kept = q.rate * multiplier();
    q.loss[static_cast<int>(Bucket::SlowComponents)] += q.rate - kept;
    q.rate = kept;
  }
  out_.phase(t, q);
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
