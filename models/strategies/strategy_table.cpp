// The explicit strategy table: one row per strategy, in report order.
#include "models/strategies/strategy_factories.hpp"

namespace goodput {

const std::vector<StrategyInfo>& strategy_table() {
  static const std::vector<StrategyInfo> table = {
      {"checkpoint_restart", "restart the whole job from the last checkpoint",
       &checkpoint_restart_params(), &make_checkpoint_restart, &snapshot_checkpoint_restart},
      {"dp_drop", "drop damaged data-parallel replicas, rejoin after repair", &dp_drop_params(),
       &make_dp_drop, &snapshot_dp_drop},
      {"hot_spares", "swap in warm spares, fall back when none is left", &hot_spares_params(),
       &make_hot_spares, &snapshot_hot_spares},
      {"ntp", "nonuniform tensor parallelism: damaged replicas continue at a lower TP degree",
       &ntp_params(), &make_ntp, &snapshot_ntp, nullptr, &ntp_tp_degrees},
      {"ntp_boost", "ntp with power boosting of degraded domains", &ntp_boost_params(),
       &make_ntp_boost, &snapshot_ntp_boost, nullptr, &ntp_boost_tp_degrees},
      {"peer_memory", "checkpoint to a peer's memory; roll back to it and swap a spare in",
       &peer_memory_params(), &make_peer_memory, &snapshot_peer_memory,
       &peer_memory_checkpoint_costs},
  };
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

std::string strategy_names() {
  std::string out;
  for (const auto& s : strategy_table()) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

}  // namespace goodput
