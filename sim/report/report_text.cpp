#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/ci_text.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report.hpp"
#include "sim/report/report_html.hpp"
#include "sim/report/text_util.hpp"
#include "sim/report/units_text.hpp"

namespace goodput {

namespace {

using ci_text::pct;
using ci_text::pct_ci;

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
  make_folder(dir);
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
