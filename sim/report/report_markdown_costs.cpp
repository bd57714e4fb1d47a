// report.md's sections on time, cost and energy to train (report_markdown_parts.hpp).
#include <sstream>
#include <string>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/report_markdown_parts.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/strategy_metrics.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

namespace goodput::markdown_parts {

namespace {

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

}  // namespace

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

}  // namespace goodput::markdown_parts
