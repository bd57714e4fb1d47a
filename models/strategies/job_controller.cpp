#include "models/strategies/job_controller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/cost/cost_model.hpp"
#include "models/strategies/price_list.hpp"

namespace goodput {

void JobController::start(JobContext& ctx) {
  ctx_ = &ctx;
  for (int m = 0; m < kMechanismCount; ++m) {
    price_s_[m] = mechanism_price_s(scenario(), ctx_->cost, static_cast<Mechanism>(m));
    price_time_[m] = from_seconds(price_s_[m]);
  }
  reshard_n_ = scenario().job.tp + 1;
  healthy_step_ = from_seconds(ctx_->cost ? ctx_->cost->healthy_step_s() : scenario().job.step_s);
  cycle_ = {};
  if (const Time interval = ctx_->checkpoint_interval; interval > 0) {
    const CheckpointSpec& c = ctx_->checkpoint ? *ctx_->checkpoint : scenario().checkpoint;
    const Time blocking = from_seconds(c.async ? c.async_blocking_s : c.save_s);
    // A save is durable save_s after it starts; the next one never starts before that.
    const Time durable = std::max(blocking, from_seconds(c.save_s));
    cycle_ = {0, std::max(interval, durable - blocking), blocking, durable};
  }
  active_ = scenario().job.dp;
  ctx.layout->retarget(job_groups(), {});
  mode_ = Mode::Stalled;  // so resume() emits the first phase
  on_layout_reset();
  next_due_ = cycle().interval;
  resume();
}

void JobController::settle(Time now) {
  // Each inner boundary as its own stall-step event did: the step under way is paid, the next
  // opens. The last one is the stall's engine event (end_stall), never settled here.
  while (step_open_) {
    const Time end = step_started_ + steps_[step_ - 1].duration;
    if (end >= now || end >= stall_end_) return;
    ++events_;
    close_step(end);
    open_next_step(end);
  }
}

void JobController::on_fault(const FaultImpact& impact) {
  if (impact.hits.empty()) return;
  hit_domains_.clear();
  for (const auto& h : impact.hits)
    if (std::find(hit_domains_.begin(), hit_domains_.end(), h.domain) == hit_domains_.end())
      hit_domains_.push_back(h.domain);
  ctx_->layout->refill_in_place(hit_domains_);
  if (restarting_ || full_restart_pending_) {
    recover_by_restart(hit_domains_);  // a fault during a restart starts it over
    return;
  }
  react(impact, hit_domains_);
}

void JobController::on_repair(const RepairImpact& impact) {
  JobLayout& layout = *ctx_->layout;
  if (full_restart_pending_) {
    layout.retarget(job_groups(), impact.domains);
    if (layout_full() && mode_ == Mode::Waiting) begin_full_restart();  // else: when detection ends
    return;
  }
  if (restarting_) return;
  react_repair(impact);
}

void JobController::react_repair(const RepairImpact& impact) {
  JobLayout& layout = *ctx_->layout;
  if (degraded()) {
    relayout_replicas(impact.domains);
    if (mode_ == Mode::Waiting) resume();  // runs, or re-states why it waits
  } else if (!layout_full()) {
    layout.retarget(job_groups(), impact.domains);
    if (mode_ == Mode::Waiting && can_run()) resume();
  }
  set_in_use();
}

void JobController::handle(std::uint32_t kind, std::uint64_t) {
  ++events_;
  settle(ctx_->sim->now());
  switch (kind) {
    case kStallStep:
      end_stall();
      break;
    case kJoin: {
      joins_.pop_front();
      --joining_;
      ++attached_;
      const Time now = ctx_->sim->now();
      paid_free(now, Mechanism::SpareSwapIn, 1);  // in the background
      paid_free(now, Mechanism::StateCopy, 1);
      admit_attached();
      break;
    }
    default:
      break;
  }
}

// --- rejoins ------------------------------------------------------------------------------

bool JobController::repays(double gain_rate, double stall_s) const {
  if (stall_s <= 0) return true;
  if (ctx_->job_faults_per_hour <= 0) return gain_rate > 0;
  return gain_rate * 3600.0 / ctx_->job_faults_per_hour >= stall_s;
}

int JobController::min_run_replicas() const {
  // A fixed global batch needs every replica unless accumulation makes up their samples.
  const bool full = scenario().job.fixed_batch && drop_.policy != BatchPolicy::Accumulate;
  return full                                      ? scenario().job.dp
         : drop_.policy == BatchPolicy::PauseBelow ? std::max(1, drop_.min_replicas)
                                                   : 1;
}

double JobController::join_gain() const {
  const JobSpec& j = scenario().job;
  auto rate = [&](int a) {
    return a >= min_run_replicas() ? drop_rate(drop_, a, j.dp, j.microbatches, ctx_->cost) : 0.0;
  };
  return rate(active_ + attached_) - rate(active_);
}

void JobController::admit_attached() {
  if (attached_ == 0 || restarting()) return;
  const Time now = ctx_->sim->now();
  switch (mode_) {
    case Mode::Stalled: {
      if (after_ != After::Resume) return;
      // A full rebuild must run after the attach: the stall ends at attach + price at the earliest.
      const Time extra = std::max<Time>(0, now + listed_time(Mechanism::Rejoin) - stall_end_);
      if (!repays(join_gain(), to_seconds(extra))) return;  // waits for the next stall
      const auto n = static_cast<std::uint32_t>(attached_);
      active_ += attached_;
      attached_ = 0;
      if (extra <= 0) {  // the stall already lasts a full rebuild past the attach: it overlaps
        paid_free(now, Mechanism::Rejoin, n);
        return;
      }
      if (steps_.back().mechanism == Mechanism::Rejoin) {
        steps_.back().duration += extra;  // the stall's last step, a rejoin, runs longer
        steps_.back().also += n;
      } else if (steps_.size() < Steps::kMaxSteps) {
        steps_.push_back({extra, Mechanism::Rejoin, n - 1});
      } else {
        steps_.back().duration += extra;  // no place left: the last step runs longer
        paid_free(now, Mechanism::Rejoin, n);
      }
      stall_end_ += extra;
      ctx_->sim->cancel(stall_event_);
      stall_event_ = ctx_->sim->schedule_at(stall_end_, this, kStallStep);
      return;
    }
    case Mode::Running: {
      if (!repays(join_gain(), price_s(Mechanism::Rejoin))) return;  // waits for the next stall
      const auto n = static_cast<std::uint32_t>(attached_);
      active_ += attached_;
      attached_ = 0;
      recover({pay_each(Mechanism::Rejoin, n)}, false,
              /*planned=*/true);
      return;
    }
    case Mode::Waiting: {
      // Not training: joining costs nothing the job would run in; it joins as soon as it can run.
      active_ += attached_;
      unpaid_rejoins_ += attached_;
      attached_ = 0;
      if (!can_run()) return;
      const auto n = static_cast<std::uint32_t>(unpaid_rejoins_);
      unpaid_rejoins_ = 0;
      recover({pay_each(Mechanism::Rejoin, n)}, false,
              /*planned=*/true);
      return;
    }
  }
}

void JobController::fold_attached() {
  const int n = attached_ + unpaid_rejoins_;
  active_ += attached_;
  attached_ = 0;
  unpaid_rejoins_ = 0;
  paid_free(ctx_->sim->now(), Mechanism::Rejoin, static_cast<std::uint32_t>(n));
}

void JobController::paid_free(Time t, Mechanism m, std::uint32_t times) {
  if (times > 0) ctx_->signals->paid_free(t, m, times);
}

// --- procedures ---------------------------------------------------------------------------

double JobController::ntp_reshard_price_slow(int from, int to) const {
  note_read(Mechanism::NtpReshard);
  const int n = reshard_n_;
  if (from < 0 || to < 0 || from >= n || to >= n)
    return goodput::ntp_reshard_price_s(scenario(), ctx_->cost, from, to);
  if (reshard_memo_.empty())
    reshard_memo_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
                         std::numeric_limits<double>::quiet_NaN());
  double& price = reshard_memo_[static_cast<std::size_t>(from) * static_cast<std::size_t>(n) +
                                static_cast<std::size_t>(to)];
  if (std::isnan(price)) price = goodput::ntp_reshard_price_s(scenario(), ctx_->cost, from, to);
  return price;
}

void JobController::recover_by_restart(std::span<const std::uint32_t> dirty) {
  interrupt(/*rollback=*/true);
  for (EventId id : joins_) ctx_->sim->cancel(id);
  joins_.clear();
  joining_ = 0;
  attached_ = 0;
  unpaid_rejoins_ = 0;
  active_ = scenario().job.dp;
  restarting_ = true;
  ctx_->layout->retarget(job_groups(), dirty);
  if (layout_full()) {
    full_restart_pending_ = false;
    begin_stall({pay(Mechanism::Detection), pay(Mechanism::JobRestart), restore_step()},
                After::FullRestart);
  } else {
    full_restart_pending_ = true;
    begin_stall({pay(Mechanism::Detection)}, After::WaitForFullRestart);
  }
}

void JobController::begin_full_restart() {
  full_restart_pending_ = false;
  begin_stall({pay(Mechanism::JobRestart), restore_step()}, After::FullRestart);
}

void JobController::recover_by_drop(std::size_t groups_hit, std::span<const std::uint32_t> dirty) {
  const int lost =
      static_cast<int>(std::min<std::size_t>(groups_hit, static_cast<std::size_t>(active_)));
  if (active_ - lost <= 0 && joining_ == 0 && attached_ == 0) {
    recover_by_restart(dirty);  // no replica holds the model state any more
    return;
  }
  interrupt(/*rollback=*/false);
  active_ -= lost;
  relayout_replicas(dirty, price_s(Mechanism::Detection));
  fold_attached();  // attached before the rebuild starts: they join it
  begin_stall({pay(Mechanism::Detection), pay(Mechanism::CommunicatorRebuild)}, After::Resume);
}

void JobController::recover(const Steps& steps, bool rollback, bool planned) {
  if (restarting_ || full_restart_pending_) return;  // the restart under way re-forms the job
  interrupt(rollback, !planned, !planned);
  fold_attached();
  begin_stall(steps, After::Resume, /*detect=*/!planned);
}

void JobController::refresh_phase() {
  if (mode_ == Mode::Running || mode_ == Mode::Waiting) resume();
}

// Fits active and joining replicas to what the layout can hold (packing damaged domains
// together), schedules state copies for replicas that can be formed again.
void JobController::relayout_replicas(std::span<const std::uint32_t> dirty,
                                      double noticed_after_s) {
  JobLayout& layout = *ctx_->layout;
  const int pp = scenario().job.groups_per_replica();
  // Whole replicas only: what the layout forms is rounded down to them (retarget_whole).
  const auto formed = layout.retarget_whole(job_groups(), dirty, pp);
  const int formable = static_cast<int>(formed / pp);
  active_ = std::min(active_, formable);
  attached_ = std::min(attached_, formable - active_);
  unpaid_rejoins_ = std::min(unpaid_rejoins_, active_);
  while (active_ + attached_ + joining_ > formable) {
    ctx_->sim->cancel(joins_.back());
    joins_.pop_back();
    --joining_;
  }
  const Time join_after = from_seconds(noticed_after_s + price_s(Mechanism::SpareSwapIn) +
                                       price_s(Mechanism::StateCopy));
  while (active_ + attached_ + joining_ < formable) {
    joins_.push_back(ctx_->sim->schedule_after(join_after, this, kJoin));
    ++joining_;
  }
}

// --- stalls, phases, checkpoints ----------------------------------------------------------

void JobController::interrupt(bool rollback, bool count, bool lose_step) {
  const Time now = ctx_->sim->now();
  close_step(now);  // paid before the interruption's signals (no observer integrates a payment)
  if (stall_event_) ctx_->sim->cancel(stall_event_);
  stall_event_ = 0;
  // A save in flight (or not yet durable) is lost; so is the progress since the last durable
  // checkpoint (rollback), or else the step in flight when running.
  const Lost lost = rollback                              ? Lost::SinceCheckpoint
                    : mode_ == Mode::Running && lose_step ? Lost::Step
                                                          : Lost::Nothing;
  ctx_->signals->interrupted(now, count && mode_ != Mode::Waiting, lost, healthy_step_);
  if (mode_ == Mode::Running) stop_cycle(now);
}

void JobController::close_step(Time now) {
  if (!step_open_) return;
  step_open_ = false;
  const Step& s = steps_[step_ - 1];
  ctx_->signals->paid(now, s.mechanism, now - step_started_);
  paid_free(now, s.mechanism, s.also);
}

void JobController::begin_stall(const Steps& steps, After after, bool detect) {
  close_step(ctx_->sim->now());
  if (stall_event_) ctx_->sim->cancel(stall_event_);
  steps_.clear();
  if (detect) steps_.push_back(pay(Mechanism::Detection));
  steps_.append(steps);
  step_ = 0;
  after_ = after;
  mode_ = Mode::Stalled;
  stall_event_ = 0;
  const Time now = ctx_->sim->now();
  if (!open_next_step(now)) {
    end_stall();
    return;
  }
  stall_end_ = step_started_;
  for (std::size_t i = step_ - 1; i < steps_.size(); ++i)
    stall_end_ += std::max<Time>(0, steps_[i].duration);
  stall_event_ = ctx_->sim->schedule_at(stall_end_, this, kStallStep);
}

bool JobController::open_next_step(Time t) {
  while (step_ < steps_.size()) {
    const Step s = steps_[step_++];
    if (s.duration <= 0) {  // free: paid, no time
      paid_free(t, s.mechanism, s.also + 1);
      continue;
    }
    const bool load = s.mechanism == Mechanism::CheckpointLoad;
    ctx_->signals->stalled(t, load ? Bucket::CheckpointRestore : Bucket::InfrastructureRecovery);
    step_open_ = true;
    step_started_ = t;
    return true;
  }
  return false;
}

void JobController::end_stall() {
  close_step(ctx_->sim->now());
  stall_event_ = 0;
  if (step_ < steps_.size() && open_next_step(ctx_->sim->now()))
    throw std::logic_error("JobController: a timed step after the stall's end");
  switch (after_) {
    case After::Resume:
      resume();
      break;
    case After::FullRestart:
      restarting_ = false;
      active_ = scenario().job.dp;
      next_due_ = ctx_->sim->now() + cycle().interval;  // the loaded checkpoint is the last one
      on_layout_reset();
      resume();
      break;
    case After::WaitForFullRestart:
      if (layout_full()) {  // repairs arrived during detection
        begin_full_restart();
        break;
      }
      mode_ = Mode::Waiting;
      ctx_->signals->stalled(ctx_->sim->now(), Bucket::WaitingForCapacity);
      break;
  }
}

bool JobController::can_run() const {
  return !restarting_ && active_ >= min_run_replicas() &&
         ctx_->layout->total_assigned() >=
             static_cast<std::int64_t>(active_) * scenario().job.groups_per_replica();
}

double drop_rate(const DropOptions& o, int active, int dp, int m, const CostModel* cost) {
  if (active >= dp) return 1.0;
  if (active <= 0) return 0.0;
  if (o.policy == BatchPolicy::PauseBelow && active < o.min_replicas) return 0.0;
  // accumulate keeps the global batch: each replica runs ceil(dp * m / active) micro-batches.
  if (o.policy == BatchPolicy::Accumulate) {
    const auto rounds = static_cast<int>(std::ceil(static_cast<double>(dp) * m / active));
    return cost ? cost->step_s(m) / cost->step_s(rounds) : static_cast<double>(m) / rounds;
  }
  return static_cast<double>(active) / dp;
}

Phase JobController::running_phase() const {
  return Phase::running(
      drop_rate(drop_, active_, scenario().job.dp, scenario().job.microbatches, ctx_->cost));
}

void JobController::resume() {
  const Time now = ctx_->sim->now();
  if (!can_run()) {
    if (mode_ == Mode::Running) stop_cycle(now);
    mode_ = Mode::Waiting;
    // Paused for a fixed batch only until the replicas being brought back (swap-in, state
    // copy) arrive: that work is recovery. Paused while the job lacks samples even with them
    // (hardware still missing): waiting for capacity.
    const bool recovering = scenario().job.fixed_batch && joining_ > 0 &&
                            active_ + attached_ + joining_ >= scenario().job.dp;
    ctx_->signals->stalled(
        now, recovering ? Bucket::InfrastructureRecovery : Bucket::WaitingForCapacity);
    set_in_use();
    admit_attached();  // replicas that waited attached join a job that waits anyway
    return;
  }
  if (mode_ != Mode::Running)
    anchor_ = std::max(next_due_, now) - cycle().interval;  // a save overdue starts now
  mode_ = Mode::Running;
  Phase p = running_phase();
  p.cycle = cycle();
  ctx_->signals->phase(now, p);
  ctx_->signals->replicas(now, active_, scenario().job.dp);
  set_in_use();
}

void JobController::set_in_use() {
  ctx_->signals->gpus_in_use(ctx_->sim->now(), ctx_->layout->in_use_gpus());
}

CheckpointCycle JobController::cycle() const {
  if (!cycle_.on()) return {};
  CheckpointCycle c = cycle_;
  c.anchor = anchor_;
  return c;
}

void JobController::stop_cycle(Time now) {
  const CheckpointCycle c = cycle();
  if (!c.on()) return;
  // Mid-save: the save is lost and retried a full interval later; else the next one keeps its time.
  next_due_ = c.saving_at(now) ? now + c.interval : c.save_start(c.last_save_at(now) + 1);
}

}  // namespace goodput
