// The strategy table: the entries the strategy files declare, in the order models/CMakeLists.txt
// lists them (report order).
#include <algorithm>

#include "models/cost/cost_model.hpp"
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

// Generated (strategy_entries.cpp): each listed strategy's strategy_entry_<name>().
std::vector<StrategyInfo> registered_strategies();

const std::vector<StrategyInfo>& strategy_table() {
  static const std::vector<StrategyInfo> table = registered_strategies();
  return table;
}

const StrategyInfo* find_strategy(const std::string& name) {
  for (const auto& s : strategy_table())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> strategy_name_list() {
  std::vector<std::string> out;
  for (const auto& s : strategy_table()) out.push_back(s.name);
  return out;
}

std::vector<int> needed_tp_degrees(const Scenario& s) {
  // Each strategy that runs replicas below tp says at which degrees (its table entry).
  std::vector<TpDegreeRule> rules;
  for (const auto& st : s.strategies)
    if (const StrategyInfo* info = find_strategy(st.name); info && info->tp_degrees)
      rules.push_back(info->tp_degrees(s, st.params));
  return reachable_tp_degrees(s.job.tp, rules);
}

std::vector<int> cost_model_tp_degrees(const Scenario& s) {
  std::vector<int> degrees = needed_tp_degrees(s);
  if (!uses_iteration_model(s) || !s.cost.profile.empty()) return degrees;
  for (int t = default_min_tp(s.job.tp); t < s.job.tp; ++t) degrees.push_back(t);
  std::sort(degrees.begin(), degrees.end());
  degrees.erase(std::unique(degrees.begin(), degrees.end()), degrees.end());
  return degrees;
}

std::string strategy_names() {
  std::string out;
  for (const auto& s : strategy_table()) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

}  // namespace goodput
