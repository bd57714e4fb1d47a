// Trace replay input: read a failure trace (goodput CSV/JSON, StepFun InfiniteHBD JSON, LANL
// CSV) into time-ordered fault_start / fault_end events, then pair them per component into
// Faults. Every input problem throws goodput::InputError naming the file and the record
// ("line 12" for CSV, a JSON pointer such as "/17/time_hours" for JSON). Faults on one
// component may overlap (they nest): a fault_end closes the fault of its own record, else the
// oldest open one of its class, else (empty class) the oldest open one. See README.md here.
#pragma once

#include <cstdint>
#include <functional>
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
};

struct TraceEvent {
  double time_hours = 0;    // hours since trace start (after conversion and offset), >= 0
  std::string component;    // "<kind>/<index>", kind in gpu|node|domain|rack|leaf
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

Trace read_trace(const std::string& path, const TraceFormat& format,
                 const ReadOptions& options = {});

// A parsed component id; valid kinds are gpu, node, domain, rack, leaf.
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

}  // namespace goodput::trace
