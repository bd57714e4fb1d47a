// EvaluationsAhead: the evaluations run_sensitivity (sensitivity.hpp) knows before any result,
// every range end and switch value. They run as batches, side by side, and are served when the
// analysis asks for them in its own order: the outcome, its counting and its errors are those
// of asking one at a time.
//
// Sequential ends (`first` > 0, below the scenario's seeds): each evaluation runs its first
// `first` seeds, and the rest of them (EvaluationScope::first_run) only where `settled` says
// those leave the sign of a paired lead in doubt. A served evaluation then holds either every
// seed (the same runs as asking for them at once) or its first seeds only (`short_runs`).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/run/evaluation_scope.hpp"

namespace goodput {

class EvaluationsAhead {
 public:
  // One evaluation to run ahead: the scenario with every seed (what the analysis will ask for),
  // its scope, and the progress label told when its first evaluation is done.
  struct Entry {
    Scenario scenario;
    EvaluationScope scope;
    std::string label;
    double value = 0;
  };
  // Whether an evaluation's first seeds settle it (their runs, those out of scope empty).
  using Settled = std::function<bool(const std::vector<StrategyRuns>& first)>;

  // The scenario's first `first` seeds only (0: every seed at once).
  explicit EvaluationsAhead(int first = 0) : first_(first) {}

  // Queues an evaluation.
  void add(Scenario scenario, const EvaluationScope& scope, const std::string& label, double value);
  // Runs every queued evaluation (`run_all`), then the rest of the seeds of those `settled`
  // does not settle; `progress` is told once per evaluation, as its first batch finishes.
  void run(const BatchEvaluate& run_all, const Settled& settled,
           const std::function<void(const std::string&, double)>& progress);
  // The outcome asked for, once (nullopt: not run ahead); `short_runs` says it holds the first
  // seeds only.
  std::optional<EvaluationOutcome> take(const Scenario& sc, const EvaluationScope& scope,
                                        bool& short_runs);

  int first_seeds() const { return first_; }
  int evaluated() const { return evaluated_; }  // evaluations run ahead
  int extended() const { return extended_; }    // of them, those that ran every seed

 private:
  struct Ready {
    EvaluationOutcome outcome;
    bool short_runs = false;
  };
  int first_ = 0;
  int evaluated_ = 0, extended_ = 0;
  std::vector<Entry> entries_;
  std::map<std::string, Ready> ready_;
};

// The key an evaluation is known by: its resolved scenario and its scope.
std::string evaluation_key(const Scenario& sc, const EvaluationScope& scope);

}  // namespace goodput
