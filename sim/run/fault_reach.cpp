#include "sim/run/fault_reach.hpp"

#include <cstdio>

#include "models/failures/failure_generator.hpp"

namespace goodput {

FaultReach fault_reach(const RunPlan& plan) {
  const Scenario& s = plan.scenario;
  const Topology& topo = *plan.topology;
  FaultReach r;
  r.spare_domains = s.spare_domains;
  const auto used = static_cast<std::uint32_t>(s.groups_per_domain() * s.job.tp);
  r.idle_per_domain = topo.gpus_per_domain() > used ? topo.gpus_per_domain() - used : 0;
  auto consider = [&](const std::string& name, ComponentKind scope, std::uint32_t gpus) {
    if (r.any && gpus <= r.largest_gpus) return;
    r.any = true;
    r.largest_class = name;
    r.scope = scope;
    r.largest_gpus = gpus;
  };
  if (plan.trace_faults) {
    for (const Fault& f : plan.trace_faults->faults)
      consider(f.fault_class < plan.trace_faults->classes.size()
                   ? plan.trace_faults->classes[f.fault_class].name
                   : std::string(),
               topo.kind(f.component), topo.blast_radius(f.component).size());
  } else {
    for (const FailureClassSpec& c : s.failures.classes)
      if (class_rate_per_hour(s.failures, c, topo) > 0 && topo.count(c.scope) > 0)
        consider(c.name, c.scope, topo.blast_radius(topo.id(c.scope, 0)).size());
  }
  return r;
}

std::string already_met_reason(const RunPlan& plan) {
  const FaultReach r = fault_reach(plan);
  if (!r.any) return "the scenario has no failures (no class with a non-zero rate, or no faults)";
  const std::string widest = "the widest blast radius is " + std::to_string(r.largest_gpus) +
                             " GPU" + (r.largest_gpus == 1 ? "" : "s") + " (class " +
                             r.largest_class + ", scope " + component_kind_name(r.scope) + ")";
  const std::string idle =
      std::to_string(r.idle_per_domain) + " idle GPU" + (r.idle_per_domain == 1 ? "" : "s");
  if (r.largest_gpus <= r.idle_per_domain)
    return "no failure in this scenario takes out more than the in-domain idle GPUs: " + widest +
           " and each domain of the job keeps " + idle +
           ", so no single fault needs a spare domain";
  char rate[128];
  std::snprintf(rate, sizeof rate, "%.3g faults touching the job per hour, mean repair %.3g h",
                plan.job_faults_per_hour, plan.mean_expected_repair_s / 3600);
  return widest + ", more than the " + idle +
         " of a domain of the job, yet the target is met "
         "at the minimum: such faults are rare or short enough here (" +
         rate + ")";
}

}  // namespace goodput
