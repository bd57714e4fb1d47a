// Everything a scenario's runs share, prepared once: the topology (with its blast radii),
// each strategy's checkpoint interval (and why), the job's expected interruption rate, and,
// for trace replay, the trace's faults (records of one component that overlap merged into one). A
// fixed interval (or none) applies to every strategy; the adaptive policies (young, daly,
// availability_optimal) put each strategy at its own optimum, from the rate of the events that roll
// *it* back: a pilot simulation without checkpoints (the first min(seeds, 2) runs' faults) counts
// each strategy's rollbacks. faults_for(run) draws or replays the fault list of one Monte Carlo
// run (a trace replay: its window and placement, trace_sampling.hpp); every strategy of that run
// replays the same list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "models/failures/fault.hpp"
#include "models/scenario/scenario.hpp"
#include "models/topology/topology.hpp"
#include "models/trace/trace.hpp"
#include "sim/run/trace_sampling.hpp"

namespace goodput {

struct RunPlan {
  Scenario scenario;
  std::shared_ptr<const Topology> topology;
  Time horizon = 0;
  double job_faults_per_hour = 0;  // expected faults touching the job's GPUs (all of them up)
  // Per fault class (FaultList::classes order): its expected repair time in seconds, from the
  // declared failure model (a trace: the mean duration of the class's faults in the trace);
  // and their mean weighted by each class's job fault rate (JobContext::expected_repair_s).
  std::vector<double> expected_repair_s;
  double mean_expected_repair_s = 0;
  std::string checkpoint_policy;  // name of the policy in force
  struct Checkpointing {
    Time interval = 0;               // 0: no checkpoints
    std::string reason;              // one sentence: the formula and its inputs
    double rollbacks_per_hour = -1;  // measured by the pilot (-1: not needed)
    CheckpointSpec spec;             // the strategy's save costs (StrategyInfo::checkpoint_costs)
  };
  std::vector<Checkpointing> checkpoints;  // one per scenario.strategies entry, same order
  // For a strategy outside the scenario's list: the fixed interval, or the adaptive formula
  // with the job's fault rate (every job fault taken as a rollback).
  Checkpointing default_checkpointing;
  const Checkpointing& checkpointing(const std::string& strategy) const;
  std::shared_ptr<const FaultList> trace_faults;  // trace replay only
  // Trace replay only: the trace's fault records (paired starts and ends) and how many of them
  // were merged into an overlapping record of the same component (trace::merge_overlapping);
  // trace_faults holds records - merged faults.
  struct TraceRecords {
    std::size_t records = 0;
    std::size_t merged = 0;
  };
  TraceRecords trace_records;
  // Trace replay only: what its seeds vary (/failures/trace/seeds_vary); faults_for(run) takes
  // run `run`'s window and placement of trace_faults. deterministic(): every run is the same.
  TraceSampling trace_sampling;
  bool deterministic_replay() const { return trace_faults && trace_sampling.deterministic(); }
  // Components outside the job's failure-free layout (by id), when idle hardware fails at a
  // different rate (/failures/idle_rate_scale < 1); null otherwise.
  std::shared_ptr<const std::vector<std::uint8_t>> idle_components;
  std::shared_ptr<const CostModel> cost;
  CostInfo cost_info;
  // The checkpoint pilot (adaptive policies): its runs and each strategy's rollbacks, in
  // scenario.strategies order; runs = 0 when none ran. Given back to make_plan it replaces the
  // pilot's simulation (a sweep's rank 0 and --resume rebuild a point's plan without it).
  struct Pilot {
    int runs = 0;
    std::vector<std::int64_t> rollbacks;
  };
  Pilot pilot;
  // Under a PilotEstimate: the rollbacks of the strategies it simulated (its `simulate`), -1 for
  // the others (estimated); empty without an estimate.
  std::vector<std::int64_t> simulated_rollbacks;
  // shared_faults_for keeps this plan's drawn fault lists among the process's last few, by what
  // draws them (the topology, /failures as resolved, the horizon, the restart price, the seed,
  // the run, the idle components), and replays a kept one: set by the verdict analysis's
  // evaluator, whose evaluations of a moved price draw the base's faults again. Trace replay is
  // not kept. The key reads Scenario::resolved, as the evaluator's own plan memo does.
  bool recent_faults = false;
};

// The verdict analysis's estimate of a modified scenario's checkpoint pilot
// (EvaluationScope::pilot): each strategy's rollbacks are those `measured` on the base scenario,
// times this plan's expected job faults per hour over `base_job_faults_per_hour` (0: times 1, the
// failures did not move), except the strategies listed in `simulate` (indexes into the plan's
// strategies), whose pilot is simulated. Rollbacks follow the faults that need a restart, which
// the failures and each strategy's rules decide; an interval near its optimum changes the run
// only to second order in the error of its rollback rate (run_plan.cpp, resolve_checkpointing).
struct PilotEstimate {
  RunPlan::Pilot measured;
  double base_job_faults_per_hour = 0;
  std::vector<std::size_t> simulate;
};

// `threads`: for the checkpoint pilot's runs (the plan is the same whatever the count).
// `known`: a pilot of this scenario measured before (RunPlan::pilot); used instead of running
// it when its run count and strategies match, so the plan is the same, only cheaper.
// `estimate`: used when `known` is not and its run count and strategies match; the plan's
// `pilot` then has no runs (it measured nothing of its own to hand on).
RunPlan make_plan(const Scenario& scenario, int threads = 1, const RunPlan::Pilot* known = nullptr,
                  const PilotEstimate* estimate = nullptr);
FaultList faults_for(const RunPlan& plan, int run);
// faults_for, or a kept list when plan.recent_faults (RunPlan::recent_faults).
std::shared_ptr<const FaultList> shared_faults_for(const RunPlan& plan, int run);
// The scenario's trace (/failures/trace), parsed once per process (trace::read_trace_shared):
// the work budget counts its faults, and every plan of the process replays the same parse.
std::shared_ptr<const trace::Trace> scenario_trace(const Scenario& scenario);

}  // namespace goodput
