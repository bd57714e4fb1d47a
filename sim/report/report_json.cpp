#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "models/scenario/scenario_enums.hpp"
#include "models/strategies/price_list.hpp"
#include "sim/report/command_record.hpp"
#include "sim/report/report.hpp"
#include "sim/report/strategy_metrics.hpp"

namespace goodput {

namespace {

Json summary_json(const Summary& s) {
  return Json{
      {"mean", s.mean}, {"ci95", s.ci95}, {"stddev", s.stddev}, {"min", s.min}, {"max", s.max}};
}

// a x scale + offset, applied to a summary (CI half-widths scale by |scale|).
Summary scale(Summary s, double k, double offset = 0) {
  s.mean = s.mean * k + offset;
  s.min = s.min * k + offset;
  s.max = s.max * k + offset;
  if (k < 0) std::swap(s.min, s.max);
  s.stddev *= std::abs(k);
  s.ci95 *= std::abs(k);
  return s;
}

// Writes metric `m` of `s` into a strategy's object `out` at its declared place.
void put(Json& out, const StrategyMetric& m, const StrategySummary& s) {
  const Summary& v = m.get(s);
  if (m.json_ci95.empty()) {
    out[Json::json_pointer(m.json)] = summary_json(v);
    return;
  }
  out[Json::json_pointer(m.json)] = v.mean;
  out[Json::json_pointer(m.json_ci95)] = v.ci95;
}

// Whether report.json carries `m` in `mode`; `first`: those at a strategy's top level in every
// mode, written right after params and checkpoint (the others fill the sections, or follow them).
bool carried(const StrategyMetric& m, RunMode mode, bool first) {
  const bool top_every = m.json_modes == kEveryMode && m.top_level();
  return !m.json.empty() && in_modes(m.json_modes, mode) && top_every == first;
}

Json checkpoint_json(const RunPlan::Checkpointing& c) {
  return {{"interval_s", to_seconds(c.interval)},
          {"reason", c.reason},
          {"rollbacks_per_hour",
           c.rollbacks_per_hour >= 0 ? Json(c.rollbacks_per_hour) : Json(nullptr)}};
}

}  // namespace

const std::vector<std::string>& report_json_derived_keys() {
  static const std::vector<std::string> keys{"goodput_minus_winner", "goodput_minus_baseline",
                                             "boosted_domain_share", "capped_domain_share",
                                             "throughput_loss"};
  return keys;
}

Json report_json(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["tool"] = {{"name", "goodput"}, {"version", kToolVersion}};
  j["command"] = rep.command.empty() ? Json(nullptr) : command_json(rep.command);
  j["scenario_file"] = sc.file;
  j["seeds"] = sc.seeds;
  if (rep.seeds_chosen.automatic) {
    const SeedsChosen& c = rep.seeds_chosen;
    j["seeds_auto"] = {{"ci_target", c.rule.ci_target}, {"tie_margin", c.rule.tie_margin},
                       {"max_seeds", c.rule.max_seeds}, {"batch", kAutoSeedBatch},
                       {"settled", c.settled},          {"reason", c.reason}};
  }
  j["seed"] = sc.seed;
  j["horizon_hours"] = sc.horizon_hours;
  const CostInfo& ci = plan.cost_info;
  j["mode"] = enum_name(kRunModeNames, sc.mode);
  j["cost_model"] = {{"name", enum_name(kCostModelNames, ci.model)},
                     {"healthy_step_s", ci.healthy_step_s}};
  if (ci.model == CostSpec::Model::Iteration)
    j["cost_model"]["calibration_profile"] = {{"path", ci.profile_path},
                                              {"hash", ci.profile_hash},
                                              {"source", ci.profile_source},
                                              {"device", ci.device},
                                              {"interpolated_tp", ci.interpolated_tp}};
  else
    j["cost_model"]["calibration_profile"] = nullptr;
  j["cluster"] = {{"gpus", topo.gpus()},
                  {"nodes", topo.count(ComponentKind::Node)},
                  {"domains", topo.domains()},
                  {"spare_domains", sc.spare_domains},
                  {"job_gpus", sc.job_gpus()}};
  if (sc.gpu_hour_price > 0)
    j["prices"] = {
        {"gpu_hour_price", sc.gpu_hour_price},
        {"gpu_capex", sc.gpu_capex > 0 ? Json(sc.gpu_capex) : Json(nullptr)},
        {"gpu_lifetime_years", sc.gpu_capex > 0 ? Json(sc.gpu_lifetime_years) : Json(nullptr)},
        {"spare_gpus", spare_gpus(plan)},
        {"spare_gpu_hour_price", sc.spare_gpu_hour_price},
        {"cluster_per_hour", cluster_price_per_hour(plan)}};
  j["currency"] = sc.currency;
  j["checkpoint"] = {
      {"policy", plan.checkpoint_policy},
      {"per_strategy", "strategies.<name>.checkpoint: each strategy's interval and why"},
      {"job_faults_per_hour", plan.job_faults_per_hour}};
  if (plan.trace_faults) {
    const TraceSampling& ts = plan.trace_sampling;
    j["trace"] = {{"records", plan.trace_records.records},
                  {"merged_records", plan.trace_records.merged},
                  {"faults", plan.trace_faults->faults.size()},
                  {"span_hours", ts.span_hours},
                  {"seeds_vary", enum_name(kSeedsVaryNames, ts.vary)},
                  {"windows_vary", ts.window},
                  {"window_offset_max_hours", ts.slack_hours},
                  {"independent_windows", ts.independent_windows},
                  {"placement_varies", ts.placement},
                  {"deterministic", ts.deterministic()},
                  {"statistics", trace_sampling_text(ts, sc.horizon_hours)}};
  }
  const double job_domains =
      std::ceil(static_cast<double>(sc.job_groups()) / sc.groups_per_domain());
  const double job_domain_hours = std::max(1e-300, job_domains * sc.horizon_hours);
  if (sc.mode == RunMode::Snapshot)
    j["snapshot"] = {
        {"gpus", topo.gpus()},
        {"failed_fraction", sc.failed_fraction},
        {"failed_gpus",
         rep.runs.empty() || rep.runs[0].runs.empty() ? 0 : rep.runs[0].runs[0].failures},
        {"tp", sc.job.tp},
        {"tp_groups", sc.job_groups()}};
  Json strategies = Json::object();
  for (const auto& s : rep.strategies) {
    Json& out = strategies[s.name];
    out = {{"params", sc.strategy(s.name)->params},
           {"checkpoint", checkpoint_json(plan.checkpointing(s.name))}};
    for (const StrategyMetric& m : strategy_metrics())
      if (carried(m, sc.mode, true)) put(out, m, s);
    out["badput"] = Json::object();  // the sections the metrics fill, in report.json's order
    out["badput_ci95"] = Json::object();
    out["goodput_minus_winner"] = summary_json(s.difference_vs_winner);
    out["boosted_domain_share"] =
        summary_json(scale(s.boosted_domain_hours, 1.0 / job_domain_hours));
    out["capped_domain_share"] = summary_json(scale(s.capped_domain_hours, 1.0 / job_domain_hours));
    if (rep.baseline) out["goodput_minus_baseline"] = summary_json(s.difference_vs_baseline);
    if (sc.mode != RunMode::Snapshot) {
      Json above = Json::array();
      for (std::size_t k = 0; k < s.time_above_failed.size() && k < sc.failed_gpu_thresholds.size();
           ++k)
        above.push_back({{"failed_fraction_above", sc.failed_gpu_thresholds[k]},
                         {"time_share", summary_json(s.time_above_failed[k])}});
      out["cluster_health"] = {
          {"failed_gpus", Json::object()},
          {"time_above_failed", above},
          {"job_mtbi_hours", s.mtbi_hours > 0 ? Json(s.mtbi_hours) : Json(nullptr)}};
    }
    if (sc.mode != RunMode::Snapshot && sc.train_hours > 0) {
      out["time_to_train"] = {{"train_hours", sc.train_hours},
                              {"wall_hours", summary_json(s.time_to_train_hours)},
                              {"gpu_hours", summary_json(s.gpu_hours_to_train)}};
      Json& ttt = out["time_to_train"];
      if (sc.gpu_hour_price > 0) ttt["cost"] = summary_json(s.cost_to_train);
      if (sc.gpu_power_kw > 0) ttt["energy_mwh"] = summary_json(s.energy_to_train_mwh);
      if (sc.gpu_power_kw > 0 && sc.energy_price_per_kwh > 0)
        ttt["energy_cost"] = summary_json(s.energy_cost_to_train);
      if (sc.gpu_power_kw > 0 && sc.energy_price_per_kwh > 0 && sc.gpu_hour_price > 0)
        ttt["total_cost"] = summary_json(s.total_cost_to_train);
      const CompletionSummary& c = s.completion;
      auto hours = [](double h) { return h > 0 ? Json(h) : Json(nullptr); };
      Json done = {{"runs", c.runs},
                   {"finished", c.finished},
                   {"mean_hours", hours(c.mean_hours)},
                   {"p50_hours", hours(c.p50_hours)},
                   {"p90_hours", hours(c.p90_hours)},
                   {"p99_hours", hours(c.p99_hours)}};
      if (sc.gpu_hour_price > 0) {
        const double per_hour = cluster_price_per_hour(*rep.plan);
        auto cost = [&](double h) { return h > 0 ? Json(h * per_hour) : Json(nullptr); };
        done["cost_p50"] = cost(c.p50_hours);
        done["cost_p90"] = cost(c.p90_hours);
        done["cost_p99"] = cost(c.p99_hours);
      }
      out["run_to_completion"] = done;
    }
    if (sc.mode != RunMode::Snapshot && sc.gpu_power_kw > 0) {
      Json energy = {{"mwh", summary_json(s.energy_mwh)}};
      if (sc.energy_price_per_kwh > 0) energy["cost"] = summary_json(s.energy_cost);
      if (sc.gpu_hour_price > 0)
        energy["cost_per_useful_gpu_hour"] = summary_json(s.cost_per_useful_gpu_hour);
      out["energy"] = energy;
    }
    if (sc.mode != RunMode::Snapshot) out["mechanisms_paid"] = Json::object();
    for (const StrategyMetric& m : strategy_metrics())
      if (carried(m, sc.mode, false)) put(out, m, s);
    if (sc.mode == RunMode::Snapshot)
      out["throughput_loss"] = summary_json(scale(s.goodput, -1.0, 1.0));
  }
  if (sc.mode != RunMode::Snapshot) {
    Json prices = Json::array();
    for (int k = 0; k < kMechanismCount; ++k) {
      const auto m = static_cast<Mechanism>(k);
      prices.push_back({{"mechanism", mechanism_name(m)},
                        {"price_s", mechanism_price_s(sc, plan.cost.get(), m)},
                        {"from", mechanism_price_source(sc, plan.cost.get(), m)}});
    }
    j["price_list"] = prices;
  }
  j["strategies"] = strategies;
  j["baseline"] = rep.baseline ? Json(rep.strategies[*rep.baseline].name) : Json(nullptr);
  j["winner"] =
      rep.strategies[rep.winner].name;  // the leader; see "verdict" for whether it is significant
  if (!rep.depends_on_json.is_null())
    j["depends_on"] = rep.depends_on_json;
  else if (!rep.depends_on_note.empty())
    j["depends_on"] = {{"skipped", rep.depends_on_note}};
  j["verdict"] = {
      {"leader", rep.strategies[rep.winner].name},
      {"runner_up",
       rep.runner_up != rep.winner ? Json(rep.strategies[rep.runner_up].name) : Json(nullptr)},
      {"significant", rep.decided},
      {"deterministic", rep.deterministic},
      {"statement", rep.runner_up == rep.winner ? "only one strategy"
                    : rep.decided               ? "leader ahead (paired 95% CI excludes 0)"
                    : rep.deterministic && sc.seeds > 1
                        ? "deterministic replay: every seed the same run, no confidence interval"
                    : rep.strategies[rep.winner].goodput.n < 2
                        ? "one seed: no confidence interval"
                        : "tied (paired 95% CI includes 0)"}};
  j["scenario"] = sc.resolved;
  return j;
}

}  // namespace goodput
