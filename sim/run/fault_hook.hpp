// A test hook on the per-fault path: when set, the fault feeder (single_run.cpp) calls it once
// for every fault that starts, in every strategy's lane, after the lane has reacted. It exists
// so that a test build can add known work per failure per strategy and check that the
// callgrind budget (tests/perf/) notices: goodput-perf-canary sets it from a static
// initialiser (tests/perf/canary.cpp). Null in goodput, where it costs a load and a branch per
// lane per fault. Set it before any run starts and never while runs are under way; the hook
// must not touch the simulation, so results stay the same.
#pragma once

namespace goodput {

using FaultHook = void (*)();
inline constinit FaultHook fault_hook = nullptr;

}  // namespace goodput
