// The TP degrees a job's replicas can run at: ONE rule for the simulator (ntp / ntp_boost and
// the iteration cost model) and the calibration harness (which measures every one of them).
// Contract: header-only, standard library only (the standalone calibrate build includes it).
// A strategy that degrades TP declares min_tp (default default_min_tp(tp) = max(1, tp - tp/4))
// and optionally allowed_tp; it can run a partial group at every degree in [min_tp, tp), or
// only at the allowed degrees in that range. Full groups run at tp, which is always reachable.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

namespace goodput {

constexpr int default_min_tp(int tp) {
  return std::max(1, tp - tp / 4);
}

// One degrading strategy's declaration (/strategies/<ntp|ntp_boost>/{min_tp, allowed_tp}).
struct TpDegreeRule {
  std::optional<int> min_tp;  // absent: default_min_tp(tp)
  std::vector<int> allowed;   // empty: every degree in [min_tp, tp)
};

// The lowest degree a rule reaches with a job of TP degree tp.
inline int rule_min_tp(int tp, const TpDegreeRule& rule) {
  return std::max(1, rule.min_tp.value_or(default_min_tp(tp)));
}

// Every degree any of `rules` can run at, ascending, without duplicates, ending with tp.
inline std::vector<int> reachable_tp_degrees(int tp, const std::vector<TpDegreeRule>& rules) {
  std::vector<int> out{tp};
  for (const TpDegreeRule& r : rules) {
    const int lo = rule_min_tp(tp, r);
    if (r.allowed.empty()) {
      for (int d = lo; d < tp; ++d) out.push_back(d);
    } else {
      for (int d : r.allowed)
        if (d >= lo && d < tp) out.push_back(d);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace goodput
