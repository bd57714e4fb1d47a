#include "sim/report/point_record.hpp"

#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"

namespace goodput {

namespace {

Json metrics_json(const RunMetrics& m) {
  Json b = Json::array();
  for (double v : m.badput) b.push_back(v);
  return {m.goodput,      b,           m.ettr,          m.interruptions,        m.failures,
          m.job_failures, m.gpu_hours_down, m.peak_failed_gpus, m.spare_gpu_hours, m.checkpoints,
          m.events,       m.boost_energy_gpu_hours, m.boosted_domain_hours, m.healthy_tp_groups_fraction,
          m.wall_hours,   m.failed_gpus_mean, m.failed_gpus_p50, m.failed_gpus_p90, m.failed_gpus_p99,
          m.time_above_failed};
}

RunMetrics metrics_from(const Json& j) {
  RunMetrics m;
  m.goodput = j.at(0).get<double>();
  for (int b = 0; b < kBucketCount; ++b) m.badput[static_cast<std::size_t>(b)] = j.at(1).at(b).get<double>();
  m.ettr = j.at(2).get<double>();
  m.interruptions = j.at(3).get<std::int64_t>();
  m.failures = j.at(4).get<std::int64_t>();
  m.job_failures = j.at(5).get<std::int64_t>();
  m.gpu_hours_down = j.at(6).get<double>();
  m.peak_failed_gpus = j.at(7).get<std::int64_t>();
  m.spare_gpu_hours = j.at(8).get<double>();
  m.checkpoints = j.at(9).get<std::int64_t>();
  m.events = j.at(10).get<std::int64_t>();
  m.boost_energy_gpu_hours = j.at(11).get<double>();
  m.boosted_domain_hours = j.at(12).get<double>();
  m.healthy_tp_groups_fraction = j.at(13).get<double>();
  m.wall_hours = j.at(14).get<double>();
  m.failed_gpus_mean = j.at(15).get<double>();
  m.failed_gpus_p50 = j.at(16).get<double>();
  m.failed_gpus_p90 = j.at(17).get<double>();
  m.failed_gpus_p99 = j.at(18).get<double>();
  m.time_above_failed = j.at(19).get<std::vector<double>>();
  return m;
}

Json without_seeds(Json j) {
  if (j.is_object()) j.erase("seeds");
  return j;
}

}  // namespace

Json runs_to_json(const std::vector<StrategyRuns>& runs) {
  Json out = Json::array();
  for (const auto& sr : runs) {
    Json list = Json::array();
    for (const auto& m : sr.runs) list.push_back(metrics_json(m));
    out.push_back({{"strategy", sr.strategy}, {"runs", list}});
  }
  return out;
}

std::vector<StrategyRuns> runs_from_json(const Json& j) {
  std::vector<StrategyRuns> out;
  for (const auto& sr : j) {
    StrategyRuns r;
    r.strategy = sr.at("strategy").get<std::string>();
    for (const auto& m : sr.at("runs")) r.runs.push_back(metrics_from(m));
    out.push_back(std::move(r));
  }
  return out;
}

void write_point_record(const SweepPoint& point, int index, const std::string& path) {
  const Json runs = runs_to_json(point.report.runs);
  const Json j = {{"point", index},
                  {"values", point.values},
                  {"seeds", point.plan.scenario.seeds},
                  {"scenario", point.plan.scenario.resolved},
                  {"runs", runs}};
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << j.dump() << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

std::optional<std::vector<StrategyRuns>> read_point_record(const std::string& path, const Json& expected,
                                                           bool any_seeds, int& seeds) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const Json j = Json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("runs")) return std::nullopt;  // unreadable: run it again
  const Json& got = j.at("scenario");
  if (any_seeds ? without_seeds(got) != without_seeds(expected) : got != expected)
    throw InputError(path, "/scenario",
                     "this finished point was run with a different scenario; rerun without --resume");
  seeds = j.at("seeds").get<int>();
  const Json& runs = j.at("runs");
  for (const auto& sr : runs)
    for (const auto& m : sr.at("runs"))
      if (!m.is_array() || m.size() < 20) return std::nullopt;  // an older record: run the point again
  return runs_from_json(runs);
}

}  // namespace goodput
