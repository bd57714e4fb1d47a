// Helpers more than one strategy uses (internal to models/strategies). A strategy's own
// parameters, factory and table entry live in its file (strategy.hpp: StrategyInfo).
#pragma once

#include "models/strategies/job_controller.hpp"
#include "sim/core/param_binding.hpp"

namespace goodput {

// Full TP groups the healthy GPUs can hold (sum over domains of floor(healthy / tp)).
std::int64_t full_group_capacity(const ClusterHealth& health, int tp);

// dp_drop's batch settings, declared once and bound to DropOptions: dp_drop's own (prefix "")
// and hot_spares' dp_drop fallback (prefix "fallback_").
std::vector<BoundParam<DropOptions>> drop_fields(const std::string& prefix);

}  // namespace goodput
