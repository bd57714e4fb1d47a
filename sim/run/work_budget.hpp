// The work a scenario asks for, estimated before anything is built, and the budget it must fit.
// A scenario of 10^9 GPUs or a 10^9-hour horizon would otherwise run for days and then run
// out of memory; estimate_work computes, from the scenario alone (no topology is built):
//   events = seeds x (expected failures per run, correlated events included) x (1 + strategies)
//            (snapshot mode: seeds x failed GPUs x strategies)
//            + setup: building the plan (GPUs, and with the iteration cost model the exact
//              pipeline schedule's ops x kPlanSchedules), counted once per plan built, so a
//              break-even or sensitivity step (one plan and its runs each) counts it again
//   memory = GPUs x (kBytesPerGpu + threads x strategies x kBytesPerGpuLane)
//            + threads x expected failures per run x kBytesPerFault
//            + trace events x kBytesPerTraceEvent (trace replay: reading it, and the parse)
// A replayed trace's failures per run are its fault records before the horizon: the trace is
// read for the estimate (once per process; the plans reuse that parse), so an unreadable trace
// throws its InputError here.
// check_work_budget refuses (InputError, exit 2) a scenario above the budget, with the
// estimate and the flag that raises it (--max-events, --max-memory). The defaults and the
// constants are documented in the README ("Work budget").
#pragma once

#include <cstdint>
#include <string>

#include "models/scenario/scenario.hpp"

namespace goodput {

struct WorkBudget {
  double max_events = 2e9;                       // --max-events
  double max_memory_bytes = 8.0 * (1ull << 30);  // --max-memory (8 GiB)
};

struct WorkEstimate {
  double gpus = 0;
  double failures_per_run = 0;
  double events = 0;        // setup_events included
  double setup_events = 0;  // building one plan (topology, pipeline schedules)
  double memory_bytes = 0;
};

WorkEstimate estimate_work(const Scenario& scenario, int threads);
// Whether the estimate is within the budget (check_work_budget's test, without the error).
bool within_work_budget(const WorkEstimate& estimate, const WorkBudget& budget);
// Throws InputError naming `origin` (the scenario file) when the estimate exceeds the budget.
void check_work_budget(const WorkEstimate& estimate, const WorkBudget& budget,
                       const std::string& origin);
// "8G", "512M", "1.5T", or a plain number of bytes; throws InputError naming `flag`.
double parse_bytes(const std::string& text, const std::string& flag);

}  // namespace goodput
