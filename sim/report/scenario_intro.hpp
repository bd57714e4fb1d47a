// The opening of a report, from the scenario as run: its overrides (--set, --seeds, --strategies,
// --baseline) included. The file's free-text description is written for the file's values, so a
// report quotes it only when the command line changed nothing it could describe; otherwise it
// says what was changed instead. The intro sentence itself is built from the resolved values
// (GPUs, job, horizon, failures and their rate scale, prices), so "30 days" never heads an
// 8,760 h run.
#pragma once

#include <string>
#include <vector>

#include "sim/run/run_plan.hpp"

namespace goodput {

// True when no override changed anything but /seeds, /seed, /name, /report/... or the
// description itself: the file's description still describes the run. `varied`: pointers the
// caller varies on purpose (a sweep's axes), not counted either.
bool description_applies(const Scenario& sc, const std::vector<std::string>& varied = {});
// Why the description is left out: "the scenario file's description is left out: it describes
// the file, and this run changes /horizon_hours (720 -> 8760)" (empty when it applies).
std::string description_note(const Scenario& sc, const std::vector<std::string>& varied = {});
// "34,816 B200 GPUs in 1,088 nvl32 domains of 32 (64 spare); the job TP 32 x PP 8 x DP 128 =
// 32,768 GPUs; 20 runs of 30 days (720 h); failures from the 'ntp-paper' preset at 3x its rates
// (0.66 expected per hour on the job); ..." One paragraph, no Markdown.
std::string scenario_intro(const RunPlan& plan);

}  // namespace goodput
