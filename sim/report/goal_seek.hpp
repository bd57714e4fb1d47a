// Goal seek over one integer scenario field: the smallest value in [lo, hi] whose evaluation
// meets the target, by bisection. Assumes the property is monotone: once a value meets the
// target every larger one does (e.g. Goodput does not fall as spare domains are added). It
// evaluates hi first (no answer if even hi fails), then lo, then halves the gap.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace goodput {

struct SeekStep {
  long value = 0;
  bool meets = false;
};

struct SeekResult {
  std::optional<long> answer;
  std::vector<SeekStep> steps;  // in evaluation order
};

SeekResult bisect_smallest(long lo, long hi, const std::function<bool(long)>& meets);

}  // namespace goodput
