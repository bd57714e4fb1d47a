// Trace replay input: read a failure trace (goodput CSV/JSON, StepFun InfiniteHBD JSON, LANL
// CSV, operator logs: ISO-timestamped events, Slurm node events, Kubernetes node events) into
// time-ordered fault_start / fault_end events, then pair them per component into Faults. Every
// input problem throws goodput::InputError naming the file and the record
// ("line 12" for CSV, a JSON pointer such as "/17/time_hours" for JSON). Faults on one
// component may overlap (they nest): a fault_end closes the fault of its own record, else the
// oldest open one of its class, else (empty class) the oldest open one; merge_overlapping then
// makes them one fault per stretch of downtime. A trace is parsed once per process
// (read_trace_shared). See README.md here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/time.hpp"

namespace goodput::trace {

struct ReadOptions {
  std::optional<int> lanl_system;  // formats that take a system number (lanl-csv) only
  double time_offset_hours = 0;    // subtracted from every event time after conversion
  // Formats of operator logs (TraceFormat::takes_hosts) only: how host names become components
  // (hosts.hpp: a "host,component" map file, a pattern whose one capture group is a node index
  // plus host_index_offset; at least one of the two), the zone of timestamps that carry none
  // (clock.hpp: "Z", "+02:00"; empty: UTC) and the instant hours count from (an ISO 8601
  // timestamp; empty: the earliest event).
  std::string hosts_file{};
  std::string host_pattern{};
  std::int64_t host_index_offset = 0;
  std::string time_zone{};
  std::string start{};
};

struct TraceEvent {
  double time_hours = 0;    // hours since trace start (after conversion and offset), >= 0
  std::string component;    // "<kind>/<index>", kind in gpu|node|domain|rack|leaf|row|fleet
  bool start = true;        // true = fault_start, false = fault_end
  std::string fault_class;  // free-text label, e.g. "GPU", "Hardware Failure/GPU", "Hardware"
  std::string locator;      // "line N" or JSON pointer of the record ("/17")
};

// One trace file format: its name in /failures/trace/format, its reader, and where its
// records keep their fields. A format is one file that defines `TraceFormat
// trace_format_<id>()` and is listed in models/trace/CMakeLists.txt (README.md: "Adding a
// format"); nothing else names it.
struct TraceFormat {
  std::string_view name{};  // the scenario's /failures/trace/format value
  std::string_view doc{};   // one line for `goodput describe`
  // JSON formats: the record's keys for the time, the component and the event, so errors point
  // at "/17/time_hours"; CSV formats leave them empty and point at the record's "line N".
  std::string_view time_key{}, component_key{}, event_key{};
  bool takes_system = false;  // reads ReadOptions::lanl_system (refused for other formats)
  bool takes_hosts = false;   // names hosts at clock times: reads the host and time options
  // Events with times in hours as converted, before the offset; InputError on bad input.
  std::vector<TraceEvent> (*read)(const std::string& path, const std::string& text,
                                  const ReadOptions& options) = nullptr;
};

// The registered formats, in the order of GOODPUT_TRACE_FORMATS (generated).
std::span<const TraceFormat> trace_formats();
std::vector<std::string> format_names();
// The format of that name; anything else throws InputError(file, pointer) listing the names.
const TraceFormat& parse_format(const std::string& name, const std::string& file,
                                const std::string& pointer);

struct Trace {
  std::string path;
  const TraceFormat* format = nullptr;
  std::vector<TraceEvent> events;  // non-decreasing time_hours
  double span_hours = 0;           // time of the last event (0 when empty)
};

// Reads a regular file of at most kMaxInputFileBytes (sim/core/input_file.hpp) that is UTF-8
// throughout (else InputError naming the line), then parses it with the format's reader.
Trace read_trace(const std::string& path, const TraceFormat& format,
                 const ReadOptions& options = {});
// read_trace, once per process: a later call for the same file (same path as given, and the
// same device, inode, size and modification time) with the same format and options returns the
// same parse. Thread-safe: concurrent callers of one file wait for a single parse; a failed
// parse is not kept (the next call reads again). The most recently used traces are kept.
std::shared_ptr<const Trace> read_trace_shared(const std::string& path, const TraceFormat& format,
                                               const ReadOptions& options = {});
// How many files read_trace has parsed in this process (tests observe the cache with it).
std::uint64_t trace_parses();

// A parsed component id; valid kinds are those of component_kind.hpp (gpu ... fleet).
struct ComponentRef {
  std::string kind;
  std::uint32_t index = 0;
};
std::optional<ComponentRef> parse_component(const std::string& name);

struct Fault {
  Time start = 0;
  Time end = kTimeInfinity;  // kTimeInfinity when the trace never closes the fault
  std::uint32_t component = 0;
  std::string fault_class;
};

// Pairs starts with ends per component; faults come out in order of their fault_start events.
// resolve maps a component id to the simulator's index, std::nullopt for ids not in the
// cluster. Throws InputError (trace.path, event locator) for unknown ids, negative or
// decreasing times, and a fault_end with no matching open fault on that component.
std::vector<Fault> pair_faults(
    const Trace& trace,
    const std::function<std::optional<std::uint32_t>(const std::string&)>& resolve);

// Collapses the faults of each component whose down intervals overlap, nest or touch (logs
// repeat an error while a node is down) into one fault over their union, so a component is
// down once for each stretch of downtime. "Same component" is the same resolved id, i.e. the
// same kind and index ("gpu/7" and "gpu/007" are one; "node/1" and the GPUs in it are not).
// The merged fault keeps the class of its earliest record, unless that class is restart-only
// (per `restart_only`, may be empty) and a later record's is not: then the earliest such
// record's (the hardware is out). Faults stay in order of start (ties: their order before).
// Returns how many records were merged into an earlier one (faults.size() shrinks by that).
std::size_t merge_overlapping(std::vector<Fault>& faults,
                              const std::function<bool(const std::string&)>& restart_only = {});

}  // namespace goodput::trace
