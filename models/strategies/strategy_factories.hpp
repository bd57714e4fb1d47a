// Factories and parameter sections of the strategies, collected by strategy_table.cpp.
// (Internal to models/strategies.)
#pragma once

#include "models/strategies/job_controller.hpp"

namespace goodput {

const ParamSection& checkpoint_restart_params();
const ParamSection& dp_drop_params();
const ParamSection& hot_spares_params();

std::unique_ptr<Strategy> make_checkpoint_restart(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_dp_drop(const Scenario&, const Json&);
std::unique_ptr<Strategy> make_hot_spares(const Scenario&, const Json&);

DropOptions read_drop_options(const Json& params);

}  // namespace goodput
