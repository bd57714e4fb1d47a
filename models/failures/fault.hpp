// A fault as the simulator replays it: `component` is down from `start` to `end`.
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
};

struct FaultClassInfo {
  std::string name;
  bool restart_only = false;  // no hardware out: the GPUs are back after the process restart
};

struct FaultList {
  std::vector<Fault> faults;  // sorted by (start, component)
  std::vector<FaultClassInfo> classes;
};

}  // namespace goodput
