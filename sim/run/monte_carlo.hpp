// Monte Carlo over seeds: run r draws (or replays) its fault list once and every strategy
// replays it (common random numbers, so strategy differences are paired). Runs are spread
// over threads with no shared mutable state; results land in fixed slots, so the output is
// identical whatever the thread count.
#pragma once

#include <functional>
#include <vector>

#include "models/failures/fault.hpp"
#include "models/job/job_signals.hpp"
#include "sim/run/evaluation_scope.hpp"
#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

using ProgressFn = std::function<void(int runs_done, int runs_total)>;

// Watches one run of the Monte Carlo while it is simulated (e.g. to record its timeline), so
// that run is not simulated a second time: observers() gives one extra observer per strategy
// (in order) for that run; done() then gets the run's faults. Both are called on the thread that
// runs it, once. Observers only observe: the run's results are the same with or without them.
struct RunWatch {
  int run = 0;
  std::function<std::vector<JobObserver*>()> observers;
  std::function<void(const FaultList&)> done;
};

// Runs first_run .. seeds - 1 (run r's results depend on r alone, so a later call can extend an
// earlier one); the returned runs are in run order. `watch` (optional; not in snapshot mode):
// the run it names, if among them, is simulated with its observers.
std::vector<StrategyRuns> run_monte_carlo(const RunPlan& plan, int threads,
                                          const ProgressFn& progress = {}, int first_run = 0,
                                          const RunWatch* watch = nullptr);

// Evaluates a modified scenario for `goodput sensitivity` and a run's "depends on" analysis:
// builds its plan again (make_plan: the topology and cost model are shared with earlier plans
// of the same shape) and runs the strategies in scope over all its seeds on `threads` threads.
// `base_pilot` and `base_job_faults_per_hour`: the unmodified scenario's checkpoint pilot and
// expected job faults per hour (RunPlan), which evaluations whose scope keeps or scales the pilot
// start from (EvaluationScope, PilotEstimate); when it has no runs, the evaluator's first
// evaluation (the base, which a sensitivity analysis evaluates first) provides both if it
// simulates every strategy's pilot.
ScopedEvaluate monte_carlo_evaluator(int threads, RunPlan::Pilot base_pilot = {},
                                     double base_job_faults_per_hour = 0);
// The same evaluator (`one`, sharing its state) and its batch form (`many`): a batch's plans are
// built in order, as `one` would build them in turn, then all its runs share the threads, so a
// batch of evaluations of a few seeds each keeps every thread busy. Each outcome equals what
// `one` gives for that request (or the error it throws).
struct MonteCarloEvaluators {
  ScopedEvaluate one;
  BatchEvaluate many;
};
MonteCarloEvaluators monte_carlo_evaluators(int threads, RunPlan::Pilot base_pilot = {},
                                            double base_job_faults_per_hour = 0);

}  // namespace goodput
