#include "sim/sweep/point_record.hpp"

#include <filesystem>
#include <fstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace goodput {

namespace {

Json without_seeds(Json j) {
  if (j.is_object()) j.erase("seeds");
  return j;
}

}  // namespace

Json runs_to_json(const std::vector<StrategyRuns>& runs) {
  Json out = Json::array();
  for (const auto& sr : runs) {
    Json list = Json::array();
    for (const auto& m : sr.runs) list.push_back(run_metrics_to_json(m));
    out.push_back({{"strategy", sr.strategy}, {"runs", list}});
  }
  return out;
}

std::vector<StrategyRuns> runs_from_json(const Json& j) {
  std::vector<StrategyRuns> out;
  for (const auto& sr : j) {
    StrategyRuns r;
    r.strategy = sr.at("strategy").get<std::string>();
    for (const auto& m : sr.at("runs")) r.runs.push_back(run_metrics_from_json(m));
    out.push_back(std::move(r));
  }
  return out;
}

Json pilot_to_json(const RunPlan::Pilot& pilot) {
  return {{"runs", pilot.runs}, {"rollbacks", pilot.rollbacks}};
}

std::optional<RunPlan::Pilot> pilot_from_json(const Json& j) {
  try {
    RunPlan::Pilot p;
    p.runs = j.at("runs").get<int>();
    p.rollbacks = j.at("rollbacks").get<std::vector<std::int64_t>>();
    return p;
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

void write_point_record(const SweepPoint& point, int index, const std::string& path) {
  const Json runs = runs_to_json(point.report.runs);
  const Json j = {{"point", index},
                  {"values", point.values},
                  {"seeds", point.plan.scenario.seeds},
                  {"scenario", point.plan.scenario.resolved},
                  {"pilot", pilot_to_json(point.plan.pilot)},
                  {"runs", runs}};
  write_file_atomic(path, j.dump() + "\n");
}

std::optional<std::vector<StrategyRuns>> read_point_record(const std::string& path,
                                                           const Json& expected, bool any_seeds,
                                                           int& seeds,
                                                           std::optional<RunPlan::Pilot>* pilot) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const Json j = Json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("runs")) return std::nullopt;  // unreadable: run it again
  const Json& got = j.at("scenario");
  if (any_seeds ? without_seeds(got) != without_seeds(expected) : got != expected)
    throw InputError(
        path, "/scenario",
        "this finished point was run with a different scenario; rerun without --resume");
  seeds = j.at("seeds").get<int>();
  if (pilot) *pilot = j.contains("pilot") ? pilot_from_json(j.at("pilot")) : std::nullopt;
  try {
    return runs_from_json(j.at("runs"));
  } catch (const Json::exception&) {
    return std::nullopt;  // an older record (metrics missing or stored by position): run the point
                          // again
  }
}

}  // namespace goodput
