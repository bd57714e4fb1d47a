#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/scenario_intro.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

namespace {

std::string pct(double v) {
  return fmt("%.2f%%", 100 * v);
}
// A mean with its 95% CI half-width; with one sample there is no CI, and saying "± 0.00" would
// claim a certainty one seed cannot give.
std::string pct_ci(const Summary& s) {
  if (s.n < 2) return fmt("%.2f", 100 * s.mean) + "% (1 run: no CI)";
  return fmt("%.2f", 100 * s.mean) + " ± " + fmt("%.2f", 100 * s.ci95) + "%";
}
std::string num_ci(const Summary& s, const char* f = "%.1f") {
  if (s.n < 2) return fmt(f, s.mean);
  return fmt(f, s.mean) + " ± " + fmt(f, s.ci95);
}

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

// The verdict. A winner is named only when its paired lead over the runner-up is significant
// at 95%; otherwise the two are "tied" (and with one seed nothing can be significant).
// `bold`: markdown emphasis (report.md), plain text on the terminal.
}  // namespace

namespace {

// When the strategy that wins most often over the plausible box (the robustness line,
// depends_on.robustness) is not this run's winner: " Over the plausible ranges of the uncertain
// inputs, however, dp_drop wins most often: in 12 of 16 sampled worlds, ntp_boost in 2." Else "".
std::string robustness_caveat(const Report& rep) {
  const Json& r =
      rep.depends_on_json.is_object() ? rep.depends_on_json.value("robustness", Json()) : Json();
  if (!r.is_object() || !r.contains("wins") || !r["wins"].is_object()) return "";
  const int points = r.value("points", 0);
  if (points <= 0) return "";
  const std::string& winner = rep.strategies[rep.winner].name;
  std::string best;
  int best_wins = -1;
  for (const auto& s : rep.strategies) {  // report order breaks ties
    const int w = r["wins"].value(s.name, 0);
    if (w > best_wins) {
      best = s.name;
      best_wins = w;
    }
  }
  const int winner_wins = r["wins"].value(winner, 0);
  if (best == winner || best_wins <= winner_wins) return "";
  return " Over the plausible ranges of the uncertain inputs, however, " + best +
         " wins most often: in " + std::to_string(best_wins) + " of " + std::to_string(points) +
         " sampled worlds, " + winner + " in " + std::to_string(winner_wins) + ".";
}

// What the leader saves against each rival when the scenario gives a training target: " To train
// 2,000 h of failure-free work, ntp_boost finishes 1.9 days sooner than dp_drop and saves $2.0M;
// 4 h 10 min sooner than ntp and saves $0.3M (the cluster's price)." From the mean time to train
// and its cost (with energy when priced); a rival whose paired Goodput difference is not
// significant at 95% is named as within the noise instead. "" without /report/train_hours or
// when the leader itself kept no Goodput in some run (no finite time to train).
std::string savings_text(const Report& rep) {
  const Scenario& sc = rep.plan->scenario;
  if (sc.train_hours <= 0 || sc.mode == RunMode::Snapshot || rep.strategies.size() < 2) return "";
  const auto& w = rep.strategies[rep.winner];
  if (!std::isfinite(w.time_to_train_hours.mean)) return "";
  const bool priced = sc.gpu_hour_price > 0;
  const bool energy = priced && sc.gpu_power_kw > 0 && sc.energy_price_per_kwh > 0;
  auto cost = [&](const StrategySummary& st) {
    return energy ? st.total_cost_to_train.mean : st.cost_to_train.mean;
  };
  std::vector<std::string> ahead, noise;
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
    if (i == rep.winner) continue;
    const auto& r = rep.strategies[i];
    const double days = (r.time_to_train_hours.mean - w.time_to_train_hours.mean) / 24;
    const std::string lead = span_text(24 * days);  // "4 h 36 min", "1.9 days"
    if (!std::isfinite(days)) {
      ahead.push_back("sooner than " + r.name + " (which kept no Goodput in some run)");
      continue;
    }
    const Summary& d = r.difference_vs_winner;
    const bool significant = d.n >= 2 && -d.mean - d.ci95 > 0;
    const double saved = cost(r) - cost(w);
    if (significant || d.n < 2)
      ahead.push_back(lead + " sooner than " + r.name +
                      (priced ? " and saves " + money_short(saved, sc.currency) : ""));
    else
      noise.push_back(r.name + " (" + lead +
                      (priced ? ", " + money_short(saved, sc.currency) : "") + ")");
  }
  auto join = [](const std::vector<std::string>& items, const char* sep, const char* last) {
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k)
      out += (k == 0 ? "" : k + 1 == items.size() ? last : sep) + items[k];
    return out;
  };
  std::string out = " To train " + with_separators(sc.train_hours, 0) + " h of failure-free work, ";
  if (!ahead.empty()) {
    out += w.name + " finishes " + join(ahead, "; ", "; ") +
           (priced ? energy ? " (the cluster's price and energy)" : " (the cluster's price)" : "");
    out += noise.empty() ? "." : "; ";
  }
  if (!noise.empty())
    out += w.name + "'s lead over " + join(noise, ", ", " and ") +
           " is within the noise (not significant at 95%).";
  return out;
}

}  // namespace

std::string verdict_paragraph(const Report& rep, bool bold) {
  const auto& w = rep.strategies[rep.winner];
  const std::string b = bold ? "**" : "";
  const Scenario& sc = rep.plan->scenario;
  const std::string over =
      rep.deterministic
          ? " in one deterministic replay of " + hours_text(sc.horizon_hours)
          : " over " + (sc.mode == RunMode::Snapshot
                            ? counted(sc.seeds, "random placement") + " of the failed GPUs"
                            : counted(sc.seeds, "run") + " of " + hours_text(sc.horizon_hours));
  std::ostringstream s;
  if (rep.strategies.size() < 2) {
    s << b << w.name << b << " keeps Goodput " << pct_ci(w.goodput) << over << ".";
    return s.str();
  }
  const auto& r = rep.strategies[rep.runner_up];
  const Summary& d = r.difference_vs_winner;
  const double lead = std::max(0.0, -d.mean);
  if (rep.decided) {
    s << b << w.name << b << " keeps the most useful training: Goodput " << pct_ci(w.goodput)
      << over << ". The runner-up, " << r.name << ", keeps " << pct(r.goodput.mean)
      << "; paired over the same failures, " << w.name << " is ahead by " << fmt("%.2f", 100 * lead)
      << " ± " << fmt("%.2f", 100 * d.ci95)
      << " percentage points (significant at 95%: sampling precision under these inputs, not "
         "robustness to them; see what the verdict depends on).";
    s << savings_text(rep);
    s << robustness_caveat(rep);
  } else if (rep.deterministic && rep.plan->scenario.seeds > 1) {
    s << "The trace replay is deterministic: all " << rep.plan->scenario.seeds
      << " seeds replay the same faults, so this is one run, with no confidence interval and no "
         "significance claim, and no winner is named: "
      << w.name << " has the highest Goodput (" << pct(w.goodput.mean) << "), " << r.name
      << " next (" << pct(r.goodput.mean)
      << "). Set /failures/trace/seeds_vary (window, placement) to vary something real.";
  } else if (d.n < 2) {
    s << "With one seed there is no confidence interval, so no winner is named: " << w.name
      << " has the highest "
      << "Goodput in this run (" << pct(w.goodput.mean) << "), " << r.name << " next ("
      << pct(r.goodput.mean) << "). Run with --seeds 2 or more to compare.";
  } else {
    s << b << w.name << b << " and " << b << r.name << b << " are tied at the top: Goodput "
      << pct_ci(w.goodput) << " and " << pct_ci(r.goodput) << over
      << "; paired over the same failures the difference is " << fmt("%.2f", 100 * lead) << " ± "
      << fmt("%.2f", 100 * d.ci95)
      << " percentage points (not significant at 95%: more seeds may separate them).";
    s << savings_text(rep);
  }
  {
    // the largest badput bucket of the last-placed strategy, when it loses anything
    std::size_t worst = 0;
    for (std::size_t i = 0; i < rep.strategies.size(); ++i)
      if (rep.strategies[i].goodput.mean < rep.strategies[worst].goodput.mean) worst = i;
    int top = 0;
    for (int k = 1; k < kBucketCount; ++k)
      if (rep.strategies[worst].badput[k].mean > rep.strategies[worst].badput[top].mean) top = k;
    if (rep.strategies[worst].badput[top].mean > 0)
      s << " " << rep.strategies[worst].name << " loses most ("
        << pct(1 - rep.strategies[worst].goodput.mean) << "), mainly to "
        << bucket_name(static_cast<Bucket>(top)) << " ("
        << pct(rep.strategies[worst].badput[top].mean) << ").";
  }
  return s.str();
}

std::vector<std::string> ettr_goodput_notes(const std::vector<StrategySummary>& strategies) {
  constexpr double kMargin = 0.0005;  // 0.05 pp: closer than this is not a different ranking
  std::vector<std::string> notes;
  for (const auto& lower : strategies) {
    // The strategy with the highest Goodput that `lower` beats on ETTR while trailing on Goodput.
    const StrategySummary* above = nullptr;
    for (const auto& other : strategies)
      if (other.goodput.mean > lower.goodput.mean + kMargin &&
          lower.ettr.mean > other.ettr.mean + kMargin &&
          (!above || other.goodput.mean > above->goodput.mean))
        above = &other;
    if (!above) continue;
    const double slow = lower.badput[static_cast<int>(Bucket::DegradedCapacity)].mean +
                        lower.badput[static_cast<int>(Bucket::ReshardOverhead)].mean;
    notes.push_back("ETTR ranks " + lower.name + " above " + above->name + " (" +
                    pct(lower.ettr.mean) + " vs " + pct(above->ettr.mean) +
                    ") while Goodput ranks it below (" + pct(lower.goodput.mean) + " vs " +
                    pct(above->goodput.mean) +
                    "): ETTR counts every hour the job trains, at any speed; " + lower.name +
                    " trains more of the time, but part of it on reduced capacity "
                    "(DEGRADED_CAPACITY + RESHARD_OVERHEAD: " +
                    pct(slow) + " of wall time).");
  }
  return notes;
}

std::string report_markdown(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
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
  s << "## Goodput by strategy\n\n95% confidence intervals across seeds; the difference column is "
       "paired "
       "(same failures) against the winner. Per provisioned GPU: Goodput x the job's GPUs / every "
       "GPU of the cluster (spare domains and GPUs no group uses included), what the hardware "
       "paid for keeps.\n\n";
  // Snapshot mode has no time axis: no ETTR, interruptions or checkpoints.
  const bool timed = sc.mode != RunMode::Snapshot;
  s << "| strategy | Goodput | vs winner (pp) | per provisioned GPU |"
    << (timed ? " ETTR | interruptions | checkpoints |\n|---|---|---|---|---|---|---|\n"
              : "\n|---|---|---|---|\n");
  for (const auto& st : rep.strategies) {
    s << "| " << st.name << " | " << pct_ci(st.goodput) << " | "
      << fmt("%+.2f", 100 * st.difference_vs_winner.mean)
      << (st.difference_vs_winner.n < 2 ? std::string()
                                        : " ± " + fmt("%.2f", 100 * st.difference_vs_winner.ci95))
      << " | " << pct_ci(st.goodput_per_provisioned_gpu) << " |";
    if (timed)
      s << " " << pct_ci(st.ettr) << " | " << num_ci(st.interruptions) << " | "
        << num_ci(st.checkpoints, "%.0f") << " |";
    s << "\n";
  }
  if (rep.baseline && rep.strategies.size() > 1) {
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
  }
  if (sc.mode != RunMode::Snapshot) {
    const auto notes = ettr_goodput_notes(rep.strategies);
    if (!notes.empty()) s << "\n";
    for (const auto& note : notes) s << note << "\n";
  }
  if (sc.train_hours > 0 && sc.mode != RunMode::Snapshot) {
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
      if (priced && energy_priced)
        s << " " << money_ci(st.total_cost_to_train, sc.currency) << " |";
      s << "\n";
    }
    s << completion_markdown(rep);
  }
  if (sc.gpu_power_kw > 0 && sc.mode != RunMode::Snapshot) {
    const bool energy_priced = sc.energy_price_per_kwh > 0, gpu_priced = sc.gpu_hour_price > 0;
    s << "\n## Energy over the horizon\n\nFacility energy per run of "
      << hours_text(sc.horizon_hours) << " (mean ± 95% CI): GPUs the job holds at "
      << fmt("%.4g", sc.gpu_power_kw) << " kW, idle healthy GPUs at "
      << fmt("%.0f%%", 100 * sc.idle_power_fraction)
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
  }
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
  if (timed) {
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
  }
  bool boosted = false;
  for (const auto& st : rep.strategies)
    boosted = boosted || st.boost_energy_gpu_hours.mean > 0 || st.boosted_domain_hours.mean > 0;
  if (boosted && sc.mode != RunMode::Snapshot) {
    s << "\n## Power boost\n\nCapped: degraded domains held at a power cap (the GPU's rated board "
         "power, /cluster/domain_power_budget_kw, max_power) while their replica still fell short "
         "of its batch.\n\n| strategy | extra energy (GPU-TDP-hours) | boosted domain-hours | "
         "capped domain-hours |\n|---|---|---|---|\n";
    for (const auto& st : rep.strategies)
      s << "| " << st.name << " | " << num_ci(st.boost_energy_gpu_hours, "%.0f") << " | "
        << num_ci(st.boosted_domain_hours, "%.0f") << " | "
        << num_ci(st.capped_domain_hours, "%.0f") << " |\n";
  }
  if (sc.mode == RunMode::Snapshot) {
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
  const auto& any = rep.strategies.front();
  s << "\n## Failures (the same for every strategy)\n\n"
    << "| faults per run | faults hitting the job (" << rep.strategies.front().name
    << ") | GPU-hours down | peak failed GPUs |\n"
    << "|---|---|---|---|\n| " << num_ci(any.failures) << " | " << num_ci(any.job_failures) << " | "
    << num_ci(any.gpu_hours_down, "%.0f") << " | " << num_ci(any.peak_failed_gpus) << " |\n\n";
  s << "Idle healthy GPU-hours (spares and GPUs left out of the job):\n\n| strategy | spare "
       "GPU-hours |\n|---|---|\n";
  for (const auto& st : rep.strategies)
    s << "| " << st.name << " | " << num_ci(st.spare_gpu_hours, "%.0f") << " |\n";
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

std::string terminal_table(const Report& rep) {
  std::ostringstream s;
  char line[256];
  // Snapshot mode has no time axis: no ETTR or interruptions.
  const bool timed = rep.plan->scenario.mode != RunMode::Snapshot;
  if (timed)
    std::snprintf(line, sizeof line, "%-20s %18s %9s %10s %14s  %s\n", "strategy",
                  "Goodput (95% CI)", "per GPU", "ETTR", "interruptions", "largest badput");
  else
    std::snprintf(line, sizeof line, "%-20s %18s %9s  %s\n", "strategy", "Goodput (95% CI)",
                  "per GPU", "largest badput");
  s << line;
  for (const auto& st : rep.strategies) {
    int top = 0;
    for (int b = 1; b < kBucketCount; ++b)
      if (st.badput[b].mean > st.badput[top].mean) top = b;
    const std::string largest =
        st.badput[top].mean > 0
            ? std::string(bucket_name(static_cast<Bucket>(top))) + " " + pct(st.badput[top].mean)
            : std::string("none");
    if (timed)
      std::snprintf(line, sizeof line, "%-20s %9.2f%% ±%5.2f %8.2f%% %9.2f%% %14.1f  %s\n",
                    st.name.c_str(), 100 * st.goodput.mean, 100 * st.goodput.ci95,
                    100 * st.goodput_per_provisioned_gpu.mean, 100 * st.ettr.mean,
                    st.interruptions.mean, largest.c_str());
    else
      std::snprintf(line, sizeof line, "%-20s %9.2f%% ±%5.2f %8.2f%%  %s\n", st.name.c_str(),
                    100 * st.goodput.mean, 100 * st.goodput.ci95,
                    100 * st.goodput_per_provisioned_gpu.mean, largest.c_str());
    s << line;
  }
  s << verdict_paragraph(rep, false) << "\n";
  if (rep.plan->scenario.mode != RunMode::Snapshot)
    for (const auto& note : ettr_goodput_notes(rep.strategies)) s << note << "\n";
  return s.str();
}

void write_report_files(const Report& rep, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  write_file(dir / "report.json", report_json(rep).dump(2) + "\n");
  write_file(dir / "runs.csv", runs_csv(rep));
  write_file(dir / "report.md", report_markdown(rep));
  if (rep.html) write_file(dir / "report.html", report_html(rep));
  if (!rep.timeline.empty()) write_file(dir / "timeline.json", rep.timeline.json);
}

void write_report(const Report& rep, const std::string& directory) {
  OutputDir out(directory, "--out");
  write_report_files(rep, out.staging());
  out.publish();
}

}  // namespace goodput
