// `goodput diff A B`: two run reports side by side. Each side is a report.json (or a folder
// holding one) and, when found next to it, its runs.csv (one Goodput per run). The comparison:
// what differs between the two resolved scenarios (hash, each differing key with both values);
// per strategy both reports compared (by name), Goodput B - A with its 95% CI and each badput
// bucket's B - A, plus time and cost to train when both carry them; and the two leaders (B's
// minus A's). A difference is paired, over the runs both sides hold with the same base seed and
// run index, when the failures are the same (equal /seed, /mode, /horizon_hours, /cluster and
// /failures) and both sides carry runs.csv: the same figure a single run with both strategies
// reports as goodput_minus_winner. Otherwise it is unpaired (Welch's CI from each side's
// standard deviation). Bad input throws InputError naming the file and the field.
#pragma once

#include <string>

#include "sim/core/params.hpp"  // Json

namespace goodput {

struct DiffSide {
  std::string path;       // the report.json read
  std::string runs_path;  // its runs.csv ("" when there is none)
  Json report;
  // Per strategy, the Goodput of each run keyed "seed/run" (empty without runs.csv).
  Json runs = Json::object();
};

// Reads `arg` (a report.json or a folder with one) and the runs.csv beside it, checking the
// fields the comparison uses.
DiffSide read_diff_side(const std::string& arg);
// The comparison as JSON (`goodput diff --json`; the Markdown is printed from it).
Json report_diff_json(const DiffSide& a, const DiffSide& b);
std::string report_diff_markdown(const Json& diff);

}  // namespace goodput
