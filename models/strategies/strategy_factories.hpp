// Factories and parameter sections of the strategies, collected by strategy_table.cpp.
// (Internal to models/strategies.)
#pragma once

#include "models/strategies/job_controller.hpp"

namespace goodput {

const ParamSection& checkpoint_restart_params();
const ParamSection& dp_drop_params();
const ParamSection& hot_spares_params();
const ParamSection& ntp_params();
const ParamSection& ntp_boost_params();
const ParamSection& peer_memory_params();
CheckpointSpec peer_memory_checkpoint_costs(const Scenario& scenario, const Json& params);

std::unique_ptr<Strategy> make_checkpoint_restart(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_dp_drop(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_hot_spares(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_ntp(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_ntp_boost(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_peer_memory(const Scenario&, const Json&);

Phase snapshot_checkpoint_restart(const SnapshotInput&);
Phase snapshot_dp_drop(const SnapshotInput&);
Phase snapshot_hot_spares(const SnapshotInput&);
Phase snapshot_ntp(const SnapshotInput&);
Phase snapshot_ntp_boost(const SnapshotInput&);
Phase snapshot_peer_memory(const SnapshotInput&);
TpDegreeRule ntp_tp_degrees(const Scenario&, const Json& params);
TpDegreeRule ntp_boost_tp_degrees(const Scenario&, const Json& params);
// Full TP groups the healthy GPUs can hold (sum over domains of floor(healthy / tp)).
std::int64_t full_group_capacity(const ClusterHealth& health, int tp);

// dp_drop's batch settings, declared once: dp_drop's own (prefix "") and hot_spares' dp_drop
// fallback (prefix "fallback_"), each read from its own section.
std::vector<ParamDecl> drop_param_decls(const std::string& prefix);
DropOptions read_drop_options(const ParamReader& r, const std::string& prefix);
DropOptions read_drop_options(const Json& params);  // a dp_drop section

}  // namespace goodput
