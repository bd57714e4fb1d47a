// Mechanisms every strategy is built from: stalls made of priced steps, checkpoint saves,
// and the recovery procedures — restart the whole job from the last checkpoint, drop the
// damaged replicas and let them rejoin, or re-form in place with a list of mechanisms. Every
// step is a mechanism of the price list (/recovery, Mechanism in job_signals.hpp), paid at
// its one price and reported through JobObserver::paid. A strategy file picks which
// procedure answers each fault (react()). The controller keeps the job's replica counts and
// always leaves the layout holding complete groups for the replicas that are active, attached
// or joining.
//
// Rejoins (the same rule for every strategy): a rejoining replica gets its hardware attached
// and its state copied in the background (spare swap-in + state copy); it is then attached and
// joins through a rebuild of its own price (Mechanism::Rejoin, paid once per replica, replicas
// of one rebuild sharing its stall). The rebuild must run after the replica is attached:
// - a stall whose rebuild starts after the attach (every stall begun later: a fault's, a
//   reconfiguration's) admits it for free;
// - a stall under way is extended so that a full rebuild runs after the attach (new end =
//   max(end, attach + rejoin price)), the extension paid as Rejoin;
// - while running, the job stalls for the rebuild.
// The last two happen only if the join repays its stall (repays()): the gain in rate times the
// time until the next expected job fault (where the replica joins for free) is at least the
// stall. Else the replica waits, attached, for the next stall. ntp's upgrades on repair use the
// same rule.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "models/strategies/strategy.hpp"
#include "sim/core/enum_names.hpp"

namespace goodput {

enum class BatchPolicy { Shrink, Accumulate, PauseBelow };
inline constexpr EnumName<BatchPolicy> kBatchPolicyNames[] = {
    {BatchPolicy::Shrink, "shrink"},
    {BatchPolicy::Accumulate, "accumulate"},
    {BatchPolicy::PauseBelow, "pause_below"}};

struct DropOptions {
  BatchPolicy policy = BatchPolicy::Shrink;
  int min_replicas = 1;
};

// Throughput of `active` of `dp` replicas under a batch policy (m micro-batches per replica).
// accumulate: the healthy step over the step of ceil(dp m / active) micro-batches, both from
// the cost model's pipeline schedule (the bubble does not grow with the micro-batches);
// without a cost model, m / ceil(dp m / active).
double drop_rate(const DropOptions& o, int active, int dp, int m, const CostModel* cost);

class JobController : public Strategy {
 public:
  void start(JobContext& ctx) final;
  void on_fault(const FaultImpact& impact) final;
  void on_repair(const RepairImpact& impact) final;
  void handle(std::uint32_t kind, std::uint64_t arg) final;
  void settle(Time now) final;
  std::int64_t events_handled() const final { return events_; }

 protected:
  // Called for faults that hit job groups, after in-domain refill of the hit domains
  // (groups that could not be refilled are gone from the layout).
  virtual void react(const FaultImpact& impact, std::span<const std::uint32_t> hit_domains) = 0;

  // Called for every repair unless a whole-job restart is pending or under way; the default
  // re-forms groups and lets dropped replicas rejoin.
  virtual void react_repair(const RepairImpact& impact);
  // At start and after a whole-job restart (the layout holds all dp x pp full groups again).
  virtual void on_layout_reset() {}
  // The job's phase while running, and whether it can run at all (defaults: replica counts).
  virtual Phase running_phase() const;
  virtual bool can_run() const;

  // One step of a stall: a mechanism at its price (checkpoint loads count as CHECKPOINT_RESTORE,
  // the rest as INFRASTRUCTURE_RECOVERY).
  // Trivial (no member initializers), so a Steps' unused places cost nothing to construct.
  // `also`: further payments of the same mechanism made in parallel with it (e.g. one reshard
  // per changed TP group): counted as paid, no stall of their own.
  struct Step {
    Time duration;
    Mechanism mechanism;
    std::uint32_t also;
  };
  // A stall's steps, held inline (no recovery allocates): at most kMaxSteps; the places past
  // size() are never read, and left uninitialised (a stall is made at every fault).
  class Steps {
   public:
    static constexpr std::size_t kMaxSteps = 8;
    Steps() = default;
    Steps(std::initializer_list<Step> steps) {
      for (const Step& s : steps) push_back(s);
    }
    void push_back(const Step& s) {
      if (size_ == kMaxSteps) throw std::logic_error("JobController: too many stall steps");
      items_[size_++] = s;
    }
    // Appends the steps of `more` (copies only those set: a stall starts at every fault).
    void append(const Steps& more) {
      if (size_ + more.size_ > kMaxSteps)
        throw std::logic_error("JobController: too many stall steps");
      std::copy_n(more.items_.begin(), more.size_, items_.begin() + size_);
      size_ += more.size_;
    }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    Step& back() { return items_[size_ - 1]; }
    const Step& operator[](std::size_t i) const { return items_[i]; }
    const Step* begin() const { return items_.data(); }
    const Step* end() const { return items_.data() + size_; }

   private:
    std::array<Step, kMaxSteps> items_;  // the first size_ set
    std::size_t size_ = 0;
  };
  Step pay(Mechanism m) const { return {listed_time(m), m, 0}; }
  Step pay(Mechanism m, double seconds) const { return {from_seconds(seconds), m, 0}; }
  // `n` >= 1 payments in parallel: the stall of the slowest, `seconds`.
  static Step pay_each(Mechanism m, double seconds, std::uint32_t n) {
    return {from_seconds(seconds), m, n - 1};
  }
  // The same at m's listed price (resolved once, at start()).
  Step pay_each(Mechanism m, std::uint32_t n) const { return {listed_time(m), m, n - 1}; }
  // The price list resolved for this scenario (derived state moves from the cost model); both
  // forms are resolved once, at start().
  double price_s(Mechanism m) const {
    note_read(m);
    return price_s_[static_cast<int>(m)];
  }
  std::uint32_t prices_read() const override { return prices_read_; }
  double ntp_reshard_price_s(int from, int to) const {
    // A pure function of (from, to) for this scenario and cost model: remembered per lane (NaN:
    // not asked yet), as ntp asks it for every group that changes degree.
    if (from >= 0 && to >= 0 && from < reshard_n_ && to < reshard_n_ && !reshard_memo_.empty()) {
      const double price = reshard_memo_[static_cast<std::size_t>(from * reshard_n_ + to)];
      if (!std::isnan(price)) return price;
    }
    return ntp_reshard_price_slow(from, to);
  }
  // How a whole-job restart gets the last checkpoint back (default: a load from storage).
  virtual Step restore_step() const { return pay(Mechanism::CheckpointLoad); }

  void recover_by_restart(std::span<const std::uint32_t> dirty);
  // Stall for detection (unless planned) and `steps`, then run in the new layout. `planned`: a
  // change the strategy chose, at a step boundary (no detection, no interruption counted, no
  // step lost). Does nothing while a whole-job restart is pending or under way.
  void recover(const Steps& steps, bool rollback, bool planned = false);
  bool restarting() const { return restarting_ || full_restart_pending_; }
  // Re-emits the running phase after the strategy changed what running_phase() returns.
  void refresh_phase();
  bool running() const { return mode_ == Mode::Running; }
  bool waiting() const { return mode_ == Mode::Waiting; }
  void resume_if_waiting() {
    if (mode_ == Mode::Waiting && can_run()) resume();
  }
  void recover_by_drop(std::size_t groups_hit, std::span<const std::uint32_t> dirty);
  // The shared rule for a planned change that stalls the job (a rejoin, ntp's upgrade): worth it
  // now when the gain in rate, kept until the next expected job fault (which reconfigures
  // anyway, and takes the change for free then), repays the stall: gain x 3600 / faults per
  // hour >= stall_s. A free change (stall_s <= 0) always repays; with no faults expected, any
  // gain does.
  bool repays(double gain_rate, double stall_s) const;

  bool layout_full() const { return ctx_->layout->total_assigned() >= job_groups(); }
  std::int64_t job_groups() const { return scenario().job_groups(); }
  const Scenario& scenario() const { return *ctx_->scenario; }
  JobContext& ctx() { return *ctx_; }
  const JobContext& ctx() const { return *ctx_; }
  bool degraded() const { return active_ + attached_ + joining_ < scenario().job.dp; }

  DropOptions drop_;

 private:
  enum Event : std::uint32_t { kStallStep = 1, kJoin };
  enum class Mode { Running, Stalled, Waiting };
  enum class After { Resume, FullRestart, WaitForFullRestart };

  // A stall queues one engine event, at its end; the boundaries between its steps are settled
  // when the job is next touched (settle()), with their own times, in the same order.
  // `detect`: a detection step first, then `steps`.
  void begin_stall(const Steps& steps, After after, bool detect = false);
  void begin_full_restart();    // restart + checkpoint load, once capacity is there
  bool open_next_step(Time t);  // pays free steps; false when no timed step is left
  void end_stall();             // at the stall's end: its last step closed
  void resume();
  void interrupt(bool rollback, bool count = true, bool lose_step = true);
  void close_step(Time now);  // reports the mechanism of the stall step under way as paid
  // Checkpoints are a closed-form cycle on the running phase (CheckpointCycle), not events.
  CheckpointCycle cycle() const;
  void stop_cycle(Time now);  // leaving the running state: where the next save falls
  // `noticed_after`: when the change is known (a fault: after detection; a repair: now); the
  // background swap-in and state copy of a rejoining replica start then.
  void relayout_replicas(std::span<const std::uint32_t> dirty, double noticed_after_s = 0);
  void set_in_use();
  // Rejoins (see the top): a replica attached now joins, waits, or is folded into a new stall.
  void admit_attached();
  void fold_attached();  // a stall begins: attached replicas join it for free
  // `times` payments of `m` at t that stall nothing (work in parallel or overlapped).
  void paid_free(Time t, Mechanism m, std::uint32_t times);
  double join_gain() const;
  int min_run_replicas() const;

  // What a fault or a stall's event reads first, together; the price list after it.
  JobContext* ctx_ = nullptr;
  Mode mode_ = Mode::Running;
  After after_ = After::Resume;
  bool step_open_ = false;
  bool full_restart_pending_ = false;  // waiting for capacity before a whole-job restart
  bool restarting_ = false;            // a whole-job restart is under way
  std::size_t step_ = 0;
  EventId stall_event_ = 0;
  Time stall_end_ = 0;  // when the stall's last timed step ends (its engine event)
  Time step_started_ = 0;
  std::int64_t events_ = 0;
  Time healthy_step_ = 0;  // what an interruption loses at most of the step in flight
  Time next_due_ = 0;      // start of the next save (while not running)
  Time anchor_ = 0;        // the running phase's cycle anchor
  CheckpointCycle cycle_;  // the checkpoint cycle's fixed parts (anchor_ is set per phase)
  Steps steps_;
  std::array<Time, kMechanismCount> price_time_{};
  std::array<double, kMechanismCount> price_s_{};
  mutable std::uint32_t prices_read_ = 0;  // Strategy::prices_read
  void note_read(Mechanism m) const { prices_read_ |= 1u << static_cast<int>(m); }
  Time listed_time(Mechanism m) const {
    note_read(m);
    return price_time_[static_cast<int>(m)];
  }

 protected:
  int active_ = 0;
  int joining_ = 0;
  int attached_ = 0;  // hardware attached and state copied, waiting for a rebuild to join
  // Replicas that joined a waiting job (counted in active_) whose rebuild is still to come.
  int unpaid_rejoins_ = 0;

 private:
  std::deque<EventId> joins_;
  std::vector<std::uint32_t> hit_domains_;
  double ntp_reshard_price_slow(int from, int to) const;  // computes and remembers
  int reshard_n_ = 0;                                     // the job's tp + 1 (from start())
  mutable std::vector<double> reshard_memo_;  // ntp_reshard_price_s by (from, to), tp + 1 square
};

}  // namespace goodput
