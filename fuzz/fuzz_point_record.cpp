// libFuzzer harness: the sweep point record reader (sim/sweep/point_record.cpp) the way a
// resumed sweep and goal seek use it: check_point_record against the point the record claims to
// be, then point_from_record. The seeds are real records of tests/report/data/small-stat.json
// (two seeds, 20 hours) at /cluster/spare_domains = 0 (point 0, --seeds fixed) and, with Daly
// checkpoints (a checkpoint pilot), 1 (point 1, checked as --seeds auto with at most 4 seeds),
// and a few tampered ones. Only InputError may escape (a record of
// another scenario); what is accepted must be what a run produces: the scenario's strategies
// in order, one run per seed, every metric finite and within its declared range, array
// metrics of their lengths; and its point must rebuild.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "models/scenario/scenario_loader.hpp"
#include "sim/sweep/point_record.hpp"

using namespace goodput;

namespace {

constexpr double kSlack = 1e-9;  // as check_run_metrics: rounding

const Scenario& scenario_at(int spare_domains) {
  static const Scenario s[2] = {
      load_scenario(fuzz::source_dir() + "/tests/report/data/small-stat.json",
                    {"/seeds=2", "/horizon_hours=20", "/cluster/spare_domains=0"}),
      load_scenario(fuzz::source_dir() + "/tests/report/data/small-stat.json",
                    {"/seeds=2", "/horizon_hours=20", "/checkpoint/interval=daly",
                     "/cluster/spare_domains=1"})};
  return s[spare_domains];
}

void check_number(const RunMetricField& f, double x, const std::string& where) {
  if (!std::isfinite(x) || x < f.min - kSlack || x > f.max + kSlack)
    fuzz::fail("accepted record: " + where + " = " + Json(x).dump() + " outside [" +
               Json(f.min).dump() + ", " + Json(f.max).dump() + "]");
  if (f.integer && std::floor(x) != x) fuzz::fail("accepted record: " + where + " not integral");
}

// What an accepted record holds, checked without the reader's own checks.
void check_accepted(const PointRecord& r, const Scenario& s, int max_seeds) {
  if (r.seeds < 1 || (max_seeds > 0 ? r.seeds > max_seeds : r.seeds != s.seeds))
    fuzz::fail("accepted record: seeds " + std::to_string(r.seeds));
  if (r.runs.size() != s.strategies.size())
    fuzz::fail("accepted record: " + std::to_string(r.runs.size()) + " strategies");
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const StrategyRuns& sr = r.runs[i];
    if (sr.strategy != s.strategies[i].name)
      fuzz::fail("accepted record: strategy " + std::to_string(i) + " is not " +
                 s.strategies[i].name);
    if (sr.runs.size() != static_cast<std::size_t>(r.seeds))
      fuzz::fail("accepted record: " + sr.strategy + " has " + std::to_string(sr.runs.size()) +
                 " runs for " + std::to_string(r.seeds) + " seeds");
    for (const RunMetrics& m : sr.runs) {
      const Json j = run_metrics_to_json(m);
      for (const RunMetricField& f : run_metric_fields()) {
        const std::string where = sr.strategy + " " + f.name;
        if (f.scalar) {
          check_number(f, f.scalar(m), where);
          continue;
        }
        const Json& v = j.at(f.name);
        const std::size_t want =
            f.length > 0 ? static_cast<std::size_t>(f.length) : s.failed_gpu_thresholds.size();
        if (v.size() != want && !(f.length == 0 && v.empty()))
          fuzz::fail("accepted record: " + where + " has " + std::to_string(v.size()) +
                     " elements");
        for (const Json& x : v) check_number(f, x.get<double>(), where);
      }
    }
  }
  if (!r.pilot || r.pilot->runs < 0 ||
      r.pilot->rollbacks.size() != (r.pilot->runs == 0 ? 0 : s.strategies.size()))
    fuzz::fail("accepted record: a malformed checkpoint pilot");
  for (const auto n : r.pilot->rollbacks)
    if (n < 0) fuzz::fail("accepted record: a negative pilot rollback count");
}

void try_point(std::string_view bytes, int p, int max_seeds) {
  const Scenario& s = scenario_at(p);
  RecordExpect expect;
  expect.scenario = &s;
  expect.index = p;
  expect.values = {std::to_string(p)};
  expect.max_seeds = max_seeds;
  RecordRead read;
  if (!fuzz::input_errors_only("check_point_record", [&] {
        read = check_point_record(bytes, "fuzz-record.json", expect);
      }))
    return;
  if (read.record && read.problem) fuzz::fail("a record both trusted and not");
  if (!read.record) {
    if (!read.problem) fuzz::fail("a record present but neither trusted nor refused");
    if (fuzz::verbose()) fuzz::note(read.problem->pointer + ": " + read.problem->why);
    return;
  }
  check_accepted(*read.record, s, max_seeds);
  fuzz::input_errors_only("point_from_record", [&] {
    const SweepPoint pt = point_from_record(s, std::move(*read.record));
    if (pt.report.strategies.size() != s.strategies.size())
      fuzz::fail("a rebuilt point lost strategies");
    for (const auto& st : pt.report.strategies)
      if (!std::isfinite(st.goodput.mean) || !std::isfinite(st.goodput.ci95))
        fuzz::fail("a rebuilt point's Goodput is not finite");
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try_point(bytes, 0, 0);
  try_point(bytes, 1, 4);
  return 0;
}
