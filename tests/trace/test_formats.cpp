// goodput's own CSV and JSON trace formats: parsing, pairing, and every bad-input class.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"
#include "tests/trace/support.hpp"

using namespace goodput;
using namespace goodput::trace;
using goodput::trace::test::data;
using goodput::trace::test::format;
using goodput::trace::test::resolver;

namespace {

// Runs `f`, requires an InputError, and checks its file and locator exactly.
template <typename F>
void check_input_error(F&& f, const std::string& file, const std::string& locator,
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

void check_read_error(const std::string& name, const TraceFormat& format,
                      const std::string& locator, const std::string& fragment) {
  check_input_error([&] { read_trace(data(name), format); }, data(name), locator, fragment);
}

void check_pair_error(const std::string& name, const TraceFormat& format,
                      const std::string& locator, const std::string& fragment) {
  const Trace trace = read_trace(data(name), format);
  check_input_error([&] { pair_faults(trace, resolver(4)); }, data(name), locator, fragment);
}

}  // namespace

TEST_CASE("format names: the registry, each name once, unknown names refused") {
  CHECK((parse_format("csv", "s.json", "/trace/format").read != nullptr));
  std::vector<std::string> names;
  for (const TraceFormat& f : trace_formats()) {
    CAPTURE(f.name);
    CHECK(&parse_format(std::string(f.name), "", "") == &f);
    CHECK((f.read != nullptr));
    CHECK_FALSE(f.doc.empty());
    // JSON formats name all three keys, CSV formats none.
    CHECK((f.time_key.empty() == f.component_key.empty()));
    CHECK((f.time_key.empty() == f.event_key.empty()));
    CHECK(std::count(names.begin(), names.end(), std::string(f.name)) == 0);
    names.emplace_back(f.name);
  }
  CHECK(names == format_names());
  CHECK(names == std::vector<std::string>{"csv", "json", "infinitehbd-json", "lanl-csv",
                                          "iso-events-csv", "slurm-events", "k8s-events-json"});
  CHECK(format("lanl-csv").takes_system);
  CHECK_FALSE(format("csv").takes_system);
  for (const char* name : {"iso-events-csv", "slurm-events", "k8s-events-json"})
    CHECK(format(name).takes_hosts);
  CHECK_FALSE(format("lanl-csv").takes_hosts);
  check_input_error([] { parse_format("xml", "s.json", "/trace/format"); }, "s.json",
                    "/trace/format",
                    "csv, json, infinitehbd-json, lanl-csv, iso-events-csv, slurm-events, "
                    "k8s-events-json");
}

TEST_CASE("component ids") {
  CHECK(parse_component("node/17")->kind == "node");
  CHECK(parse_component("node/17")->index == 17);
  CHECK(parse_component("leaf/0"));
  for (const char* bad : {"node", "node/", "node/-1", "node/+1", "node/1x", "switch/1", "Node/1",
                          "node/4294967296", "/1"}) {
    CHECK_MESSAGE(!parse_component(bad), bad);
  }
}

TEST_CASE("CSV and JSON examples give identical events and faults") {
  const std::string dir = GOODPUT_SCENARIOS_DIR "/traces/";
  const Trace csv = read_trace(dir + "example-trace.csv", format("csv"));
  const Trace json = read_trace(dir + "example-trace.json", format("json"));
  REQUIRE(csv.events.size() == 10);
  REQUIRE(json.events.size() == csv.events.size());
  for (std::size_t i = 0; i < csv.events.size(); ++i) {
    CHECK(csv.events[i].time_hours == json.events[i].time_hours);
    CHECK(csv.events[i].component == json.events[i].component);
    CHECK(csv.events[i].start == json.events[i].start);
    CHECK(csv.events[i].fault_class == json.events[i].fault_class);
  }
  CHECK(csv.events[2].fault_class == "Hardware, power supply");
  CHECK(csv.events[0].locator == "line 5");
  CHECK(json.events[0].locator == "/0");
  CHECK(csv.span_hours == 48);
  const auto faults = pair_faults(csv, resolver(16));
  REQUIRE(faults.size() == 5);
  CHECK(faults[0].start == from_hours(2.5));
  CHECK(faults[0].end == from_hours(4));
  CHECK(faults[0].component == 3);
  CHECK(faults[2].component == 12);  // ordered by start: node/1 at 10 h, then gpu/12 at 11.25 h
}

TEST_CASE("CSV quoting, CRLF, comments, column order and offset") {
  const Trace t = read_trace(data("quoting.csv"), format("csv"), {std::nullopt, 0.5});
  REQUIRE(t.events.size() == 3);
  CHECK(t.events[0].fault_class == "Hardware, PSU");
  CHECK(t.events[0].time_hours == 0);
  CHECK(t.events[0].component == "node/2");
  CHECK(t.events[0].locator == "line 3");
  CHECK(t.events[1].fault_class == "say \"hi\"");
  CHECK(t.events[1].time_hours == 9.5);
  CHECK(t.events[2].locator == "line 6");
  CHECK(!t.events[2].start);
  CHECK(t.span_hours == 11.5);
  check_input_error(
      [] {
        read_trace(data("quoting.csv"), format("csv"), {std::nullopt, 1});
      },
      data("quoting.csv"), "line 3", "after subtracting the offset");
  const auto fields = detail::split_csv_line(R"(a, "b,c" ,"", d )", "f", "line 1");
  CHECK(fields == std::vector<std::string>{"a", "b,c", "", "d"});
  check_input_error([] { detail::split_csv_line("a,\"b", "f", "line 9"); }, "f", "line 9",
                    "closing");
  check_input_error([] { detail::split_csv_line("a,\"b\"c", "f", "line 9"); }, "f", "line 9",
                    "after a quoted");
  check_input_error([] { detail::split_csv_line("a,b\"c", "f", "line 9"); }, "f", "line 9",
                    "quoted as a whole");
}

TEST_CASE("overlapping faults on one component nest") {
  const Trace t = read_trace(data("nested.csv"), format("csv"));
  const auto faults = pair_faults(t, resolver(4));
  REQUIRE(faults.size() == 3);
  CHECK(faults[0].fault_class == "GPU");
  CHECK(faults[0].end == from_hours(3));  // the GPU end closes the GPU fault
  CHECK(faults[1].fault_class == "NIC");
  CHECK(faults[1].end == from_hours(4));  // the class-less end closes the oldest open one
  CHECK(faults[2].component == 1);
  CHECK(faults[2].end == kTimeInfinity);  // never closed
}

TEST_CASE("bad CSV input names file and line") {
  check_read_error("bad-header.csv", format("csv"), "line 2", "found no column 'class'");
  check_read_error("unknown-column.csv", format("csv"), "line 1",
                   "unknown column, a field of 4 characters");
  check_read_error("nonnumeric-time.csv", format("csv"), "line 4", "found a field of 3 characters");
  check_read_error("negative-time.csv", format("csv"), "line 3", "found '-0.5'");
  check_read_error("unknown-event.csv", format("csv"), "line 3", "found a field of 11 characters");
  check_read_error("bad-component.csv", format("csv"), "line 3", "found a field of 8 characters");
  check_read_error("out-of-order.csv", format("csv"), "line 4", "4.5 h after 5 h (line 3)");
  check_read_error("missing.csv", format("csv"), "", "cannot open");
}

TEST_CASE("pairing errors name file and line") {
  check_pair_error("unknown-component.csv", format("csv"), "line 4", "unknown id 'node/7'");
  check_pair_error("end-without-start.csv", format("csv"), "line 3", "found no open fault");
  check_pair_error("end-wrong-class.csv", format("csv"), "line 3",
                   "found open faults only of class 'GPU'");
  // pair_faults re-checks times for traces built or edited in code.
  Trace t = read_trace(data("nested.csv"), format("csv"));
  t.events[0].time_hours = 2.5;
  check_input_error([&] { pair_faults(t, resolver(4)); }, data("nested.csv"), "line 5",
                    "non-decreasing time order, found 2 h after 2.5 h (line 4)");
  t.events[0].time_hours = -1;
  check_input_error([&] { pair_faults(t, resolver(4)); }, data("nested.csv"), "line 4", ">= 0");
}

TEST_CASE("bad JSON input names file and pointer") {
  check_read_error("bad-type.json", format("json"), "/2/time_hours",
                   "found a string of 1 character");
  check_read_error("unknown-key.json", format("json"), "/1/note", "unknown key 'note'");
  check_read_error("out-of-order.json", format("json"), "/2/time_hours", "4.5 h after 5 h (/1)");
  check_read_error("syntax-error.json", format("json"), "line 3", "not valid JSON");
  check_read_error("number-overflow.json", format("json"), "line 3", "beyond double range");
  check_read_error("number-overflow.json", format("infinitehbd-json"), "line 3",
                   "beyond double range");
  check_read_error("nested.csv", format("json"), "line 1", "not valid JSON");
  check_read_error("infinitehbd-small.json", format("json"), "/0/node_id", "unknown key");
  const std::string example = GOODPUT_SCENARIOS_DIR "/traces/example-trace.json";
  const Trace t = read_trace(example, format("json"));
  check_input_error([&] { pair_faults(t, resolver(4)); }, example, "/3/component",
                    "unknown id 'gpu/12'");
}
