#include "sim/run/trace_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "models/failures/failure_generator.hpp"
#include "sim/engine/random.hpp"

namespace goodput {

TraceSampling trace_sampling(const TraceSpec& spec, double span_hours, double horizon_hours,
                             const Topology& topology) {
  using V = TraceSpec::SeedsVary;
  TraceSampling s;
  s.vary = spec.seeds_vary;
  s.span_hours = span_hours;
  s.window = (s.vary == V::Window || s.vary == V::Both) && span_hours > horizon_hours;
  s.slack_hours = s.window ? span_hours - horizon_hours : 0;
  s.placement =
      (s.vary == V::Placement || s.vary == V::Both) && topology.count(ComponentKind::Node) >= 2;
  // Capped before the cast: a tiny horizon over a long trace gives a ratio no long holds.
  const double windows = horizon_hours > 0 ? std::floor(span_hours / horizon_hours) : 1;
  s.independent_windows = windows >= 1 ? static_cast<long>(std::min(windows, 1e15)) : 1;
  return s;
}

double window_offset_hours(const TraceSampling& s, std::uint64_t seed, std::uint64_t run) {
  if (!s.window) return 0;
  RandomStream rng(seed, run, stream_id("trace-window"));
  return std::min(s.slack_hours, rng.uniform() * s.slack_hours);
}

namespace {

// A uniformly random permutation of [0, n) (Fisher-Yates).
std::vector<std::uint32_t> permutation(std::uint32_t n, RandomStream& rng) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  for (std::uint32_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[static_cast<std::uint32_t>(rng.below(i))]);
  return p;
}

// Maps a component to where this run places it: nodes (and the GPUs in them) by one
// permutation, every other kind but the fleet by its own.
class Placement {
 public:
  Placement(const Topology& t, std::uint64_t seed, std::uint64_t run) : t_(t) {
    for (int k = 1; k < kComponentKinds; ++k) {
      const auto kind = static_cast<ComponentKind>(k);
      RandomStream rng(seed, run,
                       stream_id(std::string("trace-placement:") + component_kind_name(kind)));
      perm_[k] = permutation(t.count(kind), rng);
    }
  }
  std::uint32_t operator()(std::uint32_t component) const {
    const ComponentKind kind = t_.kind(component);
    const std::uint32_t i = t_.index(component);
    if (kind == ComponentKind::Gpu) {
      const auto gpn = static_cast<std::uint32_t>(t_.shape().gpus_per_node);
      return t_.id(kind, perm_[1][i / gpn] * gpn + i % gpn);
    }
    return t_.id(kind, perm_[static_cast<int>(kind)][i]);
  }

 private:
  const Topology& t_;
  std::vector<std::uint32_t> perm_[kComponentKinds];
};

}  // namespace

FaultList sample_trace(const FaultList& all, const TraceSampling& s, const Topology& topology,
                       Time horizon, std::uint64_t seed, std::uint64_t run) {
  if (s.deterministic()) return all;
  FaultList out;
  out.classes = all.classes;
  out.faults.reserve(all.faults.size());
  const Time offset = from_hours(window_offset_hours(s, seed, run));
  for (const Fault& f : all.faults) {
    if (f.end != kTimeInfinity && f.end <= offset) continue;  // over before the window
    if (f.start - offset >= horizon) continue;                // after it
    Fault g = f;
    g.start = std::max<Time>(0, f.start - offset);
    g.end = f.end == kTimeInfinity ? kTimeInfinity : f.end - offset;
    out.faults.push_back(g);
  }
  if (s.placement) {
    const Placement place(topology, seed, run);
    for (Fault& f : out.faults) f.component = place(f.component);
  }
  return out;
}

namespace {
std::string hours(double h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g h", h);
  return buf;
}
}  // namespace

std::string trace_sampling_text(const TraceSampling& s, double horizon_hours) {
  using V = TraceSpec::SeedsVary;
  const char* name = s.vary == V::Window      ? "window"
                     : s.vary == V::Placement ? "placement"
                     : s.vary == V::Both      ? "both"
                                              : "none";
  const std::string key = std::string("`/failures/trace/seeds_vary` = ") + name;
  if (s.deterministic()) {
    std::string why = s.vary == V::None
                          ? key
                          : "the trace (" + hours(s.span_hours) + ") is no longer than the run (" +
                                hours(horizon_hours) + "), so it has one window";
    if (s.vary == V::Placement || s.vary == V::Both)
      why = (s.vary == V::Both ? why + ", and " : std::string()) +
            "the cluster has one node, so placement moves nothing";
    else if (s.vary == V::Window)
      why += ", and placement is off (" + key + ")";
    return "The replay is deterministic (" + why +
           "): every seed replays the same faults, so the report shows one run, with no "
           "confidence interval and no significance claim.";
  }
  std::string out = "Each seed ";
  if (s.window)
    out += "replays a " + hours(horizon_hours) + " window of the " + hours(s.span_hours) +
           " trace from an offset drawn uniformly in [0, " + hours(s.slack_hours) + "]";
  if (s.window && s.placement) out += " and ";
  if (s.placement)
    out +=
        "places the trace's nodes on the cluster's by a random permutation (a GPU follows its "
        "node; domains, racks, leaves and rows are permuted within their kind)";
  out += " (" + key + "); the 95% CIs are over ";
  if (!s.window) return out + "placements of the same faults.";
  out +=
      "these windows: a moving-block bootstrap of the trace, the block being the run. The trace "
      "holds " +
      std::to_string(s.independent_windows) + " non-overlapping window" +
      (s.independent_windows == 1 ? "" : "s");
  return out + (s.independent_windows < 2
                    ? ": the windows overlap, so the CIs understate how much another stretch of "
                      "this history could differ."
                    : "; seeds beyond that draw overlapping windows, so the CIs describe this "
                      "trace's windows, not other periods of the fleet.");
}

}  // namespace goodput
