// Draws a statistical fault list for one seed. Each class is a superposition of identical
// per-component processes, drawn at the class level (one stream, not one timer per
// component): exponential inter-arrivals of total rate sum(lambda_i), or a Weibull renewal
// process with the same mean. Lemon nodes (chosen per seed) fail `lemon_rate_multiplier`
// times as often; a correlated node event also takes down the next nodes. The arrival
// process does not look at state: a fault on a component already down extends its outage.
// Realism switches (failure_spec.hpp), each drawn from streams of its own so that, at their
// defaults, the fault list is identical to the plain model's:
// - idle_rate_scale: a fault on a component flagged idle in `idle` (by component id; empty:
//   none) is kept with that probability (thinning: its rate becomes scale x the busy rate);
//   every other fault is exactly the one the plain model draws.
// - lemon_heal_probability: in time order, a kept fault on a lemon node cures the node at the
//   fault's end with that probability; later faults on a cured node are kept with probability
//   1 / lemon_rate_multiplier (thinning to the normal rate). Correlated extra nodes count as
//   faults on their own node.
// - repair_failure_probability q: each repair is redone (another draw of the class's repair
//   time) while a draw says it failed: the number of repairs is geometric with mean 1/(1-q).
#pragma once

#include <cstdint>
#include <span>

#include "models/failures/failure_spec.hpp"
#include "models/failures/fault.hpp"

namespace goodput {

FaultList generate_faults(const FailureSpec& spec, const Topology& topology, Time horizon,
                          double restart_s, std::uint64_t seed, std::uint64_t run,
                          std::span<const std::uint8_t> idle = {});

// Expected faults per hour of class `c` over the whole cluster (lemons included on average).
double class_rate_per_hour(const FailureSpec& spec, const FailureClassSpec& c,
                           const Topology& topology);

// The mean repair time of a fault of a class with repair `r` (hours): the mean of its draw
// (a lognormal mode's mean is median x exp(sigma^2 / 2); restart: restart_s), times the mean
// number of repairs 1 / (1 - repair_failure_probability).
double expected_repair_hours(const FailureSpec& spec, const RepairSpec& r, double restart_s);

// A stable 64-bit hash of a name (FNV-1a), used to number random streams.
std::uint64_t stream_id(const std::string& name);

}  // namespace goodput
