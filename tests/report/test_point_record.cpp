// Point records are verified before they are trusted: a tampered record (strategies renamed,
// missing or extra, runs of the wrong length or null, metrics out of range, not finite or of
// the wrong type, seeds or the point index wrong) is named with its first bad field and its
// point runs again, giving the report of an untampered resume; a trace or calibration profile
// edited since the point was run stops the resume (InputError naming the record and the file).
#include <doctest/doctest.h>

#include <functional>
#include <map>

#include "sim/core/error.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/sweep/point_record.hpp"
#include "support.hpp"

using namespace goodput;
using namespace goodput::test;

namespace {

namespace fs = std::filesystem;

const char* const kAxis = "/cluster/spare_domains=0,1";
const char* const kFiles[] = {"sweep.json", "points.csv", "report.md", "point-000/report.json",
                              "point-001/runs.csv"};

void check_same(const std::string& a, const std::string& b) {
  for (const char* f : kFiles) {
    INFO(f);
    const std::string x = slurp(fs::path(a) / f);
    CHECK(!x.empty());
    CHECK(x == slurp(fs::path(b) / f));
  }
}

// The sweep's records folder (OutputDir's, without emptying it).
fs::path records_of(const std::string& dir) {
  OutputDir out(dir, "--out");
  return out.records(true);
}

// The one record file in `records`.
fs::path only_record(const fs::path& records) {
  fs::path found;
  int n = 0;
  for (const auto& e : fs::directory_iterator(records))
    if (e.path().extension() == ".json") found = e.path(), ++n;
  REQUIRE(n == 1);
  return found;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

struct Tamper {
  const char* what;
  std::function<std::string(Json)> edit;  // the record's JSON -> the tampered file
  std::string pointer;                    // of the first bad field ("" the whole file)
};

std::string dump(const Json& j) {
  return j.dump();
}

// Replaces the first `"goodput":<number>` of the record's text with `"goodput":<text>`.
std::string goodput_as(const Json& j, const std::string& text) {
  std::string s = j.dump();
  const std::string key = "\"goodput\":";
  const auto at = s.find(key) + key.size();
  const auto end = s.find_first_of(",}", at);
  return s.substr(0, at) + text + s.substr(end);
}

}  // namespace

TEST_CASE("tampered point records are named, not trusted, and their point runs again") {
  const std::string whole = scratch("rec-whole"), cut = scratch("rec-cut");
  SweepOptions opt;
  opt.threads = 2;
  REQUIRE(sweep_small(whole, kAxis, opt).complete);
  opt.stop_after = 1;  // as if killed after one point
  REQUIRE(!sweep_small(cut, kAxis, opt).complete);
  const fs::path record = only_record(records_of(cut));
  const std::string original = slurp(record);
  const Json j = Json::parse(original);
  const std::string p = "/runs/0/runs/2";
  const std::vector<Tamper> cases = {
      {"strategy renamed",
       [](Json r) {
         r["runs"][1]["strategy"] = "dp_dorp";
         return dump(r);
       },
       "/runs/1/strategy"},
      {"strategy missing",
       [](Json r) {
         r["runs"].erase(2);
         return dump(r);
       },
       "/runs"},
      {"strategy extra",
       [](Json r) {
         const Json copy = r["runs"][0];
         r["runs"].push_back(copy);
         return dump(r);
       },
       "/runs/3"},
      {"strategies swapped",
       [](Json r) {
         std::swap(r["runs"][0], r["runs"][1]);
         return dump(r);
       },
       "/runs/0/strategy"},
      {"runs null",
       [](Json r) {
         r["runs"][0]["runs"] = nullptr;
         return dump(r);
       },
       "/runs/0/runs"},
      {"runs too short",
       [](Json r) {
         r["runs"][0]["runs"].erase(0);
         return dump(r);
       },
       "/runs/0/runs"},
      {"runs too long",
       [](Json r) {
         const Json copy = r["runs"][2]["runs"][0];
         r["runs"][2]["runs"].push_back(copy);
         return dump(r);
       },
       "/runs/2/runs"},
      {"goodput 5.0",
       [&](Json r) {
         r["runs"][0]["runs"][2]["goodput"] = 5.0;
         return dump(r);
       },
       p + "/goodput"},
      {"goodput negative",
       [&](Json r) {
         r["runs"][0]["runs"][2]["goodput"] = -0.5;
         return dump(r);
       },
       p + "/goodput"},
      {"goodput a string",
       [&](Json r) {
         r["runs"][0]["runs"][2]["goodput"] = "0.9";
         return dump(r);
       },
       p + "/goodput"},
      {"goodput NaN", [](Json r) { return goodput_as(r, "NaN"); }, ""},
      {"goodput Infinity", [](Json r) { return goodput_as(r, "Infinity"); }, ""},
      {"goodput 1e999", [](Json r) { return goodput_as(r, "1e999"); }, ""},
      {"metric missing",
       [&](Json r) {
         r["runs"][0]["runs"][2].erase("ettr");
         return dump(r);
       },
       p + "/ettr"},
      {"count negative",
       [&](Json r) {
         r["runs"][0]["runs"][2]["events"] = -3;
         return dump(r);
       },
       p + "/events"},
      {"count fractional",
       [&](Json r) {
         r["runs"][0]["runs"][2]["interruptions"] = 1.5;
         return dump(r);
       },
       p + "/interruptions"},
      {"count beyond int64",
       [&](Json r) {
         r["runs"][0]["runs"][2]["failures"] = 18446744073709551615ull;
         return dump(r);
       },
       p + "/failures"},
      {"badput bucket missing",
       [&](Json r) {
         r["runs"][0]["runs"][2]["badput"].erase(0);
         return dump(r);
       },
       p + "/badput"},
      {"badput bucket above 1",
       [&](Json r) {
         r["runs"][0]["runs"][2]["badput"][1] = 2.0;
         return dump(r);
       },
       p + "/badput/1"},
      {"seeds -5",
       [](Json r) {
         r["seeds"] = -5;
         return dump(r);
       },
       "/seeds"},
      {"seeds other than the scenario's",
       [](Json r) {
         r["seeds"] = 5;
         return dump(r);
       },
       "/seeds"},
      {"point index wrong",
       [](Json r) {
         r["point"] = r["point"].get<int>() + 7;
         return dump(r);
       },
       "/point"},
      {"values wrong",
       [](Json r) {
         r["values"] = {"9"};
         return dump(r);
       },
       "/values"},
      {"pilot malformed",
       [](Json r) {
         r["pilot"]["rollbacks"] = "many";
         return dump(r);
       },
       "/pilot/rollbacks"},
      {"pilot runs negative",
       [](Json r) {
         r["pilot"]["runs"] = -1;
         return dump(r);
       },
       "/pilot/runs"},
      {"pilot rollbacks of another strategy count",
       [](Json r) {
         r["pilot"]["rollbacks"].push_back(3);
         return dump(r);
       },
       "/pilot/rollbacks"},
      {"no hashes (an older record)",
       [](Json r) {
         r.erase("inputs");
         return dump(r);
       },
       "/inputs"},
      {"not an object", [](Json) { return std::string("[1, 2]"); }, ""},
      {"truncated", [&](Json) { return original.substr(0, original.size() / 2); }, ""},
  };
  for (const Tamper& t : cases) {
    INFO(t.what);
    const fs::path records = records_of(cut);
    write(records / record.filename(), t.edit(j));
    std::vector<std::string> notes;
    SweepOptions again = opt;
    again.stop_after = -1;
    again.resume = true;
    again.note = [&](const std::string& line) { notes.push_back(line); };
    const SweepOutcome r = sweep_small(cut, kAxis, again);
    CHECK(r.complete);
    CHECK(r.resumed == 0);
    CHECK(r.computed == 2);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find(record.filename().string()) != std::string::npos);
    const std::string where = t.pointer.empty() ? ".json: " : ".json: " + t.pointer + ": ";
    CHECK(notes[0].find(where) != std::string::npos);
    check_same(whole, cut);
  }
  // The untampered record is trusted: one point resumed, the same files.
  write(records_of(cut) / record.filename(), original);
  std::vector<std::string> notes;
  SweepOptions again = opt;
  again.stop_after = -1;
  again.resume = true;
  again.note = [&](const std::string& line) { notes.push_back(line); };
  const SweepOutcome r = sweep_small(cut, kAxis, again);
  CHECK(r.resumed == 1);
  CHECK(r.computed == 1);
  CHECK(notes.empty());
  check_same(whole, cut);
}

TEST_CASE("a record's checks name the first bad field, and what they accept rebuilds its point") {
  const Scenario sc = small_at({"/cluster/spare_domains=1"});
  SweepPoint pt = run_point(sc, 2, {});
  pt.values = {"1"};
  const std::string dir = scratch("rec-check");
  fs::create_directories(dir);
  const std::string path = dir + "/point-004.json";
  write_point_record(pt, 4, path);
  RecordExpect expect;
  expect.scenario = &sc;
  expect.index = 4;
  expect.values = {"1"};
  RecordRead read = read_point_record(path, expect);
  INFO((read.problem ? read.problem->pointer + ": " + read.problem->why : std::string()));
  REQUIRE(read.record);
  CHECK(!read.problem);
  CHECK(read.record->seeds == 6);
  const SweepPoint back = point_from_record(sc, std::move(*read.record));
  CHECK(runs_to_json(back.report.runs) == runs_to_json(pt.report.runs));
  CHECK(back.plan.pilot.rollbacks == pt.plan.pilot.rollbacks);
  // Absent: neither trusted nor a problem.
  read = read_point_record(dir + "/point-005.json", expect);
  CHECK(!read.record);
  CHECK(!read.problem);
  // Not a regular file (a FIFO would never end): not read, not trusted.
  fs::create_directory(dir + "/point-006.json");
  read = read_point_record(dir + "/point-006.json", expect);
  CHECK(!read.record);
  REQUIRE(read.problem);
  CHECK(read.problem->why == "not a regular file");
  // --seeds auto: any seeds in [1, max_seeds].
  Json j = Json::parse(slurp(path));
  j["seeds"] = 2;
  for (auto& sr : j["runs"]) sr["runs"].erase(sr["runs"].begin() + 2, sr["runs"].end());
  j["scenario"]["seeds"] = 2;
  expect.max_seeds = 3;
  read = check_point_record(j.dump(), path, expect);
  CHECK(read.record);
  expect.max_seeds = 1;
  read = check_point_record(j.dump(), path, expect);
  REQUIRE(read.problem);
  CHECK(read.problem->pointer == "/seeds");
  // Another scenario: refused, naming the record.
  const Scenario other = small_at({"/cluster/spare_domains=1", "/horizon_hours=100"});
  expect.scenario = &other;
  expect.max_seeds = 0;
  try {
    read_point_record(path, expect);
    FAIL("a record of another scenario was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("point-004.json: /scenario:") != std::string::npos);
  }
}

TEST_CASE(
    "a trace edited since a point was run stops the resume, naming the record and the trace") {
  const std::string dir = scratch("rec-trace"), data = dir + "-data";
  fs::remove_all(data);
  fs::create_directories(data + "/traces");
  const fs::path shipped =
      fs::path(GOODPUT_REPORT_TEST_DATA).parent_path().parent_path().parent_path() / "scenarios";
  fs::copy_file(shipped / "trace-example.json", data + "/trace.json");
  fs::copy_file(shipped / "traces/example-trace.csv", data + "/traces/example-trace.csv");
  Sweep sweep;
  sweep.scenario_file = data + "/trace.json";
  sweep.axes = {parse_axis("/job/step_s=5,6")};
  const auto combos = axis_product(sweep.axes);
  auto load = [&] {
    std::vector<Scenario> scenarios;
    for (const auto& v : combos)
      scenarios.push_back(load_scenario(sweep.scenario_file, {"/job/step_s=" + v[0]}));
    return scenarios;
  };
  SweepOptions opt;
  opt.stop_after = 1;
  REQUIRE(!run_sweep(sweep, load(), combos, opt, dir).complete);
  const fs::path record = only_record(records_of(dir));
  CHECK(Json::parse(slurp(record))["inputs"][0]["pointer"] == "/failures/trace/path");
  // The same trace: resumes.
  opt.stop_after = -1;
  opt.resume = true;
  {
    // (a copy of the state, so the edit below still has a record to meet)
    const std::string saved = slurp(record);
    const SweepOutcome r = run_sweep(sweep, load(), combos, opt, dir);
    CHECK(r.resumed == 1);
    write(records_of(dir) / record.filename(), saved);
  }
  // One fault moved by an hour: the record is refused.
  std::string trace = slurp(data + "/traces/example-trace.csv");
  trace.replace(trace.find("\n10,node/1"), 4, "\n11,");
  write(data + "/traces/example-trace.csv", trace);
  try {
    run_sweep(sweep, load(), combos, opt, dir);
    FAIL("a record of an edited trace was trusted");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find(record.filename().string() + ": /inputs/0/sha256: ") != std::string::npos);
    CHECK(what.find("example-trace.csv (/failures/trace/path) changed since this point was run; "
                    "rerun without --resume") != std::string::npos);
  }
}

TEST_CASE("every run metric field declares a range its fresh values lie in") {
  const Scenario sc = small_at({"/cluster/spare_domains=1"});
  const SweepPoint pt = run_point(sc, 2, {});
  for (const auto& f : run_metric_fields()) {
    INFO(f.name);
    CHECK(f.min <= f.max);
  }
  for (const auto& sr : pt.report.runs)
    for (const auto& m : sr.runs)
      CHECK(!check_run_metrics(run_metrics_to_json(m), "", sc.failed_gpu_thresholds.size()));
  Json m = run_metrics_to_json(pt.report.runs[0].runs[0]);
  m["goodput"] = 1 + 1e-12;  // rounding: accepted
  CHECK(!check_run_metrics(m, "", sc.failed_gpu_thresholds.size()));
  m["goodput"] = 1.001;
  const auto bad = check_run_metrics(m, "/x", sc.failed_gpu_thresholds.size());
  REQUIRE(bad);
  CHECK(bad->pointer == "/x/goodput");
  CHECK(bad->why == "1.001 outside the declared range [0, 1]");
}

TEST_CASE("a calibration profile edited since a point was run stops the resume too") {
  const std::string dir = scratch("rec-profile"), data = dir + "-data";
  fs::remove_all(data);
  fs::create_directories(data);
  const fs::path root =
      fs::path(GOODPUT_REPORT_TEST_DATA).parent_path().parent_path().parent_path();
  const std::string profile = data + "/profile.json";
  fs::copy_file(root / "calibrate/profiles/b200-analytical.json", profile);
  const std::vector<std::string> sets = {"/cost/profile=" + profile};
  SweepOptions opt;
  opt.stop_after = 1;
  REQUIRE(!sweep_small(dir, kAxis, opt, sets).complete);
  const fs::path record = only_record(records_of(dir));
  const Json inputs = Json::parse(slurp(record))["inputs"];
  REQUIRE(inputs.size() == 1);
  CHECK(inputs[0]["pointer"] == "/cost/profile");
  CHECK(inputs[0]["sha256"].get<std::string>().size() == 64);
  write(profile, slurp(profile) + "\n");  // one byte more: another hash
  opt.stop_after = -1;
  opt.resume = true;
  try {
    sweep_small(dir, kAxis, opt, sets);
    FAIL("a record of an edited profile was trusted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("profile.json (/cost/profile) changed since this point was "
                                     "run; rerun without --resume") != std::string::npos);
  }
}
