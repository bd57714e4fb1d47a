// Summaries as report.md and the terminal write them: a share as a percentage to 2 decimals, a
// mean with its 95% CI half-width ("93.50 ± 0.12%", "4.2 ± 0.3"); with one sample no CI, since
// "± 0.00" would claim a certainty one seed cannot give.
#pragma once

#include <string>

#include "sim/core/stats.hpp"
#include "sim/report/text_util.hpp"

namespace goodput::ci_text {

inline std::string pct(double v) {
  return fmt("%.2f%%", 100 * v);
}
inline std::string pct_ci(const Summary& s) {
  if (s.n < 2) return fmt("%.2f", 100 * s.mean) + "% (1 run: no CI)";
  return fmt("%.2f", 100 * s.mean) + " ± " + fmt("%.2f", 100 * s.ci95) + "%";
}
inline std::string num_ci(const Summary& s, const char* f = "%.1f") {
  if (s.n < 2) return fmt(f, s.mean);
  return fmt(f, s.mean) + " ± " + fmt(f, s.ci95);
}

}  // namespace goodput::ci_text
