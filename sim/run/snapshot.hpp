// Snapshot mode: no time axis. Each run places round(failed_fraction x GPUs) failed GPUs
// uniformly at random over the whole cluster (stream (seed, run, "snapshot")) and asks every
// strategy for its steady-state phase on the survivors; Goodput is that throughput relative to
// the failure-free job. Also reports the share of the failure-free layout's TP groups that
// have no failed GPU (hypergeometric in expectation).
#pragma once

#include "sim/run/run_metrics.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

std::vector<std::uint32_t> snapshot_failed_gpus(const RunPlan& plan, int run);
// One placement: every strategy's metrics, in scenario order.
std::vector<RunMetrics> simulate_snapshot(const RunPlan& plan, int run);

}  // namespace goodput
