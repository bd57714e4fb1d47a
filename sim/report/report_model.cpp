#include <algorithm>
#include <cmath>

#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"

namespace goodput {

const char* const kToolVersion = "0.1.0";

namespace {

template <class F>
Summary summarize_by(const std::vector<RunMetrics>& runs, F field) {
  std::vector<double> v;
  v.reserve(runs.size());
  for (const auto& r : runs) v.push_back(static_cast<double>(field(r)));
  return summarize(v);
}

}  // namespace

double energy_kwh(const Scenario& sc, std::int64_t cluster_gpus, const RunMetrics& m) {
  const double held =
      static_cast<double>(cluster_gpus) * m.wall_hours - m.gpu_hours_down - m.spare_gpu_hours;
  return (held + sc.idle_power_fraction * m.spare_gpu_hours + m.boost_energy_gpu_hours) *
         sc.gpu_power_kw * sc.pue;
}

std::array<double, 4> time_in_state(const StrategySummary& s) {
  auto b = [&](Bucket k) { return s.badput[static_cast<std::size_t>(k)].mean; };
  return {s.goodput.mean,
          b(Bucket::DegradedCapacity) + b(Bucket::ReshardOverhead) + b(Bucket::SlowComponents),
          b(Bucket::WastedProgress) + b(Bucket::InfrastructureRecovery) +
              b(Bucket::CheckpointSave) + b(Bucket::CheckpointRestore),
          b(Bucket::WaitingForCapacity)};
}

std::int64_t spare_gpus(const RunPlan& plan) {
  return std::min<std::int64_t>(
      static_cast<std::int64_t>(plan.scenario.spare_domains) * plan.topology->gpus_per_domain(),
      plan.topology->gpus());
}

double cluster_price_per_hour(const RunPlan& plan) {
  const Scenario& sc = plan.scenario;
  const auto spares = spare_gpus(plan);
  return static_cast<double>(plan.topology->gpus() - spares) * sc.gpu_hour_price +
         static_cast<double>(spares) * sc.spare_gpu_hour_price;
}

CompletionSummary summarize_completion(const std::vector<RunMetrics>& runs) {
  CompletionSummary c;
  c.runs = runs.size();
  std::vector<double> hours;  // finished runs, sorted; the others come after them all
  for (const RunMetrics& m : runs)
    if (m.completion_hours > 0) hours.push_back(m.completion_hours);
  std::sort(hours.begin(), hours.end());
  c.finished = hours.size();
  double sum = 0;
  for (double h : hours) sum += h;
  c.mean_hours = hours.empty() ? 0 : sum / static_cast<double>(hours.size());
  auto rank = [&](double q) {  // nearest rank: the ceil(q n)-th smallest
    const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(c.runs) - 1e-9));
    return k >= 1 && k <= hours.size() ? hours[k - 1] : -1.0;
  };
  c.p50_hours = rank(0.50);
  c.p90_hours = rank(0.90);
  c.p99_hours = rank(0.99);
  return c;
}

Report build_report(const RunPlan& plan, std::vector<StrategyRuns> runs) {
  Report rep;
  rep.plan = &plan;
  rep.runs = std::move(runs);
  rep.deterministic = plan.deterministic_replay();
  if (rep.deterministic)  // identical runs: one run, not n samples
    for (auto& sr : rep.runs) sr.runs.resize(std::min<std::size_t>(sr.runs.size(), 1));
  for (const auto& sr : rep.runs) {
    StrategySummary s;
    s.name = sr.strategy;
    const auto& r = sr.runs;
    for (const StrategyMetric& metric : strategy_metrics())
      metric.slot(s) = summarize_by(r, metric.per_run);
    const std::size_t thresholds = r.empty() ? 0 : r.front().time_above_failed.size();
    for (std::size_t k = 0; k < thresholds; ++k)
      s.time_above_failed.push_back(summarize_by(r, [k](const RunMetrics& m) {
        return k < m.time_above_failed.size() ? m.time_above_failed[k] : 0.0;
      }));
    if (plan.scenario.train_hours > 0) {
      const double gpus = static_cast<double>(plan.topology->gpus());
      const double need = plan.scenario.train_hours, per_hour = cluster_price_per_hour(plan);
      auto hours = [need](const RunMetrics& m) {
        return m.goodput > 0 ? need / m.goodput : INFINITY;
      };
      s.time_to_train_hours = summarize_by(r, hours);
      s.gpu_hours_to_train = summarize_by(r, [&](const RunMetrics& m) { return hours(m) * gpus; });
      s.cost_to_train = summarize_by(r, [&](const RunMetrics& m) { return hours(m) * per_hour; });
      s.completion = summarize_completion(r);
      const Scenario& sc = plan.scenario;
      if (sc.mode != RunMode::Snapshot && sc.gpu_power_kw > 0) {
        const auto all = plan.topology->gpus();
        auto mwh = [&](const RunMetrics& m) {  // energy per wall hour x hours to train
          return m.wall_hours > 0 ? energy_kwh(sc, all, m) / 1e3 / m.wall_hours * hours(m) : 0.0;
        };
        s.energy_to_train_mwh = summarize_by(r, mwh);
        if (sc.energy_price_per_kwh > 0)
          s.energy_cost_to_train = summarize_by(
              r, [&](const RunMetrics& m) { return mwh(m) * 1e3 * sc.energy_price_per_kwh; });
        if (sc.energy_price_per_kwh > 0 && sc.gpu_hour_price > 0)
          s.total_cost_to_train = summarize_by(r, [&](const RunMetrics& m) {
            return hours(m) * per_hour + mwh(m) * 1e3 * sc.energy_price_per_kwh;
          });
      }
    }
    const Scenario& sc = plan.scenario;
    if (sc.mode != RunMode::Snapshot && sc.gpu_power_kw > 0) {
      const auto gpus = plan.topology->gpus();
      const double job_gpus = static_cast<double>(sc.job_gpus());
      s.energy_mwh =
          summarize_by(r, [&](const RunMetrics& m) { return energy_kwh(sc, gpus, m) / 1e3; });
      s.energy_cost = summarize_by(r, [&](const RunMetrics& m) {
        return energy_kwh(sc, gpus, m) * sc.energy_price_per_kwh;
      });
      const double per_hour = cluster_price_per_hour(plan);  // once, not per run
      if (sc.gpu_hour_price > 0)
        s.cost_per_useful_gpu_hour = summarize_by(r, [&](const RunMetrics& m) {
          const double useful = m.goodput * job_gpus * m.wall_hours;
          const double cost =
              m.wall_hours * per_hour + energy_kwh(sc, gpus, m) * sc.energy_price_per_kwh;
          return useful > 0 ? cost / useful : INFINITY;
        });
    }
    double wall = 0, interruptions = 0;
    for (const auto& m : r) {
      wall += m.wall_hours;
      interruptions += static_cast<double>(m.interruptions);
    }
    s.mtbi_hours = interruptions > 0 ? wall / interruptions : 0;
    rep.strategies.push_back(s);
  }
  // Winner: highest mean Goodput (ties: table order).
  for (std::size_t i = 1; i < rep.strategies.size(); ++i)
    if (rep.strategies[i].goodput.mean > rep.strategies[rep.winner].goodput.mean) rep.winner = i;
  std::vector<double> best;
  for (const auto& m : rep.runs[rep.winner].runs) best.push_back(m.goodput);
  for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
    std::vector<double> mine;
    for (const auto& m : rep.runs[i].runs) mine.push_back(m.goodput);
    rep.strategies[i].difference_vs_winner = summarize_difference(mine, best);
  }
  for (std::size_t i = 0; i < rep.strategies.size(); ++i)
    if (rep.strategies[i].name == plan.scenario.baseline) rep.baseline = i;
  if (rep.baseline) {
    std::vector<double> base;
    for (const auto& m : rep.runs[*rep.baseline].runs) base.push_back(m.goodput);
    for (std::size_t i = 0; i < rep.strategies.size(); ++i) {
      std::vector<double> mine;
      for (const auto& m : rep.runs[i].runs) mine.push_back(m.goodput);
      rep.strategies[i].difference_vs_baseline = summarize_difference(mine, base);
    }
  }
  rep.runner_up = rep.winner;
  for (std::size_t i = 0; i < rep.strategies.size(); ++i)
    if (i != rep.winner &&
        (rep.runner_up == rep.winner ||
         rep.strategies[i].goodput.mean > rep.strategies[rep.runner_up].goodput.mean))
      rep.runner_up = i;
  if (rep.runner_up != rep.winner) {
    const Summary& d = rep.strategies[rep.runner_up].difference_vs_winner;
    rep.decided = d.n >= 2 && -d.mean - d.ci95 > 0;
  }
  return rep;
}

}  // namespace goodput
