// report.md's closing sections: failures, cluster health, recovery mechanisms paid, the set-up,
// and snapshot mode's (report_markdown_parts.hpp).
#include <sstream>
#include <string>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/ci_text.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/report_markdown_parts.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

namespace goodput::markdown_parts {

namespace {

using ci_text::num_ci;
using ci_text::pct;
using ci_text::pct_ci;

// "- Cost model: iteration (profile P, hash H); healthy step 6.000 s.\n"
// "- Seeds: 24, chosen by the auto rule (...): why it stopped." ("" when the scenario's count).
std::string seeds_line(const Report& rep) {
  const SeedsChosen& c = rep.seeds_chosen;
  if (!c.automatic) return "";
  return "- Seeds: " + with_separators(rep.plan->scenario.seeds, 0) +
         ", chosen by the auto rule (`--seeds auto` or `\"seeds\": \"auto\"`; batches of " +
         std::to_string(kAutoSeedBatch) + ", CI target +-" + fmt("%.3g", 100 * c.rule.ci_target) +
         " pp, tie margin +-" + fmt("%.3g", 100 * c.rule.tie_margin) + " pp, at most " +
         std::to_string(c.rule.max_seeds) + "): " + (c.settled ? "settled: " : "") + c.reason +
         ".\n";
}

std::string cost_model_line(const RunPlan& plan) {
  const CostInfo& ci = plan.cost_info;
  return std::string("- Cost model: ") + enum_name(kCostModelNames, ci.model) +
         (ci.model == CostSpec::Model::Iteration
              ? " (profile " + ci.profile_path + ", hash " + ci.profile_hash + ")"
              : std::string()) +
         "; healthy step " + fmt("%.3f", ci.healthy_step_s) + " s.\n";
}

// "584 fault records, 2 merged into an overlapping record of the same component: 582 faults"
std::string trace_records_text(const RunPlan& plan) {
  const auto& r = plan.trace_records;
  const std::size_t faults = plan.trace_faults ? plan.trace_faults->faults.size() : 0;
  return std::to_string(r.records) + " fault records, " + std::to_string(r.merged) +
         " merged into an overlapping record of the same component: " + std::to_string(faults) +
         " faults";
}

}  // namespace

// Snapshot mode's closing sections: the snapshot drawn and the set-up.
std::string snapshot_markdown(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
  std::ostringstream s;
  s << "\n## Snapshot\n\n"
    << fmt("%.3f", 100 * sc.failed_fraction) << "% of " << topo.gpus() << " GPUs down ("
    << rep.runs[0].runs[0].failures
    << " GPUs), placed uniformly at random; one placement per seed. Goodput is the "
    << "steady-state throughput relative to the failure-free job; TP groups of " << sc.job.tp
    << " GPUs with no failed GPU: " << pct_ci(rep.strategies.front().healthy_tp_groups_fraction)
    << ".\n";
  s << "\n## Set-up\n\n"
    << "- Cluster: " << sc.cluster.preset << " (" << sc.cluster.gpu_type << "), " << topo.gpus()
    << " GPUs in " << topo.domains() << " domains of " << topo.gpus_per_domain() << ".\n"
    << "- Job: " << sc.job.layout_text() << ".\n"
    << cost_model_line(plan) << seeds_line(rep);
  return s.str();
}

// "Failures": faults, GPU-hours down and peak failed GPUs (the same for every strategy), and
// each strategy's idle healthy GPU-hours.
std::string failures_markdown(const Report& rep) {
  const auto& any = rep.strategies.front();
  std::ostringstream s;
  s << "\n## Failures (the same for every strategy)\n\n"
    << "| faults per run | faults hitting the job (" << rep.strategies.front().name
    << ") | GPU-hours down | peak failed GPUs |\n"
    << "|---|---|---|---|\n| " << num_ci(any.failures) << " | " << num_ci(any.job_failures) << " | "
    << num_ci(any.gpu_hours_down, "%.0f") << " | " << num_ci(any.peak_failed_gpus) << " |\n\n";
  s << "Idle healthy GPU-hours (spares and GPUs left out of the job):\n\n| strategy | spare "
       "GPU-hours |\n|---|---|\n";
  for (const auto& st : rep.strategies)
    s << "| " << st.name << " | " << num_ci(st.spare_gpu_hours, "%.0f") << " |\n";
  return s.str();
}

// "Cluster health": failed GPUs over time, time above each threshold, MTBI and paused hours.
std::string cluster_health_markdown(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  const auto& any = rep.strategies.front();
  std::ostringstream s;
  s << "\n## Cluster health\n\nFailed GPUs over time (time-weighted, mean of per-run figures, the "
       "same for every "
       "strategy):\n\n| mean | p50 | p90 | p99 |";
  for (double x : sc.failed_gpu_thresholds)
    s << " time with > " << fmt("%.3g", 100 * x) << "% failed |";
  s << "\n|---|---|---|---|";
  for (std::size_t k = 0; k < sc.failed_gpu_thresholds.size(); ++k) s << "---|";
  s << "\n| " << num_ci(any.failed_gpus_mean, "%.1f") << " | "
    << num_ci(any.failed_gpus_p50, "%.0f") << " | " << num_ci(any.failed_gpus_p90, "%.0f") << " | "
    << num_ci(any.failed_gpus_p99, "%.0f") << " |";
  for (const auto& t : any.time_above_failed) s << " " << pct_ci(t) << " |";
  s << "\n\nPer strategy: the job's mean time between interruptions (all wall hours / all "
       "interruptions) and the "
       "hours it stood paused for lack of capacity.\n\n| strategy | job MTBI (h) | paused hours "
       "|\n|---|---|---|\n";
  for (const auto& st : rep.strategies)
    s << "| " << st.name << " | "
      << (st.mtbi_hours > 0 ? fmt("%.1f", st.mtbi_hours) : std::string("no interruption")) << " | "
      << num_ci(st.paused_hours, "%.1f") << " |\n";
  return s.str();
}

// "Recovery prices and what each strategy paid": the price list and the mechanisms paid.
std::string mechanisms_markdown(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  std::ostringstream s;
  s << "\n## Recovery prices and what each strategy paid\n\nOne price list for every strategy: the "
       "same physical "
       "action costs the same whoever performs it.\n\n| mechanism | price (s) | from "
       "|\n|---|---|---|\n";
  for (int k = 0; k < kMechanismCount; ++k) {
    const auto m = static_cast<Mechanism>(k);
    s << "| " << mechanism_name(m) << " | "
      << fmt("%.4g", mechanism_price_s(sc, plan.cost.get(), m)) << " | "
      << mechanism_price_source(sc, plan.cost.get(), m) << " |\n";
  }
  s << "\nMechanisms paid per run (mean count; hours the job stood still for them in brackets; "
       "background work, "
       "e.g. a rejoining replica's state copy, costs no stall):\n\n| strategy |";
  for (int k = 0; k < kMechanismCount; ++k)
    s << " " << mechanism_name(static_cast<Mechanism>(k)) << " |";
  s << "\n|---|";
  for (int k = 0; k < kMechanismCount; ++k) s << "---|";
  s << "\n";
  for (const auto& st : rep.strategies) {
    s << "| " << st.name << " |";
    for (int k = 0; k < kMechanismCount; ++k)
      s << " " << fmt("%.1f", st.paid_count[k].mean) << " ("
        << fmt("%.1f", st.paid_stall_hours[k].mean) << " h) |";
    s << "\n";
  }
  return s.str();
}

// "Set-up" (time mode): cluster, job, failures, recovery, checkpoint intervals, files, command.
std::string setup_markdown(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
  std::ostringstream s;
  s << "\n## Set-up\n\n"
    << "- Cluster: " << sc.cluster.preset << " (" << sc.cluster.gpu_type << "), " << topo.gpus()
    << " GPUs in " << topo.domains() << " domains of " << topo.gpus_per_domain() << " ("
    << sc.spare_domains << " spare domains).\n"
    << "- Job: " << sc.job.layout_text() << " = " << sc.job_gpus() << " GPUs.\n"
    << "- Failures: "
    << (sc.failures.model == FailureSpec::Model::Trace
            ? "trace " + sc.failures.trace.path + " (" + trace_records_text(plan) + ")"
            : "statistical, preset/classes '" + sc.failures.preset + "'")
    << ", rate scale " << sc.failures.rate_scale
    << "; expected faults touching the job: " << fmt("%.3f", plan.job_faults_per_hour)
    << " per hour (job MTBF "
    << (plan.job_faults_per_hour > 0 ? fmt("%.2f", 1 / plan.job_faults_per_hour) + " h"
                                     : std::string("infinite"))
    << ").\n"
    << (plan.trace_faults ? "- Trace statistics: " +
                                trace_sampling_text(plan.trace_sampling, sc.horizon_hours) + "\n"
                          : std::string())
    << "- Recovery: prices above; checkpoint save " << sc.checkpoint.save_s << " s ("
    << (sc.checkpoint.async ? "async" : "blocking") << ").\n"
    << cost_model_line(plan) << "- Checkpoint interval (" << plan.checkpoint_policy
    << "), per strategy:\n";
  for (const auto& st : rep.strategies) {
    const auto& c = plan.checkpointing(st.name);
    s << "  - " << st.name << ": "
      << (c.interval > 0 ? fmt("%.0f s", to_seconds(c.interval)) + " (" +
                               seconds_text(to_seconds(c.interval)) + ")"
                         : std::string("none"))
      << " — " << c.reason << ".\n";
  }
  s << seeds_line(rep);
  s << "- Files: `report.json` (everything here, plus the resolved scenario), `runs.csv` (one row "
       "per seed x strategy).\n";
  s << command_markdown(rep.command);
  return s.str();
}

}  // namespace goodput::markdown_parts
