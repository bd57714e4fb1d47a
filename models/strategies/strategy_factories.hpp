// Helpers more than one strategy uses (internal to models/strategies). A strategy's own
// parameters, factory and table entry live in its file (strategy.hpp: StrategyInfo).
#pragma once

#include "models/strategies/job_controller.hpp"

namespace goodput {

// Full TP groups the healthy GPUs can hold (sum over domains of floor(healthy / tp)).
std::int64_t full_group_capacity(const ClusterHealth& health, int tp);

// dp_drop's batch settings, declared once: dp_drop's own (prefix "") and hot_spares' dp_drop
// fallback (prefix "fallback_"), each read from its own section.
std::vector<ParamDecl> drop_param_decls(const std::string& prefix);
DropOptions read_drop_options(const ParamReader& r, const std::string& prefix);
DropOptions read_drop_options(const Json& params);  // a dp_drop section

}  // namespace goodput
