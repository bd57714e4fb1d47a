#include "sim/report/goal_seek.hpp"

#include <stdexcept>

namespace goodput {

SeekResult bisect_smallest(long lo, long hi, const std::function<bool(long)>& meets) {
  if (lo > hi) throw std::invalid_argument("goal seek: min > max");
  SeekResult r;
  auto eval = [&](long v) {
    const bool ok = meets(v);
    r.steps.push_back({v, ok});
    return ok;
  };
  if (!eval(hi)) return r;
  if (lo == hi || eval(lo)) {
    r.answer = lo == hi ? hi : lo;
    return r;
  }
  // Invariant: lo fails, hi meets.
  while (hi - lo > 1) {
    const long mid = lo + (hi - lo) / 2;
    (eval(mid) ? hi : lo) = mid;
  }
  r.answer = hi;
  return r;
}

}  // namespace goodput
