// report.md (report_markdown, report.hpp): one function per section, in the order they print;
// which sections a report has follows the mode and the scenario's /report keys.
#include <sstream>
#include <string>
#include <vector>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/ci_text.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

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

// " (1.5e+13 tokens = 894070 steps of 16777216 tokens = 755.8 h of failure-free training)":
// the training target when it was given in steps or tokens (empty for train_hours).
std::string target_phrase(const Scenario& sc) {
  if (sc.train_steps <= 0) return {};
  const std::string steps = fmt("%.0f steps", sc.train_steps);
  return " (" +
         (sc.train_tokens > 0 ? fmt("%.4g tokens = ", sc.train_tokens) + steps + " of " +
                                    std::to_string(sc.tokens_per_step()) + " tokens"
                              : steps) +
         fmt(" = %.4g h", sc.train_hours) + " of failure-free training)";
}

// " at 2.5 per GPU-hour (...)": how the cluster is priced, capex and spares' own price included.
std::string price_phrase(const RunPlan& plan) {
  const Scenario& sc = plan.scenario;
  std::string s = " at " + money(sc.gpu_hour_price, sc.currency, 2) + " per GPU-hour";
  if (sc.gpu_capex > 0)
    s += " (capex " + money(sc.gpu_capex, sc.currency) + " per GPU" +
         fmt(" written off over %.3g years)", sc.gpu_lifetime_years);
  const auto spares = spare_gpus(plan);
  if (spares > 0 && sc.spare_gpu_hour_price != sc.gpu_hour_price)
    s += ", its " + with_separators(static_cast<double>(spares), 0) + " spare-domain GPUs at " +
         money(sc.spare_gpu_hour_price, sc.currency, 2);
  s += ": " + money(cluster_price_per_hour(plan), sc.currency) + " per hour";
  return s;
}

// "Run to completion": per strategy, how long the runs took to reach /report/train_hours
// (days), with the cost of holding the cluster that long when priced.
std::string completion_markdown(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  const bool priced = sc.gpu_hour_price > 0;
  const double per_hour = cluster_price_per_hour(*rep.plan);
  std::ostringstream s;
  s << "\n### Run to completion\n\nEach run measured until its progress first reached the target"
    << target_phrase(sc) << ", within the " << hours_text(sc.horizon_hours)
    << " horizon. Days to finish; percentiles over the runs (\"> horizon\": that share of "
       "runs had not finished).\n\n| strategy | finished | mean | p50 | p90 | p99 |"
    << (priced ? " cost p50 | cost p90 |" : "") << "\n|---|---|---|---|---|---|"
    << (priced ? "---|---|" : "") << "\n";
  auto days = [](double h) { return h > 0 ? fmt("%.2f", h / 24) : std::string("> horizon"); };
  auto cost = [&](double h) { return h > 0 ? money(h * per_hour, sc.currency) : std::string("-"); };
  bool unfinished = false;
  for (const auto& st : rep.strategies) {
    const CompletionSummary& c = st.completion;
    unfinished = unfinished || c.finished < c.runs;
    s << "| " << st.name << " | " << c.finished << " of " << c.runs << " | "
      << (c.finished ? days(c.mean_hours) : std::string("-")) << " | " << days(c.p50_hours) << " | "
      << days(c.p90_hours) << " | " << days(c.p99_hours) << " |";
    if (priced) s << " " << cost(c.p50_hours) << " | " << cost(c.p90_hours) << " |";
    s << "\n";
  }
  if (unfinished)
    s << "\nSome runs did not finish within the horizon: raise horizon_hours to see their "
         "completion times (the mean is over the finished runs only).\n";
  return s.str();
}

// The title, the scenario's description, this run's intro, the verdict and what it depends on.
std::string head_markdown(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  std::ostringstream s;
  s << "# goodput report: " << sc.name << "\n\n";
  if (description_applies(sc)) {
    if (!sc.description.empty()) s << sc.description << "\n\n";
  } else {
    s << "*" << description_note(sc) << "*\n\n";
  }
  s << "This run: " << scenario_intro(plan) << "\n\n";
  s << verdict_paragraph(rep, true) << "\n\n";
  if (!rep.depends_on.empty()) {
    s << "**What the verdict depends on** (each uncertain input moved over its plausible range, "
         "`goodput describe plausible`, everything else and the failures unchanged; the winner "
         "against every rival; `goodput sensitivity` for the details):\n\n";
    for (const auto& line : rep.depends_on) s << "- " << line << "\n";
    s << "\n";
  } else if (!rep.depends_on_note.empty()) {
    s << "*What the verdict depends on: " << rep.depends_on_note << "*\n\n";
  }
  if (rep.html)
    s << "Charts: [report.html](report.html) (opens offline)"
      << (rep.timeline.empty()
              ? ""
              : "; one run's timeline: `timeline.json` (open in https://ui.perfetto.dev)")
      << ".\n\n";
  return s.str();
}

// "Goodput by strategy": one column per metric of the table (strategy_metrics.hpp) with a
// Markdown label, in the modes it applies to, the paired difference against the winner after
// Goodput's.
std::string strategy_table_markdown(const Report& rep) {
  const RunMode mode = rep.plan->scenario.mode;
  std::vector<const StrategyMetric*> columns;
  for (const StrategyMetric& m : strategy_metrics())
    if (!m.markdown.label.empty() && in_modes(m.applies, mode)) columns.push_back(&m);
  std::ostringstream s;
  s << "## Goodput by strategy\n\n95% confidence intervals across seeds; the difference column is "
       "paired "
       "(same failures) against the winner. Per provisioned GPU: Goodput x the job's GPUs / every "
       "GPU of the cluster (spare domains and GPUs no group uses included), what the hardware "
       "paid for keeps.\n\n| strategy |";
  std::string rule = "|---|";
  for (const StrategyMetric* m : columns) {
    s << " " << m->markdown.label << " |";
    rule += "---|";
    if (m->name == "goodput") {
      s << " vs winner (pp) |";
      rule += "---|";
    }
  }
  s << "\n" << rule << "\n";
  for (const auto& st : rep.strategies) {
    s << "| " << st.name << " |";
    for (const StrategyMetric* m : columns) {
      const Summary& v = m->get(st);
      s << " " << (m->markdown.number ? num_ci(v, m->markdown.number) : pct_ci(v)) << " |";
      if (m->name == "goodput")
        s << " " << fmt("%+.2f", 100 * st.difference_vs_winner.mean)
          << (st.difference_vs_winner.n < 2
                  ? std::string()
                  : " ± " + fmt("%.2f", 100 * st.difference_vs_winner.ci95))
          << " |";
    }
    s << "\n";
  }
  return s.str();
}

// "Against the baseline": each strategy's paired Goodput difference from /report/baseline.
std::string baseline_markdown(const Report& rep) {
  if (!rep.baseline || rep.strategies.size() < 2) return "";
  std::ostringstream s;
  const auto& base = rep.strategies[*rep.baseline];
  s << "\n## Against the baseline (" << base.name << ")\n\nEach strategy's Goodput minus "
    << base.name << "'s, paired over the same failures (mean ± 95% CI, percentage points).\n\n"
    << "| strategy | vs " << base.name << " (pp) | significant at 95% |\n|---|---|---|\n";
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
    if (i == *rep.baseline) continue;
    const Summary& d = rep.strategies[i].difference_vs_baseline;
    s << "| " << rep.strategies[i].name << " | " << fmt("%+.2f", 100 * d.mean)
      << (d.n < 2 ? std::string(" (1 run: no CI)") : " ± " + fmt("%.2f", 100 * d.ci95)) << " | "
      << (d.n < 2 && rep.deterministic ? "no: one deterministic run"
          : d.n < 2                    ? "needs >= 2 seeds"
          : std::abs(d.mean) > d.ci95  ? (d.mean > 0 ? "yes, ahead" : "yes, behind")
                                       : "no")
      << " |\n";
  }
  return s.str();
}

// Why ETTR and Goodput rank strategies differently, where they do.
std::string ettr_notes_markdown(const Report& rep) {
  std::ostringstream s;
  const auto notes = ettr_goodput_notes(rep.strategies);
  if (!notes.empty()) s << "\n";
  for (const auto& note : notes) s << note << "\n";
  return s.str();
}

// "Time and cost to train" (and "Run to completion"): /report/train_hours in time mode.
std::string time_to_train_markdown(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  const Topology& topo = *rep.plan->topology;
  std::ostringstream s;
  const bool priced = sc.gpu_hour_price > 0;
  const bool energy = sc.gpu_power_kw > 0, energy_priced = energy && sc.energy_price_per_kwh > 0;
  s << "\n## Time and cost to train\n\n"
    << with_separators(sc.train_hours, 0)
    << " hours of failure-free training take train_hours / Goodput of wall time under each "
       "strategy (per run, mean ± 95% CI), for which the whole cluster ("
    << with_separators(static_cast<double>(topo.gpus()), 0) << " GPUs, spares included) is held"
    << (priced ? price_phrase(*rep.plan) : "") << "."
    << (energy ? " Every column covers the same basis, the time to train; energy is the run's "
                 "energy per wall hour (see Energy) over that time."
               : "")
    << "\n\n| strategy | wall time to train | GPU-hours to train |"
    << (priced ? " cluster cost to train |" : "") << (energy ? " energy to train (MWh) |" : "")
    << (energy_priced ? " energy cost to train |" : "")
    << (priced && energy_priced ? " total cost to train |" : "") << "\n|---|---|---|"
    << (priced ? "---|" : "") << (energy ? "---|" : "") << (energy_priced ? "---|" : "")
    << (priced && energy_priced ? "---|" : "") << "\n";
  for (const auto& st : rep.strategies) {
    Summary days = st.time_to_train_hours;
    days.mean /= 24;
    days.ci95 /= 24;
    s << "| " << st.name << " | " << number_ci(days) << " days | "
      << number_ci(st.gpu_hours_to_train) << " |";
    if (priced) s << " " << money_ci(st.cost_to_train, sc.currency) << " |";
    if (energy) s << " " << number_ci(st.energy_to_train_mwh) << " |";
    if (energy_priced) s << " " << money_ci(st.energy_cost_to_train, sc.currency) << " |";
    if (priced && energy_priced) s << " " << money_ci(st.total_cost_to_train, sc.currency) << " |";
    s << "\n";
  }
  s << completion_markdown(rep);
  return s.str();
}

// "Energy over the horizon": /report/gpu_power_kw in time mode.
std::string energy_markdown(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  std::ostringstream s;
  const bool energy_priced = sc.energy_price_per_kwh > 0, gpu_priced = sc.gpu_hour_price > 0;
  s << "\n## Energy over the horizon\n\nFacility energy per run of " << hours_text(sc.horizon_hours)
    << " (mean ± 95% CI): GPUs the job holds at " << fmt("%.4g", sc.gpu_power_kw)
    << " kW, idle healthy GPUs at " << fmt("%.0f%%", 100 * sc.idle_power_fraction)
    << " of it, failed GPUs at none, power boost's extra on top, times a PUE of "
    << fmt("%.3g", sc.pue) << "."
    << (gpu_priced ? " Cost per useful GPU-hour: the whole cluster held at its price per hour "
                     "(as under Time and cost to train) plus the energy cost, over Goodput x "
                     "the job's GPU-hours."
                   : "")
    << (sc.train_hours > 0 ? " (Over the time to train: under Time and cost to train.)" : "")
    << "\n\n| strategy | energy over the horizon (MWh) |"
    << (energy_priced ? " energy cost over the horizon |" : "")
    << (gpu_priced ? " cost per useful GPU-hour |" : "") << "\n|---|---|"
    << (energy_priced ? "---|" : "") << (gpu_priced ? "---|" : "") << "\n";
  for (const auto& st : rep.strategies) {
    s << "| " << st.name << " | " << number_ci(st.energy_mwh) << " |";
    if (energy_priced) s << " " << money_ci(st.energy_cost, sc.currency) << " |";
    if (gpu_priced) s << " " << money_ci(st.cost_per_useful_gpu_hour, sc.currency) << " |";
    s << "\n";
  }
  return s.str();
}

// "Where the rest went": the badput buckets per strategy (a steady state shows only those it has).
std::string badput_markdown(const Report& rep) {
  const bool timed = rep.plan->scenario.mode != RunMode::Snapshot;
  std::ostringstream s;
  s << "\n## Where the rest went ("
    << (timed ? "share of wall time" : "share of the failure-free throughput") << ")\n\n| bucket |";
  for (const auto& st : rep.strategies) s << " " << st.name << " |";
  s << "\n|---|";
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) s << "---|";
  s << "\n";
  for (int b = 0; b < kBucketCount; ++b) {
    bool any = timed;  // a steady state shows only the buckets it has
    for (const auto& st : rep.strategies) any = any || st.badput[b].mean > 0;
    if (!any) continue;
    s << "| " << bucket_name(static_cast<Bucket>(b)) << " |";
    for (const auto& st : rep.strategies) s << " " << pct(st.badput[b].mean) << " |";
    s << "\n";
  }
  return s.str();
}

// "Time in state": the buckets grouped into running, degraded, stalled and waiting.
std::string states_markdown(const Report& rep) {
  std::ostringstream s;
  s << "\n## Time in state (share of wall time)\n\nrunning = Goodput; degraded = "
       "DEGRADED_CAPACITY + RESHARD_OVERHEAD + SLOW_COMPONENTS; stalled = recovery, checkpoint "
       "save/restore and "
       "rolled-back work; waiting = WAITING_FOR_CAPACITY.\n\n| strategy | running | degraded | "
       "stalled | waiting |\n|---|---|---|---|---|\n";
  for (const auto& st : rep.strategies) {
    s << "| " << st.name << " |";
    for (double v : time_in_state(st)) s << " " << pct(v) << " |";
    s << "\n";
  }
  return s.str();
}

// "Power boost": extra energy, boosted and capped domain-hours, when a strategy boosted.
std::string boost_markdown(const Report& rep) {
  std::ostringstream s;
  bool boosted = false;
  for (const auto& st : rep.strategies)
    boosted = boosted || st.boost_energy_gpu_hours.mean > 0 || st.boosted_domain_hours.mean > 0;
  if (!boosted) return "";
  s << "\n## Power boost\n\nCapped: degraded domains held at a power cap (the GPU's rated board "
       "power, /cluster/domain_power_budget_kw, max_power) while their replica still fell short "
       "of its batch.\n\n| strategy | extra energy (GPU-TDP-hours) | boosted domain-hours | "
       "capped domain-hours |\n|---|---|---|---|\n";
  for (const auto& st : rep.strategies)
    s << "| " << st.name << " | " << num_ci(st.boost_energy_gpu_hours, "%.0f") << " | "
      << num_ci(st.boosted_domain_hours, "%.0f") << " | " << num_ci(st.capped_domain_hours, "%.0f")
      << " |\n";
  return s.str();
}

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

}  // namespace

std::string report_markdown(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  std::string s = head_markdown(rep) + strategy_table_markdown(rep) + baseline_markdown(rep);
  if (sc.mode == RunMode::Snapshot) return s + badput_markdown(rep) + snapshot_markdown(rep);
  s += ettr_notes_markdown(rep);
  if (sc.train_hours > 0) s += time_to_train_markdown(rep);
  if (sc.gpu_power_kw > 0) s += energy_markdown(rep);
  return s + badput_markdown(rep) + states_markdown(rep) + boost_markdown(rep) +
         failures_markdown(rep) + cluster_health_markdown(rep) + mechanisms_markdown(rep) +
         setup_markdown(rep);
}

}  // namespace goodput
