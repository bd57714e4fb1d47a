// The failure model of a scenario: statistical classes (per-component MTBF, inter-arrival
// shape, repair distribution, blast scope) plus lemon nodes and correlated multi-node events;
// or a trace to replay. Parsed from the scenario's /failures object (see failure_params.cpp).
#pragma once

#include <string>
#include <vector>

#include "models/topology/topology.hpp"

namespace goodput {

struct RepairMode {
  double weight = 1;
  double median_hours = 1;
  double sigma = 0;  // lognormal shape; 0 gives a fixed time
};

struct RepairSpec {
  enum class Kind { Restart, Fixed, Lognormal, Mixture };
  Kind kind = Kind::Fixed;
  std::vector<RepairMode> modes;  // Fixed/Lognormal: one mode; Mixture: several
};

struct FailureClassSpec {
  std::string name;
  ComponentKind scope = ComponentKind::Gpu;
  double mtbf_hours = 0;  // per component of the scope
  RepairSpec repair;      // stop: the repair time; slow: how long the slowness lasts
  // Fail-slow (issue 29): the component keeps running, its GPUs' compute `slowdown` times
  // slower (drawn uniformly in [slowdown, slowdown_max] per fault when slowdown_max is set),
  // and is detected after detection_s.
  enum class Kind : std::uint8_t { Stop, Slow };
  Kind kind = Kind::Stop;
  double slowdown = 1.5;
  double slowdown_max = 0;  // 0: every fault slows by `slowdown`
  double detection_s = 600;
};

struct TraceSpec {
  std::string path;            // resolved relative to the scenario file
  std::string format = "csv";  // a name in trace::trace_formats()
  int lanl_system = -1;
  double time_offset_hours = 0;
  std::vector<std::string> restart_only_classes;
  // What a replay's seeds vary (sim/run/trace_sampling.hpp): a window of the run's length at a
  // random offset into a longer trace, a random placement of the trace's machines on the
  // cluster's (a permutation of node ids), both, or nothing (every seed replays the same faults).
  enum class SeedsVary { Window, Placement, Both, None };
  SeedsVary seeds_vary = SeedsVary::Window;
  // Operator logs (formats with trace::TraceFormat::takes_hosts; trace::ReadOptions says each).
  std::string hosts;  // host,component map file, resolved like path; "" none
  std::string host_pattern;
  int host_index_offset = 0;
  std::string time_zone;
  std::string start;
};

struct FailureSpec {
  enum class Model { Statistical, Trace };
  Model model = Model::Statistical;
  std::string preset = "llama3";  // the class list used when none is given
  double rate_scale = 1;
  double repair_scale = 1;  // multiplies every drawn repair time (restart-only classes excepted)
  std::vector<FailureClassSpec> classes;
  bool weibull = false;
  double weibull_shape = 0.7;
  double lemon_fraction = 0;
  double lemon_rate_multiplier = 5;
  double correlated_fraction = 0;
  int correlated_nodes = 2;
  // Realism switches (defaults keep the plain model): hardware outside the job's failure-free
  // layout (idle GPUs in domains, spare domains) fails at idle_rate_scale x the busy rate; a
  // lemon node is healed (normal rate from then on) after a repair with lemon_heal_probability;
  // a repair fails and is redone (another repair time) with repair_failure_probability.
  double idle_rate_scale = 1;
  double lemon_heal_probability = 0;
  double repair_failure_probability = 0;
  TraceSpec trace;
};

}  // namespace goodput
