// The evaluators of a modified scenario (monte_carlo.hpp): one evaluation at a time, or a
// batch of them sharing the threads.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/parallel_for.hpp"
#include "sim/run/monte_carlo.hpp"
#include "sim/run/monte_carlo_runs.hpp"
#include "sim/run/single_run.hpp"

namespace goodput {

namespace {

// The evaluators' shared state: the base's pilot and the plans built lately.
struct EvaluatorState {
  int threads = 1;
  RunPlan::Pilot pilot;
  double job_faults_per_hour = 0;
  bool first = true;  // no evaluation yet: the first one (the base) may provide the pilot
  // Plans built from the same inputs (the scenario but its seed count, and the scope's pilot) are
  // the same: a robustness world extending its seeds (first_run > 0) asks for its plan again.
  // The most recent last; a plan depends on the seed count only through the pilot's runs,
  // min(seeds, 2).
  static constexpr std::size_t kPlansKept = 64;
  std::vector<std::pair<std::string, std::shared_ptr<const RunPlan>>> plans;
  // Own pilots simulated under Keep (the base's failures), by the strategy's rules
  // (EvaluationScope::own_pilot_rules): their rollbacks over the base pilot's runs.
  std::map<std::string, std::int64_t> rule_pilots;
};

// One evaluation to simulate: its plan (the strategies in scope only), where each of its
// strategies goes in the result, and how the plan is had.
struct Prepared {
  RunPlan plan;
  std::vector<std::size_t> only;   // per strategy of the plan: its index in the request's list
  std::vector<std::string> names;  // the request's strategies
  int first_run = 0;
  // The plan's order: its scenario (the strategies in scope), the pilot's estimate, its memo key,
  // the memo's plan when it has one, and whether its pilot becomes the base's (the first).
  Scenario scenario;
  std::optional<PilotEstimate> estimate;
  std::string key;
  std::shared_ptr<const RunPlan> found;
  bool provides_pilot = false;
  // Own pilots to remember once simulated: (index in the plan's strategies, rules).
  std::vector<std::pair<std::size_t, std::string>> records;
};

// Everything but building the plan (the memo looked up).
Prepared order(EvaluatorState& kept, const Scenario& s, const EvaluationScope& scope) {
  using Pilot = EvaluationScope::Pilot;
  const bool first = std::exchange(kept.first, false);
  const std::size_t n = s.strategies.size();
  Prepared p;
  p.first_run = scope.first_run;
  for (const auto& c : s.strategies) p.names.push_back(c.name);
  p.scenario = s;
  p.only = scope.strategies;
  if (p.only.empty())
    for (std::size_t i = 0; i < n; ++i) p.only.push_back(i);
  if (scope.strategies.empty() && scope.pilot == Pilot::Simulate) {
    p.provides_pilot = first && kept.pilot.runs == 0;
  } else {  // the strategies in scope only
    p.scenario.strategies.clear();
    for (std::size_t i : p.only) {
      if (i >= n) throw std::logic_error("monte_carlo_evaluator: strategy index out of range");
      p.scenario.strategies.push_back(s.strategies[i]);
    }
    if (scope.pilot != Pilot::Simulate && kept.pilot.runs > 0 && kept.pilot.rollbacks.size() == n) {
      PilotEstimate& e = p.estimate.emplace();
      e.measured.runs = kept.pilot.runs;
      if (scope.pilot == Pilot::Scale) e.base_job_faults_per_hour = kept.job_faults_per_hour;
      std::string reused;  // the own pilots taken from earlier evaluations (part of the key)
      for (std::size_t j = 0; j < p.only.size(); ++j) {
        e.measured.rollbacks.push_back(kept.pilot.rollbacks[p.only[j]]);
        const auto own = std::find(scope.own_pilot.begin(), scope.own_pilot.end(), p.only[j]);
        if (own == scope.own_pilot.end()) continue;
        const auto r = static_cast<std::size_t>(own - scope.own_pilot.begin());
        const std::string rules = r < scope.own_pilot_rules.size() ? scope.own_pilot_rules[r] : "";
        const auto known = rules.empty() ? kept.rule_pilots.end() : kept.rule_pilots.find(rules);
        if (known != kept.rule_pilots.end()) {
          e.measured.rollbacks.back() = known->second;
          reused += std::to_string(j) + ":" + std::to_string(known->second) + ";";
          continue;
        }
        e.simulate.push_back(j);
        if (!rules.empty() && scope.pilot == Pilot::Keep) p.records.emplace_back(j, rules);
      }
      p.key += reused;
    }
  }
  Json inputs = p.scenario.resolved;
  if (inputs.is_object()) inputs.erase("seeds");
  p.key += inputs.dump() +
           Json{scope.strategies, static_cast<int>(scope.pilot), scope.own_pilot}.dump() +
           std::to_string(std::min(p.scenario.seeds, 2));
  for (auto it = kept.plans.begin(); it != kept.plans.end(); ++it)
    if (it->first == p.key) {
      p.found = it->second;
      std::rotate(it, it + 1, kept.plans.end());
      break;
    }
  return p;
}

// The plan of an order: the memo's (with the request's seeds) or a new one. Touches no shared
// state but the process-wide memos of make_plan: orders may be built on several threads.
void build(Prepared& p) {
  if (p.found) {
    p.plan = *p.found;
    p.plan.scenario.seeds = p.scenario.seeds;
    p.plan.scenario.resolved = p.scenario.resolved;
  } else {
    p.plan = make_plan(p.scenario, 1, nullptr, p.estimate ? &*p.estimate : nullptr);
  }
  p.plan.recent_faults = true;  // an evaluation of a moved price replays the base's faults
}

// After build(): a new plan is remembered, and the first evaluation's pilot becomes the base's.
void keep(EvaluatorState& kept, const Prepared& p) {
  if (!p.found) {
    kept.plans.emplace_back(p.key, std::make_shared<const RunPlan>(p.plan));
    if (kept.plans.size() > EvaluatorState::kPlansKept) kept.plans.erase(kept.plans.begin());
  }
  for (const auto& [j, rules] : p.records)
    if (j < p.plan.simulated_rollbacks.size() && p.plan.simulated_rollbacks[j] >= 0)
      kept.rule_pilots.emplace(rules, p.plan.simulated_rollbacks[j]);
  if (p.provides_pilot && p.plan.pilot.runs > 0) {
    kept.pilot = p.plan.pilot;
    kept.job_faults_per_hour = p.plan.job_faults_per_hour;
  }
}

Prepared prepare(EvaluatorState& kept, const Scenario& s, const EvaluationScope& scope) {
  Prepared p = order(kept, s, scope);
  build(p);
  keep(kept, p);
  return p;
}

// The request's result: one StrategyRuns per strategy of its scenario, those out of scope empty.
std::vector<StrategyRuns> finish(const Prepared& p, std::vector<StrategyRuns> runs) {
  std::vector<StrategyRuns> out(p.names.size());
  for (std::size_t i = 0; i < p.names.size(); ++i) out[i].strategy = p.names[i];
  for (std::size_t j = 0; j < p.only.size(); ++j) out[p.only[j]] = std::move(runs[j]);
  return out;
}

}  // namespace

MonteCarloEvaluators monte_carlo_evaluators(int threads, RunPlan::Pilot base_pilot,
                                            double base_job_faults_per_hour) {
  auto kept = std::make_shared<EvaluatorState>();
  kept->threads = threads;
  kept->pilot = std::move(base_pilot);
  kept->job_faults_per_hour = base_job_faults_per_hour;
  MonteCarloEvaluators e;
  e.one = [kept](const Scenario& s, const EvaluationScope& scope) {
    const Prepared p = prepare(*kept, s, scope);
    return finish(p, run_monte_carlo(p.plan, kept->threads, {}, p.first_run));
  };
  // Plans one by one (in order: the same plans as `one` in turn), then every (request, run) pair
  // on the threads at once, request by request, each run's results in its fixed slot.
  e.many = [kept](const std::vector<EvaluationRequest>& requests, const BatchDone& done) {
    const std::size_t k = requests.size();
    std::vector<EvaluationOutcome> out(k);
    std::vector<std::optional<Prepared>> prepared(k);
    std::vector<std::vector<StrategyRuns>> runs(k);
    struct Task {
      std::size_t request;
      int run;
    };
    std::vector<Task> tasks;
    // The orders in turn (each may read the pilot an earlier one provided), then the plans to
    // build on the threads at once (make_plan with one thread each), then remembered in order.
    std::vector<std::size_t> to_build;
    for (std::size_t r = 0; r < k; ++r) {
      try {
        prepared[r] = order(*kept, requests[r].scenario, requests[r].scope);
        if (prepared[r]->provides_pilot) {  // later orders read its pilot
          build(*prepared[r]);
          keep(*kept, *prepared[r]);
        } else {
          to_build.push_back(r);
        }
      } catch (...) {
        out[r].error = std::current_exception();
        prepared[r].reset();
      }
    }
    parallel_for(
        static_cast<int>(to_build.size()), kept->threads,
        [&](int i) {
          const std::size_t r = to_build[static_cast<std::size_t>(i)];
          try {
            build(*prepared[r]);
          } catch (...) {
            out[r].error = std::current_exception();  // its own slot
          }
        },
        [](int) {});
    for (std::size_t r : to_build) {
      if (out[r].error) {
        prepared[r].reset();
        continue;
      }
      keep(*kept, *prepared[r]);
    }
    std::vector<int> left(k, 0);  // runs still to simulate, per request
    for (std::size_t r = 0; r < k; ++r) {
      if (!prepared[r]) {
        if (done) done(r);
        continue;
      }
      const RunPlan& plan = prepared[r]->plan;
      left[r] = std::max(0, plan.scenario.seeds - prepared[r]->first_run);
      if (left[r] == 0 && done) done(r);
      runs[r] = empty_runs(plan, std::max(0, plan.scenario.seeds - prepared[r]->first_run));
      for (int run = prepared[r]->first_run; run < plan.scenario.seeds; ++run)
        tasks.push_back({r, run});
    }
    // Per worker: the request its workspace serves (a workspace serves one plan).
    struct Worker {
      std::size_t request = SIZE_MAX;
      RunWorkspace workspace;
    };
    std::vector<Worker> workers(static_cast<std::size_t>(std::max(1, kept->threads)));
    std::vector<std::exception_ptr> failed(k);
    std::mutex failing;
    parallel_for(
        static_cast<int>(tasks.size()), kept->threads,
        [&](int t, int worker) {
          const Task task = tasks[static_cast<std::size_t>(t)];
          Worker& w = workers[static_cast<std::size_t>(worker)];
          if (w.request != task.request) {
            w.workspace = RunWorkspace();
            w.request = task.request;
          }
          const Prepared& p = *prepared[task.request];
          try {
            store_run(p.plan, task.run - p.first_run, simulate_run(p.plan, task.run, w.workspace),
                      runs[task.request]);
          } catch (...) {
            const std::lock_guard<std::mutex> lock(failing);
            if (!failed[task.request]) failed[task.request] = std::current_exception();
          }
        },
        [&](int t) {  // under parallel_for's lock
          const std::size_t r = tasks[static_cast<std::size_t>(t)].request;
          if (--left[r] == 0 && done) done(r);
        });
    for (std::size_t r = 0; r < k; ++r) {
      if (out[r].error) continue;
      if (failed[r])
        out[r].error = failed[r];
      else
        out[r].runs = finish(*prepared[r], std::move(runs[r]));
    }
    return out;
  };
  return e;
}

ScopedEvaluate monte_carlo_evaluator(int threads, RunPlan::Pilot base_pilot,
                                     double base_job_faults_per_hour) {
  return monte_carlo_evaluators(threads, std::move(base_pilot), base_job_faults_per_hour).one;
}

}  // namespace goodput
