// goodput-perf-canary's one extra source: goodput with a fault hook (sim/run/fault_hook.hpp)
// that burns a fixed amount of work per failure per strategy, about half the recorded
// simulation figure (tests/perf/budget.json) and a fifth of the whole run's, in a loop the
// optimiser must keep (each step reads and writes a volatile). The callgrind budget test run
// against this binary must fail: proof that the check sees a regression of that size (twice its
// 10 % tolerance or more). Results are those of goodput.
#include <cstdint>

#include "sim/run/fault_hook.hpp"

namespace {

// Each step is a volatile load, an add, a volatile store and the loop's increment, compare and
// branch: 6 instructions (gcc 12, -O3), so 400 steps are ~2,400 instructions per call.
constexpr int kSteps = 400;
volatile std::uint64_t sink = 0;

void burn() {
  for (int i = 0; i < kSteps; ++i) sink = sink + static_cast<std::uint64_t>(i);
}

[[maybe_unused]] const bool installed = [] {
  goodput::fault_hook = &burn;
  return true;
}();

}  // namespace
