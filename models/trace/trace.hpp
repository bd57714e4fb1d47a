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
#include <string>
#include <vector>

#include "sim/core/enum_names.hpp"
#include "sim/engine/time.hpp"

namespace goodput::trace {

enum class Format { GoodputCsv, GoodputJson, InfiniteHbdJson, LanlCsv };

// The format names, spelled once (the scenario's /failures/trace/format offers these).
inline constexpr EnumName<Format> kFormatNames[] = {{Format::GoodputCsv, "csv"},
                                                    {Format::GoodputJson, "json"},
                                                    {Format::InfiniteHbdJson, "infinitehbd-json"},
                                                    {Format::LanlCsv, "lanl-csv"}};

// A name of kFormatNames; anything else throws InputError(file, pointer) listing the valid names.
Format parse_format(const std::string& name, const std::string& file, const std::string& pointer);
std::string format_name(Format format);

struct ReadOptions {
  std::optional<int> lanl_system;  // LanlCsv only (required there, an error elsewhere)
  double time_offset_hours = 0;    // subtracted from every event time after conversion
};

struct TraceEvent {
  double time_hours = 0;    // hours since trace start (after conversion and offset), >= 0
  std::string component;    // "<kind>/<index>", kind in gpu|node|domain|rack|leaf
  bool start = true;        // true = fault_start, false = fault_end
  std::string fault_class;  // free-text label, e.g. "GPU", "Hardware Failure/GPU", "Hardware"
  std::string locator;      // "line N" or JSON pointer of the record ("/17")
};

struct Trace {
  std::string path;
  Format format = Format::GoodputCsv;
  std::vector<TraceEvent> events;  // non-decreasing time_hours
  double span_hours = 0;           // time of the last event (0 when empty)
};

Trace read_trace(const std::string& path, Format format, const ReadOptions& options = {});

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
