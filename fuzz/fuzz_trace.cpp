// libFuzzer harness: one trace reader (compiled once per format, GOODPUT_FUZZ_TRACE_FORMAT is
// its name: "csv", "json", "infinitehbd-json", "lanl-csv", "iso-events-csv", "slurm-events",
// "k8s-events-json"; the operator-log formats map hosts by scenarios/traces/example-hosts.csv and
// the pattern (?:gpu-node-|n|h)0*([0-9]+), as their examples and seeds name them). The input is
// written as a trace file,
// read and paired the way a trace scenario does it (components gpu/.. leaf with index < 2^20
// exist). Besides "InputError or success", what is read must be ordered, finite and non-negative,
// and every paired fault must start at a time >= 0 and end no earlier than it starts; merged,
// one component's faults must not overlap.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "models/trace/trace.hpp"

using namespace goodput;

namespace {

std::optional<std::uint32_t> resolve(const std::string& name) {
  const auto ref = trace::parse_component(name);
  if (!ref || ref->index >= (1u << 20)) return std::nullopt;
  const std::uint32_t kind = ref->kind == "gpu"      ? 0
                             : ref->kind == "node"   ? 1
                             : ref->kind == "domain" ? 2
                             : ref->kind == "rack"   ? 3
                                                     : 4;
  return (kind << 20) | ref->index;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const trace::TraceFormat& kFormat =
      trace::parse_format(GOODPUT_FUZZ_TRACE_FORMAT, "fuzz", "/failures/trace/format");
  static const std::string path = fuzz::scratch_dir() + "/trace";
  fuzz::write_file(path, data, size);
  trace::ReadOptions options;
  if (kFormat.takes_system) options.lanl_system = 3;
  if (kFormat.takes_hosts) {
    options.hosts_file = GOODPUT_SOURCE_DIR "/scenarios/traces/example-hosts.csv";
    options.host_pattern = "(?:gpu-node-|n|h)0*([0-9]+)";
  }
  trace::Trace tr;
  if (!fuzz::input_errors_only("read_trace",
                               [&] { tr = trace::read_trace(path, kFormat, options); }))
    return 0;
  for (std::size_t i = 0; i < tr.events.size(); ++i) {
    const auto& ev = tr.events[i];
    if (!std::isfinite(ev.time_hours) || ev.time_hours < 0)
      fuzz::fail("event time " + std::to_string(ev.time_hours));
    if (i > 0 && ev.time_hours < tr.events[i - 1].time_hours)
      fuzz::fail("events out of order at " + ev.locator);
    if (ev.locator.empty()) fuzz::fail("an event without a locator");
  }
  if (!tr.events.empty() && tr.span_hours != tr.events.back().time_hours)
    fuzz::fail("span is not the last time");
  std::vector<trace::Fault> faults;
  if (!fuzz::input_errors_only("pair_faults", [&] { faults = trace::pair_faults(tr, resolve); }))
    return 0;
  for (const auto& f : faults) {
    if (f.start < 0) fuzz::fail("a fault starts at " + std::to_string(f.start) + " ms");
    if (f.end < f.start) fuzz::fail("a fault ends before it starts");
  }
  // Merged: in start order, one component's faults apart from each other, records conserved.
  const std::size_t records = faults.size();
  const std::size_t merged = trace::merge_overlapping(faults);
  if (faults.size() + merged != records) fuzz::fail("merge_overlapping lost count of records");
  std::map<std::uint32_t, Time> last_end;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    if (i > 0 && faults[i].start < faults[i - 1].start) fuzz::fail("merged faults out of order");
    const auto it = last_end.find(faults[i].component);
    if (it != last_end.end() && faults[i].start <= it->second)
      fuzz::fail("merged faults of one component still overlap");
    last_end[faults[i].component] = faults[i].end;
  }
  return 0;
}
