// A finished sweep point (or goal-seek value) on disk: its index and axis values, resolved
// scenario, the content hashes of the files the scenario names (trace, calibration profile),
// seeds used, checkpoint pilot and every run's metrics, lossless (doubles round-trip through
// JSON), so a resumed sweep rebuilds the same report bytes as an uninterrupted one. Written to
// a temporary name, then renamed. A record is trusted only once every field checks out against
// the point it claims to be (read_point_record); anything else is run again or refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/sweep/sweep_report.hpp"

namespace goodput {

// Every run's metrics of a point, lossless, and back (also the MPI layer's wire format).
// runs_from_json expects what check_point_runs accepted.
Json runs_to_json(const std::vector<StrategyRuns>& runs);
std::vector<StrategyRuns> runs_from_json(const Json& j);

// The plan's checkpoint pilot (RunPlan::Pilot), and back (nullopt: absent or malformed, so the
// pilot runs again): carried by point records and the MPI replies.
Json pilot_to_json(const RunPlan::Pilot& pilot);
std::optional<RunPlan::Pilot> pilot_from_json(const Json& j);

// A file the scenario names, by the pointer naming it: /failures/trace/path, /cost/profile.
struct ScenarioInput {
  std::string pointer, path;
};
std::vector<ScenarioInput> scenario_inputs(const Scenario& scenario);
// The SHA-256 (content_hash.hpp) of `path`, hashed once per process while its size and
// modification time stay the same. Thread-safe. Throws InputError when it cannot be read.
std::string input_sha256(const std::string& path);

// A trusted record: what rebuilds its point.
struct PointRecord {
  int seeds = 0;
  std::optional<RunPlan::Pilot> pilot;
  std::vector<StrategyRuns> runs;
};

// The part of a record the MPI replies share: /seeds, /pilot and /runs of `j`, against the
// point's scenario: seeds a positive integer equal to the scenario's (with `max_seeds` > 0,
// --seeds auto: any in [1, max_seeds]); the pilot an object with an integer run count >= 1 and
// one rollback count >= 0 per strategy; runs one entry per strategy of the scenario, same names
// in the same order, each with one run per seed whose metrics pass check_run_metrics. nullopt:
// all good, and point_record_from_json(j) cannot throw.
std::optional<JsonProblem> check_point_runs(const Json& j, const Scenario& scenario, int max_seeds);
PointRecord point_record_from_json(const Json& j);
// The point a trusted record (or MPI reply) stands for: the scenario's plan with the record's
// pilot (not run again), its seeds and its runs, exactly as run_point computed it.
SweepPoint point_from_record(const Scenario& scenario, PointRecord record);

void write_point_record(const SweepPoint& point, long index, const std::string& path);

// What a point's record must match to be trusted.
struct RecordExpect {
  const Scenario* scenario = nullptr;  // the point's: resolved JSON, strategies, seeds, files
  long index = 0;                      // the record's /point
  std::vector<std::string> values;     // the record's /values (the sweep's axis values)
  int max_seeds = 0;  // > 0 (--seeds auto): /seeds in [1, max_seeds]; /scenario/seeds not compared
};

// A record read back: trusted (`record`), absent (neither), or not trusted (`problem`: the
// first bad field's pointer and why; run the point again).
struct RecordRead {
  std::optional<PointRecord> record;
  std::optional<JsonProblem> problem;
};
// Checks in this order: a regular file (a FIFO or device is never read); valid JSON object;
// /scenario equal to the expected one (else throws InputError naming the record: it belongs to
// another scenario); /inputs: for each file the scenario names, its hash (a different hash throws
// InputError naming the record and the file: it changed since the point was run); /point, /values,
// then check_point_runs.
RecordRead read_point_record(const std::string& path, const RecordExpect& expect);
RecordRead check_point_record(std::string_view bytes, const std::string& path,
                              const RecordExpect& expect);

}  // namespace goodput
