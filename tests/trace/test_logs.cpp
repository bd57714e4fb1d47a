// Traces as logs really are: records repeated or nested while a component is down collapse into
// one fault; input text must be UTF-8 and come from a regular file; a trace is parsed once per
// process (read_trace_shared).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "tests/trace/support.hpp"

using namespace goodput;
using namespace goodput::trace;
using goodput::trace::test::format;
using goodput::trace::test::resolver;

namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("goodput-trace-logs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = scratch(name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// Three faults on two GPUs and a node, none overlapping another of its component.
const char* kOnce =
    "time_hours,component,event,class\n"
    "1,gpu/1,fault_start,GPU\n"
    "2,gpu/1,fault_end,GPU\n"
    "3,node/2,fault_start,Software\n"
    "3.5,gpu/1,fault_start,GPU\n"
    "4,node/2,fault_end,Software\n"
    "6,gpu/1,fault_end,GPU\n";

// Each line of kOnce after the header listed `times` times.
std::string repeated(int times) {
  std::string out = "time_hours,component,event,class\n";
  std::string text = kOnce;
  text = text.substr(text.find('\n') + 1);
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos) + 1;
    for (int k = 0; k < times; ++k) out += text.substr(pos, end - pos);
    pos = end;
  }
  return out;
}

std::vector<Fault> merged_faults(const std::string& path, std::size_t* merged = nullptr,
                                 const std::function<bool(const std::string&)>& restart = {}) {
  const Trace tr = read_trace(path, format("csv"));
  std::vector<Fault> faults = pair_faults(tr, resolver(8));
  const std::size_t m = merge_overlapping(faults, restart);
  if (merged) *merged = m;
  return faults;
}

void check_same(const std::vector<Fault>& a, const std::vector<Fault>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].start == b[i].start);
    CHECK(a[i].end == b[i].end);
    CHECK(a[i].component == b[i].component);
    CHECK(a[i].fault_class == b[i].fault_class);
  }
}

template <typename F>
InputError input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError("", "", "");
}

}  // namespace

TEST_CASE("duplicate records: each fault listed 5 times gives the faults of one listing") {
  std::size_t merged_once = 99, merged_five = 0;
  const auto once = merged_faults(write("once.csv", kOnce), &merged_once);
  const auto five = merged_faults(write("five.csv", repeated(5)), &merged_five);
  CHECK(merged_once == 0);
  CHECK(once.size() == 3);
  CHECK(merged_five == 3 * 4);
  check_same(five, once);
}

TEST_CASE("nested and touching records of one component become their union") {
  const std::string path = write("nested.csv",
                                 "time_hours,component,event,class\n"
                                 "1,gpu/1,fault_start,GPU\n"
                                 "1.5,gpu/1,fault_start,XID 79\n"  // nested
                                 "1.6,gpu/1,fault_end,XID 79\n"
                                 "1.8,gpu/1,fault_start,XID 48\n"  // overlaps the end
                                 "2,gpu/1,fault_end,GPU\n"
                                 "2.5,gpu/1,fault_end,XID 48\n"
                                 "2.5,gpu/1,fault_start,GPU\n"  // touches
                                 "3,gpu/1,fault_end,GPU\n"
                                 "3,gpu/2,fault_start,GPU\n"  // another GPU: its own fault
                                 "4,gpu/2,fault_end,GPU\n"
                                 "4,node/1,fault_start,GPU\n"  // node/1 is not gpu/1
                                 "5,node/1,fault_end,GPU\n");
  std::size_t merged = 0;
  const auto faults = merged_faults(path, &merged);
  CHECK(merged == 3);
  REQUIRE(faults.size() == 3);
  CHECK(faults[0].start == from_hours(1));
  CHECK(faults[0].end == from_hours(3));
  CHECK(faults[0].fault_class == "GPU");
  CHECK(faults[1].start == from_hours(3));
  CHECK(faults[2].start == from_hours(4));
}

TEST_CASE("merge: the same component is the same kind and index, whatever the spelling") {
  std::vector<Fault> faults{{0, 100, 7, "a"}, {50, 80, 7, "b"}, {60, 200, 8, "c"}};
  CHECK(merge_overlapping(faults) == 1);
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].end == 100);
  CHECK(faults[1].component == 8);
  // "gpu/007" and "gpu/7" resolve to one id, so their records merge.
  const std::string path = write("spelling.csv",
                                 "time_hours,component,event,class\n"
                                 "1,gpu/7,fault_start,GPU\n"
                                 "1,gpu/007,fault_start,GPU\n"
                                 "2,gpu/7,fault_end,GPU\n"
                                 "2,gpu/007,fault_end,GPU\n");
  std::size_t merged = 0;
  CHECK(merged_faults(path, &merged).size() == 1);
  CHECK(merged == 1);
}

TEST_CASE("merge: a restart-only record does not hide the hardware fault it overlaps") {
  const auto restart = [](const std::string& c) { return c == "Software"; };
  std::vector<Fault> faults{{0, 100, 1, "Software"},
                            {10, 300, 1, "GPU"},
                            {20, 30, 1, "Other"},
                            {kTimeInfinity - 5, kTimeInfinity, 1, "GPU"}};
  CHECK(merge_overlapping(faults, restart) == 2);
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].start == 0);
  CHECK(faults[0].end == 300);
  CHECK(faults[0].fault_class == "GPU");
  // Without restart-only classes the earliest record's class stays.
  std::vector<Fault> plain{{0, 100, 1, "Software"}, {10, 300, 1, "GPU"}};
  merge_overlapping(plain);
  CHECK(plain.front().fault_class == "Software");
}

TEST_CASE("invalid UTF-8 in a trace is refused with the file and line, in every format") {
  const std::string csv = write("latin1.csv",
                                "time_hours,component,event,class\n"
                                "1,gpu/1,fault_start,GPU\n"
                                "2,gpu/1,fault_end,Ger\xe4t\n");
  const InputError e = input_error([&] { read_trace(csv, format("csv")); });
  CHECK(e.file() == csv);
  CHECK(e.locator() == "line 3");
  CHECK(std::string(e.what()).find("0xE4 at column 22") != std::string::npos);

  const std::string json = write("latin1.json",
                                 "[{\"time_hours\": 1, \"component\": \"gpu/1\",\n"
                                 "  \"event\": \"fault_start\", \"class\": \"\xff\"}]\n");
  const InputError j = input_error([&] { read_trace(json, format("json")); });
  CHECK(j.file() == json);
  CHECK(j.locator() == "line 2");

  const std::string lanl = write("latin1-lanl.csv", "System,nodenum\n20,\xc0\xaf\n");
  TraceFormat lanl_format = format("lanl-csv");
  ReadOptions options;
  options.lanl_system = 20;
  const InputError l = input_error([&] { read_trace(lanl, lanl_format, options); });
  CHECK(l.locator() == "line 2");
}

TEST_CASE("UTF-8 check: well-formed sequences pass, the rest are found at their byte") {
  CHECK_FALSE(invalid_utf8_at("plain ASCII, \xc3\xa9t\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80"));
  CHECK(invalid_utf8_at("ab\xff") == 2u);
  CHECK(invalid_utf8_at("\xc0\x80") == 0u);          // overlong
  CHECK(invalid_utf8_at("x\xed\xa0\x80") == 1u);     // a surrogate
  CHECK(invalid_utf8_at("\xf4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(invalid_utf8_at("\xe2\x82") == 0u);          // cut short
  const InputError e = input_error([] { check_utf8("a\nbc\x80\n", "f.csv"); });
  CHECK(std::string(e.what()) ==
        "f.csv: line 2: expected UTF-8 text, found the byte 0x80 at column 3");
}

TEST_CASE("only regular files are read: /dev/zero and a FIFO are refused at once") {
  const auto t0 = std::chrono::steady_clock::now();
  if (fs::exists("/dev/zero")) {
    const InputError e = input_error([] { read_trace("/dev/zero", format("csv")); });
    CHECK(e.file() == "/dev/zero");
    CHECK(std::string(e.what()).find("regular file, found a character device") !=
          std::string::npos);
  }
  const fs::path fifo = scratch("fifo");
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const InputError f = input_error([&] { read_trace(fifo.string(), format("csv")); });
  CHECK(std::string(f.what()).find("a FIFO") != std::string::npos);
  const InputError d = input_error([&] { read_trace(scratch("").string(), format("csv")); });
  CHECK(std::string(d.what()).find("a folder") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
}

TEST_CASE("a file above the size limit is refused before it is read") {
  const std::string path = write("big.csv", std::string(1000, 'x'));
  const InputError e = input_error([&] { (void)read_input_file(path, "the trace file", 999); });
  CHECK(e.file() == path);
  CHECK(std::string(e.what()).find("at most") != std::string::npos);
  CHECK(read_input_file(path, "the trace file", 1000).size() == 1000);
}

TEST_CASE("read_trace_shared parses a file once, again when it changes, safely across threads") {
  const std::string path = write("shared.csv", kOnce);
  const std::uint64_t before = trace_parses();
  std::vector<std::shared_ptr<const Trace>> got(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = read_trace_shared(path, format("csv")); });
  for (auto& t : threads) t.join();
  CHECK(trace_parses() == before + 1);
  for (const auto& g : got) CHECK(g.get() == got[0].get());
  CHECK(got[0]->events.size() == 6);
  // Other options: another parse.
  ReadOptions shifted;
  shifted.time_offset_hours = 0.5;
  CHECK(read_trace_shared(path, format("csv"), shifted)->events.front().time_hours == 0.5);
  CHECK(trace_parses() == before + 2);
  // A changed file: read again.
  write("shared.csv", repeated(2));
  CHECK(read_trace_shared(path, format("csv"))->events.size() == 12);
  CHECK(trace_parses() == before + 3);
  CHECK(read_trace_shared(path, format("csv"))->events.size() == 12);
  CHECK(trace_parses() == before + 3);
}
