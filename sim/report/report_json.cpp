#include <cstdio>

#include "sim/report/report.hpp"

namespace goodput {

namespace {

Json summary_json(const Summary& s) {
  return Json{{"mean", s.mean}, {"ci95", s.ci95}, {"stddev", s.stddev}, {"min", s.min}, {"max", s.max}};
}

}  // namespace

Json report_json(const Report& rep) {
  const RunPlan& plan = *rep.plan;
  const Scenario& sc = plan.scenario;
  const Topology& topo = *plan.topology;
  Json j;
  j["schema_version"] = kReportSchemaVersion;
  j["tool"] = {{"name", "goodput"}, {"version", kToolVersion}};
  j["scenario_file"] = sc.file;
  j["seeds"] = sc.seeds;
  j["seed"] = sc.seed;
  j["horizon_hours"] = sc.horizon_hours;
  j["cost_model"] = {{"name", "step_time"},
                     {"doc", "replica throughput from replica counts and the batch policy; iteration time /job/step_s"},
                     {"calibration_profile", nullptr}};
  j["cluster"] = {{"gpus", topo.gpus()},
                  {"nodes", topo.count(ComponentKind::Node)},
                  {"domains", topo.domains()},
                  {"spare_domains", sc.spare_domains},
                  {"job_gpus", static_cast<std::int64_t>(sc.job.tp) * sc.job.pp * sc.job.dp}};
  j["checkpoint"] = {{"policy", plan.checkpoint_policy},
                     {"interval_s", to_seconds(plan.checkpoint_interval)},
                     {"reason", plan.checkpoint_reason},
                     {"job_faults_per_hour", plan.job_faults_per_hour}};
  Json strategies = Json::object();
  for (const auto& s : rep.strategies) {
    Json badput = Json::object(), badput_ci = Json::object();
    for (int b = 0; b < kBucketCount; ++b) {
      badput[bucket_name(static_cast<Bucket>(b))] = s.badput[b].mean;
      badput_ci[bucket_name(static_cast<Bucket>(b))] = s.badput[b].ci95;
    }
    strategies[s.name] = {
        {"params", sc.strategy(s.name)->params},
        {"goodput", summary_json(s.goodput)},
        {"badput", badput},
        {"badput_ci95", badput_ci},
        {"ettr", summary_json(s.ettr)},
        {"interruptions", summary_json(s.interruptions)},
        {"failures", summary_json(s.failures)},
        {"job_failures", summary_json(s.job_failures)},
        {"gpu_hours_down", summary_json(s.gpu_hours_down)},
        {"peak_failed_gpus", summary_json(s.peak_failed_gpus)},
        {"spare_gpu_hours", summary_json(s.spare_gpu_hours)},
        {"checkpoints", summary_json(s.checkpoints)},
        {"goodput_minus_winner", summary_json(s.difference_vs_winner)},
    };
  }
  j["strategies"] = strategies;
  j["winner"] = rep.strategies[rep.winner].name;
  j["scenario"] = sc.resolved;
  return j;
}

std::string runs_csv(const Report& rep) {
  std::string out = "run,seed,strategy,goodput";
  for (int b = 0; b < kBucketCount; ++b) out += std::string(",") + bucket_name(static_cast<Bucket>(b));
  out += ",ettr,interruptions,failures,job_failures,gpu_hours_down,peak_failed_gpus,spare_gpu_hours,checkpoints,events\n";
  char buf[64];
  auto num = [&](double v) {
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return std::string(buf);
  };
  const std::size_t runs = rep.runs.empty() ? 0 : rep.runs[0].runs.size();
  for (std::size_t r = 0; r < runs; ++r) {
    for (const auto& sr : rep.runs) {
      const RunMetrics& m = sr.runs[r];
      out += std::to_string(r) + "," + std::to_string(rep.plan->scenario.seed) + "," + sr.strategy + "," + num(m.goodput);
      for (double b : m.badput) out += "," + num(b);
      out += "," + num(m.ettr) + "," + std::to_string(m.interruptions) + "," + std::to_string(m.failures) + "," +
             std::to_string(m.job_failures) + "," + num(m.gpu_hours_down) + "," + std::to_string(m.peak_failed_gpus) +
             "," + num(m.spare_gpu_hours) + "," + std::to_string(m.checkpoints) + "," + std::to_string(m.events) + "\n";
    }
  }
  return out;
}

}  // namespace goodput
