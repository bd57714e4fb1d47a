// Everything a scenario's runs share, prepared once: the topology (with its blast radii),
// the checkpoint interval the policy resolves to (and why), the job's expected interruption
// rate, and, for trace replay, the parsed trace. faults_for(run) draws or replays the fault
// list of one Monte Carlo run; every strategy of that run replays the same list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "models/failures/fault.hpp"
#include "models/scenario/scenario.hpp"
#include "models/topology/topology.hpp"

namespace goodput {

struct RunPlan {
  Scenario scenario;
  std::shared_ptr<const Topology> topology;
  Time horizon = 0;
  double job_faults_per_hour = 0;  // expected faults touching the job's GPUs (all of them up)
  Time checkpoint_interval = 0;    // 0: no checkpoints
  std::string checkpoint_policy;   // name of the policy in force
  std::string checkpoint_reason;   // one sentence: the formula and its inputs
  std::shared_ptr<const FaultList> trace_faults;  // trace replay only
  // Components outside the job's failure-free layout (by id), when idle hardware fails at a
  // different rate (/failures/idle_rate_scale < 1); null otherwise.
  std::shared_ptr<const std::vector<std::uint8_t>> idle_components;
  std::shared_ptr<const CostModel> cost;
  CostInfo cost_info;
};

RunPlan make_plan(const Scenario& scenario);
FaultList faults_for(const RunPlan& plan, int run);

}  // namespace goodput
