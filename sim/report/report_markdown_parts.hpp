// The sections of report.md that report_markdown (report_markdown.cpp) takes from
// report_markdown_costs.cpp and report_markdown_setup.cpp; each returns its Markdown, starting
// with a blank line and its "## " heading.
#pragma once

#include <string>

#include "sim/report/report.hpp"

namespace goodput::markdown_parts {

// "Time and cost to train" and "Run to completion" (time mode, /report/train_hours > 0).
std::string time_to_train_markdown(const Report& rep);
// "Energy over the horizon" (time mode, /report/gpu_power_kw > 0).
std::string energy_markdown(const Report& rep);
// Snapshot mode's closing sections: the snapshot drawn and the set-up.
std::string snapshot_markdown(const Report& rep);
// "Failures" (the same for every strategy) and each strategy's idle healthy GPU-hours.
std::string failures_markdown(const Report& rep);
// "Cluster health": failed GPUs over time, time above each threshold, MTBI and paused hours.
std::string cluster_health_markdown(const Report& rep);
// "Recovery prices and what each strategy paid".
std::string mechanisms_markdown(const Report& rep);
// "Set-up" (time mode): cluster, job, failures, recovery, checkpoint intervals, files, command.
std::string setup_markdown(const Report& rep);

}  // namespace goodput::markdown_parts
