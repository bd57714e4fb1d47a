// How far the largest fault of a plan reaches, against the room the job leaves: the widest blast
// radius (in GPUs) of any failure class with a non-zero rate (a trace replay: of any fault it
// replays), the GPUs no TP group uses in a domain of the job, and the spare domains. A goal seek
// answered "already met at the minimum" says why with already_met_reason (sweep_command.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "sim/run/run_plan.hpp"

namespace goodput {

struct FaultReach {
  bool any = false;           // some class has a non-zero rate (a trace: some fault)
  std::string largest_class;  // the class of the widest blast radius (first such)
  ComponentKind scope = ComponentKind::Gpu;
  std::uint32_t largest_gpus = 0;     // its blast radius in GPUs
  std::uint32_t idle_per_domain = 0;  // GPUs per domain no TP group of the job uses
  int spare_domains = 0;
};

FaultReach fault_reach(const RunPlan& plan);

// One sentence, from fault_reach: e.g. "no failure in this scenario takes out more than the
// in-domain idle GPUs: the widest blast radius is 4 GPUs (class host, scope node) and each domain
// of the job keeps 8 idle GPUs, so no single fault needs a spare domain".
std::string already_met_reason(const RunPlan& plan);

}  // namespace goodput
