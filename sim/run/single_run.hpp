// One run: a fresh engine, cluster health and layout, one strategy, one fault list. Faults are
// fed to the engine lazily (the next start is scheduled when the previous one fires), health
// and layout are updated, then the strategy reacts. `extra` (optional) observes the job
// signals too, e.g. a timeline writer.
#pragma once

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

RunMetrics simulate(const RunPlan& plan, const FaultList& faults, const StrategyConfig& strategy,
                    JobObserver* extra = nullptr);

}  // namespace goodput
