#include "sim/sweep/point_record.hpp"

#include <sys/stat.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "sim/core/atomic_file.hpp"
#include "sim/core/content_hash.hpp"
#include "sim/core/error.hpp"

namespace goodput {

namespace {

Json without_seeds(Json j) {
  if (j.is_object()) j.erase("seeds");
  return j;
}

// What `j` is, for messages (never its content: a record is any file).
std::string type_text(const Json& j) {
  return j.is_number_float() ? "a fractional number" : std::string("JSON ") + j.type_name();
}

bool integer_in(const Json& v, long long lo, long long hi) {
  if (!v.is_number_integer()) return false;
  if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    return u <= static_cast<unsigned long long>(hi) &&
           (lo <= 0 || u >= static_cast<unsigned long long>(lo));
  }
  const auto x = v.get<long long>();
  return x >= lo && x <= hi;
}

// `j[key]` as an integer in [lo, hi], or why not.
std::optional<JsonProblem> check_integer(const Json& j, const std::string& key,
                                         const std::string& at, long long lo, long long hi) {
  const auto it = j.find(key);
  if (it == j.end()) return JsonProblem{at, "missing"};
  if (!it->is_number_integer())
    return JsonProblem{at, "expected an integer, got " + type_text(*it)};
  if (!integer_in(*it, lo, hi))
    return JsonProblem{at, "expected an integer in [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "], got " + it->dump()};
  return std::nullopt;
}

// The checkpoint pilot: none ({runs 0, no rollbacks}: the policy needs none), or its run count
// and one rollback count per strategy.
std::optional<JsonProblem> check_pilot(const Json& j, std::size_t strategies) {
  const auto it = j.find("pilot");
  if (it == j.end()) return JsonProblem{"/pilot", "missing"};
  const Json& p = *it;
  if (!p.is_object()) return JsonProblem{"/pilot", "expected an object, got " + type_text(p)};
  if (auto bad = check_integer(p, "runs", "/pilot/runs", 0, INT_MAX)) return bad;
  const bool none = p.at("runs") == 0;
  const auto r = p.find("rollbacks");
  if (r == p.end()) return JsonProblem{"/pilot/rollbacks", "missing"};
  if (!r->is_array() || r->size() != (none ? 0 : strategies))
    return JsonProblem{"/pilot/rollbacks", none ? "expected an empty array (no pilot runs)"
                                                : "expected an array of " +
                                                      std::to_string(strategies) +
                                                      " rollback counts (one per strategy)"};
  for (std::size_t i = 0; i < r->size(); ++i) {
    const std::string at = "/pilot/rollbacks/" + std::to_string(i);
    const Json& v = (*r)[i];
    if (!integer_in(v, 0, LLONG_MAX)) return JsonProblem{at, "expected an integer >= 0"};
  }
  return std::nullopt;
}

// The record's /inputs against the files the scenario names now: a file whose content changed
// since the point was run is refused (InputError); a record without the hash is not trusted.
std::optional<JsonProblem> check_inputs(const Json& j, const Scenario& scenario,
                                        const std::string& path) {
  const auto it = j.find("inputs");
  if (it == j.end()) return JsonProblem{"/inputs", "missing (a record of an older goodput)"};
  if (!it->is_array()) return JsonProblem{"/inputs", "expected an array, got " + type_text(*it)};
  for (const ScenarioInput& in : scenario_inputs(scenario)) {
    std::size_t i = 0;
    while (i < it->size() &&
           !((*it)[i].is_object() && (*it)[i].value("pointer", Json()) == Json(in.pointer)))
      ++i;
    if (i == it->size()) return JsonProblem{"/inputs", "no hash of " + in.pointer};
    const std::string at = "/inputs/" + std::to_string(i) + "/sha256";
    const Json& entry = (*it)[i];
    const auto sha = entry.find("sha256");
    if (sha == entry.end() || !sha->is_string()) return JsonProblem{at, "missing or not a string"};
    if (sha->get<std::string>() != input_sha256(in.path))
      throw InputError(path, at,
                       in.path + " (" + in.pointer +
                           ") changed since this point was run; rerun without --resume");
  }
  return std::nullopt;
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

std::vector<ScenarioInput> scenario_inputs(const Scenario& scenario) {
  std::vector<ScenarioInput> out;
  if (scenario.failures.model == FailureSpec::Model::Trace && !scenario.failures.trace.path.empty())
    out.push_back({"/failures/trace/path", scenario.failures.trace.path});
  if (scenario.failures.model == FailureSpec::Model::Trace &&
      !scenario.failures.trace.hosts.empty())
    out.push_back({"/failures/trace/hosts", scenario.failures.trace.hosts});
  if (!scenario.cost.profile.empty()) out.push_back({"/cost/profile", scenario.cost.profile});
  return out;
}

std::string input_sha256(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path, "", "cannot read this file");
  using Key = std::tuple<std::string, long long, long long, long long>;
  const Key key{path, static_cast<long long>(st.st_size), static_cast<long long>(st.st_mtim.tv_sec),
                static_cast<long long>(st.st_mtim.tv_nsec)};
  static std::mutex mutex;
  static std::map<Key, std::string> known;
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(key);
  if (it != known.end()) return it->second;
  std::string sha;
  try {
    sha = digest_file(path).sha256;
  } catch (const std::runtime_error&) {
    throw InputError(path, "", "cannot read this file");
  }
  known.emplace(key, sha);
  return sha;
}

std::optional<JsonProblem> check_point_runs(const Json& j, const Scenario& scenario,
                                            int max_seeds) {
  if (!j.is_object()) return JsonProblem{"", "expected an object, got " + type_text(j)};
  const int want = scenario.seeds;
  if (auto bad = check_integer(j, "seeds", "/seeds", 1, max_seeds > 0 ? max_seeds : INT_MAX))
    return bad;
  const int seeds = j.at("seeds").get<int>();
  if (max_seeds <= 0 && seeds != want)
    return JsonProblem{"/seeds", "expected the scenario's " + std::to_string(want) +
                                     " seeds, got " + std::to_string(seeds)};
  const auto& strategies = scenario.strategies;
  if (auto bad = check_pilot(j, strategies.size())) return bad;
  const auto r = j.find("runs");
  if (r == j.end()) return JsonProblem{"/runs", "missing"};
  if (!r->is_array()) return JsonProblem{"/runs", "expected an array, got " + type_text(*r)};
  const std::size_t thresholds = scenario.failed_gpu_thresholds.size();
  for (std::size_t s = 0; s < strategies.size() || s < r->size(); ++s) {
    const std::string at = "/runs/" + std::to_string(s);
    if (s >= r->size())
      return JsonProblem{"/runs", "no runs of strategy " + strategies[s].name + " (" +
                                      std::to_string(strategies.size()) + " expected)"};
    if (s >= strategies.size())
      return JsonProblem{at, "a strategy the scenario does not run (" +
                                 std::to_string(strategies.size()) + " expected)"};
    const Json& sr = (*r)[s];
    if (!sr.is_object()) return JsonProblem{at, "expected an object, got " + type_text(sr)};
    const auto name = sr.find("strategy");
    if (name == sr.end()) return JsonProblem{at + "/strategy", "missing"};
    if (!name->is_string() || name->get<std::string>() != strategies[s].name)
      return JsonProblem{at + "/strategy", "expected " + strategies[s].name +
                                               " (the scenario's strategies, in its order)"};
    const auto runs = sr.find("runs");
    if (runs == sr.end()) return JsonProblem{at + "/runs", "missing"};
    if (!runs->is_array())
      return JsonProblem{at + "/runs", "expected an array, got " + type_text(*runs)};
    if (runs->size() != static_cast<std::size_t>(seeds))
      return JsonProblem{at + "/runs", "expected " + std::to_string(seeds) +
                                           " runs (one per seed), got " +
                                           std::to_string(runs->size())};
    for (std::size_t i = 0; i < runs->size(); ++i)
      if (auto bad = check_run_metrics((*runs)[i], at + "/runs/" + std::to_string(i), thresholds))
        return bad;
  }
  return std::nullopt;
}

PointRecord point_record_from_json(const Json& j) {
  PointRecord out;
  out.seeds = j.at("seeds").get<int>();
  out.pilot = pilot_from_json(j.at("pilot"));
  out.runs = runs_from_json(j.at("runs"));
  return out;
}

SweepPoint point_from_record(const Scenario& scenario, PointRecord record) {
  SweepPoint pt;
  pt.plan = make_plan(scenario, 1, record.pilot ? &*record.pilot : nullptr);
  pt.plan.scenario.seeds = record.seeds;
  pt.plan.scenario.resolved["seeds"] = record.seeds;
  pt.report = build_report(pt.plan, std::move(record.runs));
  return pt;
}

void write_point_record(const SweepPoint& point, long index, const std::string& path) {
  Json inputs = Json::array();
  for (const ScenarioInput& in : scenario_inputs(point.plan.scenario))
    inputs.push_back(
        {{"pointer", in.pointer}, {"path", in.path}, {"sha256", input_sha256(in.path)}});
  const Json j = {{"point", index},
                  {"values", point.values},
                  {"seeds", point.plan.scenario.seeds},
                  {"scenario", point.plan.scenario.resolved},
                  {"inputs", inputs},
                  {"pilot", pilot_to_json(point.plan.pilot)},
                  {"runs", runs_to_json(point.report.runs)}};
  write_file_atomic(path, j.dump() + "\n");  // Ctrl-C waits for it: none is left half-written
}

RecordRead check_point_record(std::string_view bytes, const std::string& path,
                              const RecordExpect& expect) {
  RecordRead out;
  const Json j = Json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded()) {
    out.problem = JsonProblem{"", "not valid JSON"};
    return out;
  }
  if (!j.is_object()) {
    out.problem = JsonProblem{"", "expected an object, got " + type_text(j)};
    return out;
  }
  const Scenario& scenario = *expect.scenario;
  const auto got = j.find("scenario");
  if (got == j.end()) {
    out.problem = JsonProblem{"/scenario", "missing"};
    return out;
  }
  if (expect.max_seeds > 0 ? without_seeds(*got) != without_seeds(scenario.resolved)
                           : *got != scenario.resolved)
    throw InputError(
        path, "/scenario",
        "this finished point was run with a different scenario; rerun without --resume");
  if ((out.problem = check_inputs(j, scenario, path))) return out;
  const auto point = j.find("point");
  if (point == j.end() || !point->is_number_integer() || *point != Json(expect.index)) {
    out.problem = JsonProblem{"/point", "expected " + std::to_string(expect.index)};
    return out;
  }
  const auto values = j.find("values");
  if (values == j.end() || *values != Json(expect.values)) {
    out.problem =
        JsonProblem{"/values", "expected the sweep's values " + Json(expect.values).dump()};
    return out;
  }
  if ((out.problem = check_point_runs(j, scenario, expect.max_seeds))) return out;
  out.record = point_record_from_json(j);
  return out;
}

RecordRead read_point_record(const std::string& path, const RecordExpect& expect) {
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  if (ec || !std::filesystem::exists(st)) return {};
  RecordRead out;
  if (!std::filesystem::is_regular_file(st)) {  // never read a FIFO or device: it may not end
    out.problem = JsonProblem{"", "not a regular file"};
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.problem = JsonProblem{"", "cannot be read"};
    return out;
  }
  std::ostringstream s;
  s << in.rdbuf();
  return check_point_record(s.str(), path, expect);
}

}  // namespace goodput
