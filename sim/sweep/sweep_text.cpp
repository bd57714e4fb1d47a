#include "sim/sweep/sweep_text.hpp"

#include <algorithm>
#include <vector>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

// Left-aligned columns, two spaces apart.
std::string columns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], r[c].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      line += r[c];
      if (c + 1 < r.size()) line += std::string(width[c] - r[c].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string best(const Report& rep) {
  const std::string leader = rep.strategies[rep.winner].name;
  if (rep.runner_up == rep.winner || rep.decided) return leader;
  return leader + (rep.strategies[rep.winner].goodput.n < 2 ? " (one seed)" : " (tied)");
}

}  // namespace

std::string sweep_terminal_table(const Sweep& sw) {
  if (sw.points.empty()) return "";
  std::vector<std::vector<std::string>> rows(1);
  rows[0].push_back("point");
  for (const auto& a : sw.axes) rows[0].push_back(a.pointer);
  for (const auto& st : sw.points.front().report.strategies) rows[0].push_back(st.name);
  rows[0].push_back("best");
  const std::size_t shown = std::min(sw.points.size(), kSweepTableRows);
  for (std::size_t p = 0; p < shown; ++p) {
    const SweepPoint& pt = sw.points[p];
    std::vector<std::string> r = {fmt("%03.0f", static_cast<double>(p))};
    r.insert(r.end(), pt.values.begin(), pt.values.end());
    for (const auto& st : pt.report.strategies) r.push_back(fmt("%.2f%%", 100 * st.goodput.mean));
    r.push_back(best(pt.report));
    rows.push_back(r);
  }
  std::string out = "Goodput (mean over seeds) per point:\n" + columns(rows);
  if (shown < sw.points.size())
    out += "... " + std::to_string(sw.points.size() - shown) + " more points in report.md\n";
  return out;
}

}  // namespace goodput
