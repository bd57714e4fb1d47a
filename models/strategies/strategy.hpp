// The recovery-strategy interface. A strategy is told when the run starts and, for every
// fault start and end, what it did to the cluster (GPUs down/up, job TP groups hit); it moves
// the job's groups (JobLayout), schedules its own timers on the engine, and says what the job
// is doing through JobSignals. Strategies are picked by name from the explicit table in
// strategy_table.cpp; each declares its parameters once (ParamSection).
#pragma once

#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/failures/fault.hpp"
#include "models/job/job_layout.hpp"
#include "models/job/job_signals.hpp"
#include "models/scenario/scenario.hpp"
#include "models/strategies/tp_degrees.hpp"
#include "sim/core/params.hpp"
#include "sim/engine/simulator.hpp"

namespace goodput {

class CostModel;

// What a strategy may keep from one run to the next of the same strategy, scenario and cost
// model on one thread (JobContext::memo: memos of pure functions), or share with the other
// strategies of a run (RunShared: e.g. indexes of the one cluster health). Using either changes
// no result, only how often the same answers are computed. Each strategy defines its own.
struct StrategyMemo {
  virtual ~StrategyMemo() = default;
};

// State the strategies of one run share, by a key they agree on (the key names the type and
// everything it depends on): made by the first strategy that asks, found by the others.
class RunShared {
 public:
  template <class T, class Make>
  T& get(const std::string& key, Make&& make) {
    std::unique_ptr<StrategyMemo>& slot = items_[key];
    if (!slot) slot = make();
    T* t = dynamic_cast<T*>(slot.get());
    if (!t) throw std::logic_error("RunShared: '" + key + "' holds another type");
    return *t;
  }

 private:
  std::map<std::string, std::unique_ptr<StrategyMemo>> items_;
};

struct JobContext {
  Simulator* sim = nullptr;
  const Scenario* scenario = nullptr;
  const ClusterHealth* health = nullptr;
  JobLayout* layout = nullptr;
  JobObserver* signals = nullptr;
  Time checkpoint_interval = 0;  // resolved from the checkpoint policy; 0: no checkpoints
  const CheckpointSpec* checkpoint = nullptr;  // the strategy's save costs (null: the scenario's)
  const CostModel* cost = nullptr;
  double job_faults_per_hour = 0;  // expected faults touching the job (RunPlan); 0: none
  // Per fault class (Fault::fault_class): its expected repair time in seconds under the declared
  // failure model (RunPlan; a trace: the class's mean repair in the trace). Empty: unknown.
  std::span<const double> expected_repair_s;
  double mean_expected_repair_s = 0;  // over the classes, weighted by their job fault rates
  // The strategy's slot for its StrategyMemo, kept by the caller across runs (null: a run of
  // its own; the strategy then keeps its memo itself).
  std::unique_ptr<StrategyMemo>* memo = nullptr;
  RunShared* shared = nullptr;  // this run's shared state (null: a strategy keeps its own)
};

// Snapshot mode: a fixed set of failed GPUs, no time axis.
struct SnapshotInput {
  const Scenario* scenario = nullptr;
  const ClusterHealth* health = nullptr;
  const CostModel* cost = nullptr;
  Json params;
};

struct FaultImpact {
  const Fault* fault = nullptr;
  bool restart_only = false;
  std::span<const std::uint32_t> newly_down;  // GPUs that went down (already out of their groups)
  std::span<const GroupHit> hits;             // job TP groups that lost a GPU
};

struct RepairImpact {
  const Fault* fault = nullptr;
  std::span<const std::uint32_t> newly_up;
  std::span<const std::uint32_t> domains;  // domains that gained healthy GPUs
};

class Strategy : public EventHandler {
 public:
  virtual void start(JobContext& ctx) = 0;
  virtual void on_fault(const FaultImpact& impact) = 0;
  virtual void on_repair(const RepairImpact& impact) = 0;
  // Brings what the strategy defers (e.g. the inner step boundaries of a stall) up to, but not
  // including, `now`: called before anything else touches this strategy's job at `now` (its
  // layout, its accounting) and with the horizon + 1 at the end of the run.
  virtual void settle(Time /*now*/) {}
  // A cache hint, no effect on results: start loading what the strategy keeps about domain d
  // (its layout is hinted separately), ahead of a fault or repair there.
  virtual void prefetch_domain(std::uint32_t /*d*/) const {}
  virtual std::int64_t events_handled() const { return 0; }  // its own engine events fired
  // The mechanisms whose list price (price_list.hpp) the run read, one bit per Mechanism: a run
  // that never read one does not depend on its price. Every bit when not tracked.
  virtual std::uint32_t prices_read() const { return ~0u; }
};

// What a strategy does about a slow component once it is detected (fail-slow, issue 29; applied
// by sim/run/slow_faults.hpp before the run, so the strategy itself only ever sees the fail-stop
// faults it asked for). Evict: treat it as failed from detection on. ExcludeIfFaster (ntp,
// ntp_boost): run its TP group without it (at the highest allowed degree, boosted up to
// boost_cap) when that keeps more of the replica's batch than running slow with the replica's
// local batch cut to fit the step (boosted up to boost_cap); else keep it, so cut.
struct SlowRule {
  enum class Kind : std::uint8_t { Evict, ExcludeIfFaster };
  Kind kind = Kind::Evict;
  int min_tp = 1;            // ExcludeIfFaster: the TP degrees it may run at
  std::vector<int> allowed;  // (empty: every degree from min_tp to tp)
  double boost_cap = 1;      // the power multiplier a slow or degraded group may get (1: none)
};

struct StrategyInfo {
  std::string name;
  std::string doc;
  const ParamSection* params;
  std::unique_ptr<Strategy> (*make)(const Scenario& scenario, const Json& params);
  // Steady-state phase of the job on the snapshot's healthy GPUs.
  Phase (*snapshot)(const SnapshotInput& input);
  // Its own checkpoint costs when it does not save like the scenario says (e.g. to a peer's
  // memory); null: /checkpoint. The interval policy then uses these costs for it.
  CheckpointSpec (*checkpoint_costs)(const Scenario& scenario, const Json& params) = nullptr;
  // The TP degrees its replicas can run at below the job's tp (min_tp, allowed_tp), for the
  // cost model and the profile check; null: it only runs full TP groups.
  TpDegreeRule (*tp_degrees)(const Scenario& scenario, const Json& params) = nullptr;
  // Its response to a detected slow component; null: SlowRule{} (evict).
  SlowRule (*slow_rule)(const Scenario& scenario, const Json& params) = nullptr;
  // Whether its run (with `params`) provably equals `lead`'s on any faults in everything but the
  // power boost figures, which are zero for it (e.g. ntp and an ntp_boost with no power
  // headroom): simulate_all then runs only the lead. Null: never.
  bool (*follows)(const Scenario& scenario, const Json& params,
                  const StrategyConfig& lead) = nullptr;
};

// The explicit table of strategies, in report order.
const std::vector<StrategyInfo>& strategy_table();
const StrategyInfo* find_strategy(const std::string& name);
std::string strategy_names();  // "a, b, c" for error messages
std::vector<std::string> strategy_name_list();
// The TP degrees the scenario's strategies can run replicas at (each one's tp_degrees rule,
// tp_degrees.hpp: the rule the calibration harness measures by), ascending, ending with tp. What
// make_cost_model (models/cost/cost_model.hpp) costs and checks the profile against.
std::vector<int> needed_tp_degrees(const Scenario& scenario);
// The TP degrees a run's cost model is built for (make_plan, explain-step): needed_tp_degrees,
// and with a datasheet profile (no /cost/profile: generated for the degrees it is given) at
// least every degree from default_min_tp(tp) up. The generated profile's lookups at a degree
// (its fits, the memory kernels interpolated between the degrees it profiles) and the cost
// model's worst pipeline positions depend on the lowest degree it is built for: taken from the
// strategies alone, one strategy's costs (the healthy step itself) changed with the strategies
// run beside it (a subset of a list gave other runs than the whole list, evaluation_scope.hpp).
// A strategy's own degrees below default_min_tp(tp) still extend it for every strategy of the
// run; a measured profile is the same whatever the degrees.
std::vector<int> cost_model_tp_degrees(const Scenario& scenario);

}  // namespace goodput
