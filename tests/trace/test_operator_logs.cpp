// Operator logs (issue 29 item 4): ISO timestamps and zones, host maps and patterns, the three
// formats that name hosts (iso-events-csv, slurm-events, k8s-events-json), their line- or
// pointer-numbered errors, and the round trip of each shipped example through goodput's CSV.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/trace/clock.hpp"
#include "models/trace/export_csv.hpp"
#include "models/trace/hosts.hpp"
#include "sim/core/error.hpp"
#include "tests/trace/support.hpp"

using namespace goodput;
using namespace goodput::trace;
using goodput::trace::test::data;
using goodput::trace::test::format;
using goodput::trace::test::resolver;

namespace {

namespace fs = std::filesystem;

std::string write(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("goodput-operator-logs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

ReadOptions pattern(const std::string& re, std::int64_t offset = -1) {
  ReadOptions o;
  o.host_pattern = re;
  o.host_index_offset = offset;
  return o;
}

// Requires an InputError at exactly `file` and `locator` whose message holds `fragment`.
template <typename F>
void check_error(F&& f, const std::string& file, const std::string& locator,
                 const std::string& fragment) {
  try {
    f();
    FAIL("expected InputError at " << file << ": " << locator);
  } catch (const InputError& e) {
    CHECK(e.file() == file);
    CHECK(e.locator() == locator);
    CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
  }
}

// Any syntactically valid id resolves (a cluster large enough for every example).
std::optional<std::uint32_t> any_component(const std::string& name) {
  const auto ref = parse_component(name);
  if (!ref) return std::nullopt;
  const std::uint32_t kind = ref->kind == "gpu" ? 0 : ref->kind == "node" ? 1 : 2;
  return (kind << 24) | ref->index;
}

std::vector<Fault> merged(const Trace& t) {
  std::vector<Fault> f = pair_faults(t, any_component);
  merge_overlapping(f);
  return f;
}

}  // namespace

TEST_CASE("ISO 8601 times: zones, the epoch, calendar days") {
  CHECK(parse_iso_time("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_iso_time("1970-01-01T00:00:01.5Z") == 1500);
  CHECK(parse_iso_time("1970-01-01 00:00:00.123456Z") == 123);  // beyond ms dropped
  // The same instant in three zones, and without a zone at the default offset.
  const auto utc = parse_iso_time("2026-03-01T02:12:09Z");
  REQUIRE(utc);
  CHECK(parse_iso_time("2026-03-01T04:12:09+02:00") == utc);
  CHECK(parse_iso_time("2026-02-28T21:12:09-0500") == utc);
  CHECK(parse_iso_time("2026-03-01T07:42:09+05:30") == utc);
  CHECK(parse_iso_time("2026-03-01T04:12:09", 120) == utc);
  CHECK(parse_iso_time("2026-03-01T04:12:09") == *utc + 2 * 3'600'000);
  // Days: 2024 is a leap year, 2026 is not.
  CHECK(*parse_iso_time("2024-03-01T00:00Z") - *parse_iso_time("2024-02-28T00:00Z") ==
        2 * 86'400'000);
  CHECK(*parse_iso_time("2026-03-01T00:00Z") - *parse_iso_time("2026-02-28T00:00Z") == 86'400'000);
  for (const char* bad :
       {"2026-02-29T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T12:60Z", "2026-03-01T12:00:60Z",
        "2026-03-01", "2026-3-1T00:00Z", "2026-03-01T00:00:00+19:00", "2026-03-01T00:00:00 Z",
        "2026-03-01T00:00:00.Z", "26-03-01T00:00Z", ""}) {
    CHECK_MESSAGE(!parse_iso_time(bad), bad);
  }
  CHECK(parse_utc_offset("Z") == 0);
  CHECK(parse_utc_offset("+02:00") == 120);
  CHECK(parse_utc_offset("-0530") == -330);
  CHECK(parse_utc_offset("+02") == 120);
  CHECK_FALSE(parse_utc_offset("CET"));
  CHECK_FALSE(parse_utc_offset("+2:00"));
}

TEST_CASE("host map files and host patterns") {
  HostMap both(data("hosts-small.csv"), "gpu-node-0*([0-9]+)", -1, "w");
  CHECK(both.component("h1") == "node/0");
  CHECK(both.component("h2") == "gpu/9");
  CHECK(both.component("h 3") == "rack/1");
  CHECK(both.component("gpu-node-017") == "node/16");
  CHECK(both.component("gpu-node-000") == std::nullopt);  // index -1
  CHECK(both.component("gpu-node-17x") == std::nullopt);  // the whole name must match
  CHECK(both.component("h4") == std::nullopt);
  CHECK(HostMap("", "r([0-9]+)", 100, "w").component("r7") == "node/107");
  CHECK(host_pattern_problem("n([0-9]+)") == std::nullopt);
  CHECK(host_pattern_problem("n[0-9]+")->find("exactly one capture group") != std::string::npos);
  CHECK(host_pattern_problem("(n)([0-9]+)")->find("found 2") != std::string::npos);
  CHECK(host_pattern_problem("n([0-9]+"));
  check_error([] { HostMap("", "n(", 0, "flag"); }, "flag", "", "host pattern");
  const std::string twice =
      write("twice.csv", "host,component\na,node/1\n# c\nb,node/2\na,node/3\n");
  check_error([&] { HostMap(twice, "", 0, "w"); }, twice, "line 5", "the host of line 2 again");
  const std::string bad = write("bad.csv", "a,node/1\nb,switch/2\n");
  check_error([&] { HostMap(bad, "", 0, "w"); }, bad, "line 2", "component id");
  const std::string wide = write("wide.csv", "a,node/1,x\n");
  check_error([&] { HostMap(wide, "", 0, "w"); }, wide, "line 1", "expected 2 fields");
}

TEST_CASE("iso-events-csv: zones, extra columns, class-less ends, hours from the earliest") {
  const Trace t =
      read_trace(data("iso-events-small.csv"), format("iso-events-csv"), pattern("h([0-9]+)"));
  REQUIRE(t.events.size() == 5);
  // 02:00+02:00 is 00:00Z (the earliest); 19:30-05:00 the day before is 00:30Z.
  CHECK(t.events[0].time_hours == 0);
  CHECK(t.events[0].locator == "line 3");
  CHECK(t.events[1].time_hours == 0.5);
  CHECK(t.events[1].component == "node/1");
  CHECK(t.events[1].fault_class == "NIC, port 2");
  CHECK(t.events[2].time_hours == 1.5);
  CHECK_FALSE(t.events[2].start);
  CHECK(t.events[3].locator == "line 7");
  CHECK(t.events[4].time_hours == 4);  // no zone: UTC by default
  CHECK(t.events[4].component == "node/2");
  const auto faults = pair_faults(t, resolver(4));
  REQUIRE(faults.size() == 3);
  CHECK(faults[0].end == from_hours(1.5));
  CHECK(faults[1].end == from_hours(3));
  CHECK(faults[2].end == kTimeInfinity);
  // A zone for zone-less lines, a declared start.
  ReadOptions o = pattern("h([0-9]+)");
  o.time_zone = "+01:00";
  o.start = "2026-02-28T23:00:00Z";
  const Trace z = read_trace(data("iso-events-small.csv"), format("iso-events-csv"), o);
  CHECK(z.events[0].time_hours == 1);
  CHECK(z.events.back().time_hours == 4);      // 04:00+01:00 is 03:00Z
  CHECK(z.events.back().locator == "line 8");  // after line 7's 03:00Z: stable
  o.start = "2026-03-01T00:10:00Z";
  check_error([&] { read_trace(data("iso-events-small.csv"), format("iso-events-csv"), o); },
              data("iso-events-small.csv"), "line 3", "not before the declared start");
}

TEST_CASE("iso-events-csv: the same instant written in two zones is one time") {
  const std::string a = write("zones-a.csv",
                              "timestamp,host,event,class\n"
                              "2026-03-01T00:00:00Z,h1,start,X\n"
                              "2026-03-01T04:12:09+02:00,h2,start,Y\n");
  const std::string b = write("zones-b.csv",
                              "timestamp,host,event,class\n"
                              "2026-03-01T00:00:00Z,h1,start,X\n"
                              "2026-03-01T02:12:09Z,h2,start,Y\n");
  const Trace ta = read_trace(a, format("iso-events-csv"), pattern("h([0-9]+)"));
  const Trace tb = read_trace(b, format("iso-events-csv"), pattern("h([0-9]+)"));
  REQUIRE(ta.events.size() == 2);
  CHECK(ta.events[1].time_hours == tb.events[1].time_hours);
  CHECK(ta.events[1].time_hours == doctest::Approx(2 + 12.0 / 60 + 9.0 / 3600).epsilon(1e-12));
}

TEST_CASE("iso-events-csv: bad rows and unknown hosts name their line") {
  const ReadOptions o = pattern("h([0-9]+)");
  const auto check = [&](const std::string& body, const std::string& locator,
                         const std::string& fragment) {
    const std::string p = write("bad-iso.csv", "# c\ntimestamp,host,event,class\n" + body);
    check_error([&] { read_trace(p, format("iso-events-csv"), o); }, p, locator, fragment);
  };
  check("2026-03-01T00:00Z,h1,start,X\n2026-03-01T25:00Z,h1,end,X\n", "line 4",
        "expected the timestamp as an ISO 8601 time");
  check("2026-03-01T00:00Z,h1,begin,X\n", "line 3", "expected event start or end");
  check("2026-03-01T00:00Z,h1,start\n", "line 3", "expected 4 fields");
  check("2026-03-01T00:00Z,h1,start,X\n\n2026-03-01T01:00Z,gpu7,start,X\n", "line 5",
        "unknown host");
  check("2026-03-01T00:00Z,,start,X\n", "line 3", "expected a host name");
  const std::string header = write("bad-iso-header.csv", "timestamp,host,event\n");
  check_error([&] { read_trace(header, format("iso-events-csv"), o); }, header, "line 1",
              "found no column 'class'");
  // Hosts need a map or a pattern; other formats take neither.
  check_error([] { read_trace(data("iso-events-small.csv"), format("iso-events-csv")); },
              data("iso-events-small.csv"), "", "found neither");
  check_error([&] { read_trace(data("nested.csv"), format("csv"), o); }, data("nested.csv"), "",
              "apply only to formats iso-events-csv, slurm-events, k8s-events-json");
  // An end no start opened is refused when paired, at its line.
  const std::string lone =
      write("lone.csv", "timestamp,host,event,class\n2026-03-01T00:00Z,h1,end,X\n");
  const Trace t = read_trace(lone, format("iso-events-csv"), o);
  check_error([&] { pair_faults(t, resolver(4)); }, lone, "line 2", "no open fault");
}

TEST_CASE("iso-events-csv: overlapping records on one host are found and merged") {
  const std::string p = write("overlap.csv",
                              "timestamp,host,event,class\n"
                              "2026-03-01T00:00Z,h1,start,PSU\n"
                              "2026-03-01T01:00Z,h1,start,NIC\n"
                              "2026-03-01T01:30Z,h1,end,NIC\n"
                              "2026-03-01T01:00Z,h2,start,GPU\n"
                              "2026-03-01T03:00Z,h1,end,PSU\n"
                              "2026-03-01T05:00Z,h2,end,GPU\n");
  const Trace t = read_trace(p, format("iso-events-csv"), pattern("h([0-9]+)"));
  const auto overlaps = overlapping_records(t);
  REQUIRE(overlaps.size() == 1);
  CHECK(overlaps[0].component == "node/0");
  CHECK(overlaps[0].open_locator == "line 2");
  CHECK(overlaps[0].start_locator == "line 3");
  std::vector<Fault> f = pair_faults(t, resolver(4));
  CHECK(f.size() == 3);
  CHECK(merge_overlapping(f) == 1);
  REQUIRE(f.size() == 2);
  CHECK(f[0].start == 0);
  CHECK(f[0].end == from_hours(3));
  CHECK(f[0].fault_class == "PSU");
}

TEST_CASE("slurm-events: fault states, open rows, reasons, rows paired by themselves") {
  const Trace t =
      read_trace(data("slurm-small.txt"), format("slurm-events"), pattern("n0*([0-9]+)"));
  // Rows 3, 4, 5 give a start and an end, row 7 a start (TimeEnd Unknown); the cluster row 2
  // and the RESERVED row 6 are not faults. Hours count from row 3's 01:00.
  REQUIRE(t.events.size() == 7);
  CHECK(t.events[0].locator == "line 3");
  CHECK(t.events[0].fault_class == "NHC: xid 79");  // " [root@...]" dropped
  CHECK(t.events[1].locator == "line 4");
  CHECK(t.events[1].fault_class == "Not responding");
  CHECK(t.events[2].locator == "line 5");
  CHECK(t.events[2].fault_class == "DOWN");  // no reason: the state
  CHECK(t.events[2].time_hours == 1);
  CHECK(t.events[3].time_hours == 1.25);
  CHECK(t.events[6].component == "node/2");
  CHECK(t.events[6].time_hours == 5);
  const auto faults = pair_faults(t, resolver(4));
  REQUIRE(faults.size() == 4);
  CHECK(faults[0].end == from_hours(2.5));  // row 3's own end, though row 5 nests in it
  CHECK(faults[2].end == from_hours(1.25));
  CHECK(faults[3].end == kTimeInfinity);
  const auto overlaps = overlapping_records(t);
  REQUIRE(overlaps.size() == 1);
  CHECK(overlaps[0].start_locator == "line 5");
  const auto check = [&](const std::string& row, const std::string& fragment) {
    const std::string p =
        write("bad-slurm.txt", "NodeName|TimeStart|TimeEnd|State|Reason\n" + row + "\n");
    check_error([&] { read_trace(p, format("slurm-events"), pattern("n0*([0-9]+)")); }, p, "line 2",
                fragment);
  };
  check("n001|2026-03-01T01:00:00|2026-03-01T00:00:00|DOWN|x", "TimeEnd not before TimeStart");
  check("n001|2026-03-01T01:00:00|Unknown|DOWN+|x", "expected a Slurm node State");
  check("n001|2026-03-01T01:00:00|Unknown|12.5|x", "expected a Slurm node State");
  check("n001|yesterday|Unknown|DOWN|x", "expected TimeStart");
  check("n001|2026-03-01T01:00:00|soon|DOWN|x", "expected TimeEnd");
  check("x001|2026-03-01T01:00:00|Unknown|DOWN|x", "unknown host");
  check("n001|2026-03-01T01:00:00|Unknown|DOWN", "expected 5 '|'-separated fields");
}

TEST_CASE("k8s-events-json: NotReady/Ready as a state machine, pointers in errors") {
  const Trace t =
      read_trace(data("k8s-small.json"), format("k8s-events-json"), pattern("n0*([0-9]+)"));
  // Sorted by time: /4 (Ready, already Ready), /1 NotReady, /3 (repeat), /0 Ready, /5 NotReady
  // (04:00+01:00 = 03:00Z, after /0 at the same instant).
  REQUIRE(t.events.size() == 3);
  CHECK(t.events[0].locator == "/items/1");
  CHECK(t.events[0].time_hours == 0);
  CHECK(t.events[1].locator == "/items/0");
  CHECK_FALSE(t.events[1].start);
  CHECK(t.events[1].time_hours == 2);
  CHECK(t.events[2].locator == "/items/5");
  CHECK(t.events[2].component == "node/1");
  const auto faults = pair_faults(t, resolver(4));
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].end == from_hours(2));
  CHECK(faults[1].end == kTimeInfinity);
  const auto check = [&](const std::string& items, const std::string& locator,
                         const std::string& fragment) {
    const std::string p = write("bad-k8s.json", "{\"items\": [" + items + "]}");
    check_error([&] { read_trace(p, format("k8s-events-json"), pattern("n0*([0-9]+)")); }, p,
                locator, fragment);
  };
  const std::string ok = R"({"reason": "NodeNotReady", "lastTimestamp": "2026-03-01T00:00:00Z", )"
                         R"("involvedObject": {"kind": "Node", "name": "n001"}})";
  check(ok + R"(, {"reason": "NodeReady", "lastTimestamp": "2026-03-01T25:00:00Z", )"
             R"("involvedObject": {"kind": "Node", "name": "n001"}})",
        "/items/1/lastTimestamp", "expected lastTimestamp as an ISO 8601 time");
  check(ok + R"(, {"reason": "NodeReady", "lastTimestamp": "2026-03-01T01:00:00Z", )"
             R"("involvedObject": {"kind": "Node", "name": "gpu7"}})",
        "/items/1/involvedObject/name", "unknown host");
  check(R"({"reason": "NodeReady", "involvedObject": {"kind": "Node", "name": "n001"}})",
        "/items/0", "lastTimestamp, eventTime or firstTimestamp");
  check(R"({"reason": "NodeReady"})", "/items/0", "involvedObject");
  check(R"(3)", "/items/0", "expected an Event object");
  check(R"({"reason": 7, "involvedObject": {"kind": "Node", "name": "n001"}})", "/items/0/reason",
        "expected a string");
}

TEST_CASE("each shipped operator-log example round-trips through goodput CSV") {
  const std::string dir = GOODPUT_SCENARIOS_DIR "/traces/";
  ReadOptions map;
  map.hosts_file = dir + "example-hosts.csv";
  struct Case {
    const char* file;
    const char* format;
    ReadOptions options;
  };
  for (const Case& c :
       {Case{"example-iso-events.csv", "iso-events-csv", map},
        Case{"example-slurm-events.txt", "slurm-events", pattern("gpu-node-0*([0-9]+)")},
        Case{"example-k8s-events.json", "k8s-events-json", pattern("gpu-node-0*([0-9]+)")}}) {
    CAPTURE(c.file);
    const Trace log = read_trace(dir + c.file, format(c.format), c.options);
    CHECK(log.events.size() >= 20);  // a few dozen lines of log
    const std::string csv = write(std::string(c.file) + ".csv", to_goodput_csv(log, {"test"}));
    const Trace back = read_trace(csv, format("csv"));
    REQUIRE(back.events.size() == log.events.size());
    for (std::size_t i = 0; i < log.events.size(); ++i) {
      CHECK(back.events[i].time_hours == log.events[i].time_hours);
      CHECK(back.events[i].component == log.events[i].component);
      CHECK(back.events[i].start == log.events[i].start);
      CHECK(back.events[i].fault_class == log.events[i].fault_class);
    }
    CHECK(back.events.front().locator == "line 3");  // after the comment and the header
    const auto a = merged(log);
    const auto b = merged(back);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i].start == b[i].start);
      CHECK(a[i].end == b[i].end);
      CHECK(a[i].component == b[i].component);
      CHECK(a[i].fault_class == b[i].fault_class);
    }
    // Every host of a 64-node cluster: node/0 .. node/63.
    for (const TraceEvent& e : log.events) {
      const auto ref = parse_component(e.component);
      REQUIRE(ref);
      CHECK(ref->kind == "node");
      CHECK(ref->index < 64);
    }
  }
}
