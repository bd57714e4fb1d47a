// report.md (report_markdown, report.hpp): one function per section, in the order they print;
// which sections a report has follows the mode and the scenario's /report keys. The sections on
// time, cost and energy to train are in report_markdown_costs.cpp, the closing ones (failures,
// cluster health, mechanisms, set-up) in report_markdown_setup.cpp.
#include <sstream>
#include <string>
#include <vector>

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

namespace goodput {

namespace {

using ci_text::num_ci;
using ci_text::pct;
using ci_text::pct_ci;

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
  s << "\n## Power boost\n\nCapped: degraded domains (or a slow group's) whose power cap (the "
       "GPU's rated board power, /cluster/domain_power_budget_kw, max_power) kept their replica "
       "short of its batch. A boosted domain draws the least power that keeps what its cap "
       "keeps.\n\n| strategy | extra energy (GPU-TDP-hours) | boosted "
       "domain-hours | capped domain-hours |\n|---|---|---|---|\n";
  for (const auto& st : rep.strategies)
    s << "| " << st.name << " | " << num_ci(st.boost_energy_gpu_hours, "%.0f") << " | "
      << num_ci(st.boosted_domain_hours, "%.0f") << " | " << num_ci(st.capped_domain_hours, "%.0f")
      << " |\n";
  return s.str();
}

}  // namespace

std::string report_markdown(const Report& rep) {
  using namespace markdown_parts;
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
