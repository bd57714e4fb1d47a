// Test helpers: a small scenario built in code, and a fault list written by hand.
#pragma once

#include <string>

#include "models/cost/cost_model.hpp"
#include "models/scenario/scenario_loader.hpp"
#include "models/strategies/strategy.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput::test {

// 4 HGX-8 nodes as 4 domains (TP8), a TP8 x PP1 x DP`dp` job; no failures unless asked.
inline Json small_scenario(int dp = 3, int domains = 4) {
  Json j = Json::parse(R"({
    "name": "small", "horizon_hours": 100, "seeds": 1,
    "cluster": {"preset": "hgx-8", "nodes_per_rack": 4, "nodes_per_leaf": 4},
    "job": {"tp": 8, "pp": 1, "dp": 3, "step_s": 10},
    "failures": {"preset": "none"},
    "recovery": {"detection_s": 100, "restart_s": 200},
    "checkpoint": {"interval": "fixed", "interval_s": 3600, "save_s": 60, "load_s": 300},
    "strategies": {"checkpoint_restart": {}, "dp_drop": {}, "hot_spares": {}}
  })");
  j["job"]["dp"] = dp;
  j["cluster"]["domains"] = domains;
  return j;
}

inline Scenario scenario_from(const Json& j) {
  return parse_scenario(j, "test.json");
}

// The scenario's cost model, costing the TP degrees its strategies can reach (as make_plan does).
inline std::shared_ptr<const CostModel> cost_model_of(const Scenario& s) {
  return make_cost_model(s, needed_tp_degrees(s), nullptr);
}

// The scenario's configuration of a strategy, or its defaults when the scenario omits it.
inline StrategyConfig config_for(const Scenario& s, const std::string& name) {
  if (const StrategyConfig* c = s.strategy(name)) return *c;
  Json params = Json::object();
  ParamReader(Json::object(), *find_strategy(name)->params, "", "", &params);
  return {name, params};
}

inline FaultList one_fault(const Topology& topo, const std::string& component, double start_h,
                           double end_h, bool restart_only = false) {
  FaultList f;
  f.classes.push_back({"test", restart_only});
  f.faults.push_back({from_hours(start_h), from_hours(end_h), *topo.resolve(component), 0});
  return f;
}

}  // namespace goodput::test
