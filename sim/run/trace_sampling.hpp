// What the seeds of a trace replay vary (/failures/trace/seeds_vary), so that several seeds are
// several different runs rather than one run repeated:
// - window: run r replays horizon_hours of the trace from an offset drawn uniformly in
//   [0, span - horizon] (span: the trace's last event) from the stream (seed, r, "trace-window");
//   faults in progress at the offset start at 0, faults that end before it or start after the
//   window are dropped. A trace no longer than the run has one window (offset 0).
// - placement: run r maps the trace's nodes onto the cluster's by a random permutation (stream
//   (seed, r, "trace-placement:node")); a GPU fault follows its node (same GPU within it); domain,
//   rack, leaf and row faults are permuted within their kind (own streams); a fleet fault stays.
// - both; none.
// When neither varies anything the replay is deterministic: every seed replays the same faults,
// and the report shows one run, no CI and no significance (report.hpp). With windows, the CIs
// are over the windows the seeds draw: a moving-block bootstrap of the trace whose block is the
// run; independent_windows = floor(span / horizon) says how many do not overlap.
#pragma once

#include <cstdint>
#include <string>

#include "models/failures/failure_spec.hpp"
#include "models/failures/fault.hpp"
#include "models/topology/topology.hpp"

namespace goodput {

struct TraceSampling {
  TraceSpec::SeedsVary vary = TraceSpec::SeedsVary::None;
  double span_hours = 0;         // the trace's last event
  double slack_hours = 0;        // span - horizon when windows vary, else 0
  bool window = false;           // offsets vary (a trace longer than the run, window or both)
  bool placement = false;        // node ids are permuted (placement or both, two nodes or more)
  long independent_windows = 1;  // floor(span / horizon), at least 1
  bool deterministic() const { return !window && !placement; }
};

TraceSampling trace_sampling(const TraceSpec& spec, double span_hours, double horizon_hours,
                             const Topology& topology);

// Run `run`'s window offset in hours: in [0, slack_hours]; 0 when windows do not vary.
double window_offset_hours(const TraceSampling& s, std::uint64_t seed, std::uint64_t run);

// Run `run`'s faults: `all` (the whole trace, sorted by start) through its window and placement.
FaultList sample_trace(const FaultList& all, const TraceSampling& s, const Topology& topology,
                       Time horizon, std::uint64_t seed, std::uint64_t run);

// For reports: one paragraph saying what the seeds vary, how the CIs are made, or that the replay
// is deterministic and why.
std::string trace_sampling_text(const TraceSampling& s, double horizon_hours);

}  // namespace goodput
