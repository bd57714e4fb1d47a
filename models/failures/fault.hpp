// A fault as the simulator replays it: `component` is down from `start` to `end`; or, for a
// slow fault (slowdown > 0, issue 29), it keeps running from `start` to `end` with its GPUs'
// compute `slowdown` times slower. The run turns each slow fault into what each strategy does
// about it (sim/run/slow_faults.hpp): a slow span the job is paced by, then perhaps a fail-stop
// fault after detection.
// Fault lists come from the statistical model or a trace, are generated once per seed and
// shared read-only by every strategy (common random numbers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/time.hpp"

namespace goodput {

struct Fault {
  Time start = 0;
  Time end = 0;  // kTimeInfinity: never repaired within the run
  std::uint32_t component = 0;
  std::uint32_t fault_class = 0;  // index into FaultList::classes
  float slowdown = 0;  // 0: fail-stop; > 1: slow, the factor its GPUs' compute time grows by
  // A slow span's effect (set by slow_faults.hpp; the generator leaves Undetected):
  // Undetected: no one knows, the whole synchronous job waits for it at every step;
  // Rebalanced: the strategy knows and cuts the slow replica's local batch to fit the step.
  enum class Slow : std::uint8_t { Undetected, Rebalanced };
  Slow slow = Slow::Undetected;
  bool is_slow() const { return slowdown > 0; }
};

struct FaultClassInfo {
  std::string name;
  bool restart_only = false;  // no hardware out: the GPUs are back after the process restart
  bool slow = false;          // fail-slow class: its faults carry a slowdown
  Time detection = 0;         // slow: how long until the slowness is detected
};

struct FaultList {
  std::vector<Fault> faults;  // sorted by (start, component)
  std::vector<FaultClassInfo> classes;
};

}  // namespace goodput
