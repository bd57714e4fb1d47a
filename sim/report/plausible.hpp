// The plausible ranges of what we do not know: one table (plausible.cpp) that declares, for each
// uncertain input, the range (or set of values) it may plausibly take and the public source or
// stated assumption behind it. `goodput run` (depends_on.hpp), `goodput sensitivity` and the
// robustness line (robustness.hpp) all read it; `goodput describe plausible` prints it (README).
// Contract: a row applies to a scenario when the row's parent object exists in it (a strategy
// row only when the strategy is compared) and its `applies` test, if any, holds; numeric rows
// become SensitivityParams (their range clamped to the declared bounds), switch rows become
// SwitchInputs (the scenario's own value first, values the declaration refuses dropped). Adding an
// input is one row.
#pragma once

#include <string>
#include <vector>

#include "models/scenario/scenario.hpp"
#include "sim/report/sensitivity.hpp"

namespace goodput {

struct PlausibleRow {
  std::string pointer;  // JSON pointer; "*" stands for every explicit failure class's index
  enum class Kind { Absolute, Relative, Values } kind = Kind::Absolute;
  double lo = 0, hi = 0;     // Absolute: the values; Relative: multiples of the scenario's value
  std::vector<Json> values;  // Values: the discrete values a switch may take
  std::string source;        // the public source, or the stated assumption
  // When set, the row applies only where it holds (e.g. only with a slow failure class).
  bool (*applies)(const Scenario&) = nullptr;
};

const std::vector<PlausibleRow>& plausible_table();

// The inputs of plausible_table() that apply to `s`, in table order.
struct PlausibleInputs {
  std::vector<SensitivityParam> numbers;
  std::vector<SwitchInput> switches;
};
PlausibleInputs plausible_inputs(const Scenario& s);

// `goodput describe plausible`: the table as markdown (pointer, range or values, source).
std::string plausible_table_markdown();

}  // namespace goodput
