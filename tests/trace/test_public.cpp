// The public trace formats: StepFun InfiniteHBD JSON and LANL CSV, on small files here and on
// the real traces in shared/data/traces when present.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "tests/trace/support.hpp"

using namespace goodput;
using namespace goodput::trace;
using goodput::trace::test::data;
using goodput::trace::test::format;
using goodput::trace::test::resolver;

namespace {

const std::string kShared = std::string(GOODPUT_SHARED_DIR) + "/data/traces/";

// Node ids of the real traces resolve to their index (node/k -> k).
std::optional<std::uint32_t> any_node(const std::string& name) {
  const auto ref = parse_component(name);
  if (!ref || ref->kind != "node") return std::nullopt;
  return ref->index;
}

}  // namespace

TEST_CASE("InfiniteHBD: node ids numbered by first appearance, days to hours, Level/Class") {
  const Trace t = read_trace(data("infinitehbd-small.json"), format("infinitehbd-json"));
  REQUIRE(t.events.size() == 4);
  CHECK(t.events[0].component == "node/0");  // "bbbb" appears first
  CHECK(t.events[1].component == "node/1");
  CHECK(t.events[0].time_hours == 36);
  CHECK(t.events[0].fault_class == "Hardware Failure/GPU");
  CHECK(t.events[1].fault_class == "Other Failure/Unknown Error");
  CHECK(t.events[3].locator == "/3");
  CHECK(t.span_hours == 72);
  const auto faults = pair_faults(t, resolver(2));
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].end - faults[0].start == from_hours(18));
}

TEST_CASE("LANL: selection, dates, Down Time fallback, causes, nesting") {
  const std::string path = data("lanl-small.csv");
  const Trace t = read_trace(path, format("lanl-csv"), {3, 0});
  REQUIRE(t.events.size() == 8);
  CHECK(t.events[0].component == "node/0");
  CHECK(t.events[0].fault_class == "Network");
  CHECK(t.events[0].locator == "line 4");
  CHECK(t.events[1].time_hours == 1.5);  // "garbled" Prob Fixed: start + 90 min Down Time
  CHECK(t.span_hours == 26.75);          // 2004 is a leap year: 2/28 22:00 -> 3/1 0:45
  const auto faults = pair_faults(t, any_node);
  REQUIRE(faults.size() == 4);
  CHECK(faults[1].component == 1);
  CHECK(faults[1].fault_class == "Hardware");
  CHECK(faults[1].end - faults[1].start == from_hours(25));  // Prob Fixed wins over Down Time
  CHECK(faults[2].end - faults[2].start == from_hours(1));   // nested row keeps its own end
  CHECK(faults[3].fault_class == "Unspecified");

  const Trace y2k = read_trace(path, format("lanl-csv"), {5, 0});
  REQUIRE(y2k.events.size() == 2);
  CHECK(y2k.events[1].time_hours == doctest::Approx(2.0 / 60));
  CHECK(y2k.events[0].fault_class == "Facilities");
}

TEST_CASE("LANL errors") {
  const std::string path = data("lanl-small.csv");
  try {
    read_trace(path, format("lanl-csv"));
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.locator() == "");
    CHECK(std::string(e.what()).find("systems in this file: 3, 5, 9") != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(read_trace(path, format("lanl-csv"), {9, 0}),
                       doctest::Contains("line 7: expected 'Prob Fixed'"), InputError);
  CHECK_THROWS_WITH_AS(read_trace(path, format("lanl-csv"), {4, 0}),
                       doctest::Contains("expected records of System 4"), InputError);
  CHECK_THROWS_WITH_AS(read_trace(data("nested.csv"), format("csv"), {3, 0}),
                       doctest::Contains("only to format lanl-csv"), InputError);
}

TEST_CASE("real InfiniteHBD trace: 584 faults on 231 nodes over ~348 days") {
  const std::string path = kShared + "infinitehbd-fault-trace.json";
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: " << path << " not found");
    return;
  }
  const Trace t = read_trace(path, format("infinitehbd-json"));
  CHECK(t.events.size() == 1168);
  CHECK(t.span_hours > 300 * 24);
  CHECK(t.span_hours < 400 * 24);
  const auto faults = pair_faults(t, any_node);
  CHECK(faults.size() == 584);
  std::set<std::uint32_t> nodes;
  std::size_t closed = 0;
  for (const Fault& f : faults) {
    nodes.insert(f.component);
    closed += f.end != kTimeInfinity && f.end >= f.start;
  }
  CHECK(closed == faults.size());
  CHECK(nodes.size() == 231);
  CHECK(*nodes.rbegin() == 230);
}

TEST_CASE("real LANL trace: system 20 gives one fault per row") {
  const std::string path = kShared + "lanl-failure-data-1996-2005.csv";
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: " << path << " not found");
    return;
  }
  // Count rows per system independently: the first field of each line.
  std::map<int, std::size_t> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) ++rows[std::stoi(line.substr(0, line.find(',')))];
  REQUIRE(rows.size() == 23);

  const Trace t = read_trace(path, format("lanl-csv"), {20, 0});
  const auto faults = pair_faults(t, any_node);
  CHECK(faults.size() == rows[20]);
  CHECK(faults.size() == 2478);
  std::size_t closed = 0;
  for (const Fault& f : faults) closed += f.end != kTimeInfinity && f.end >= f.start;
  CHECK(closed == faults.size());

  // Per-system summary (the table in models/trace/README.md).
  for (const auto& [system, count] : rows) {
    try {
      const Trace s = read_trace(path, format("lanl-csv"), {system, 0});
      std::set<std::string> nodes;
      for (const TraceEvent& ev : s.events) nodes.insert(ev.component);
      CHECK(s.events.size() == 2 * count);
      MESSAGE("LANL system " << system << ": " << count << " records, " << nodes.size()
                             << " failing nodes, " << s.span_hours / 24 << " days");
    } catch (const InputError& e) {
      MESSAGE("LANL system " << system << ": " << count
                             << " records, not importable: " << std::string(e.what()));
      CHECK(system == 17);  // records no node numbers
    }
  }
}
