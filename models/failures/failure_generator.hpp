// Draws a statistical fault list for one seed. Each class is a superposition of identical
// per-component processes, drawn at the class level (one stream, not one timer per
// component): exponential inter-arrivals of total rate sum(lambda_i), or a Weibull renewal
// process with the same mean. Lemon nodes (chosen per seed) fail `lemon_rate_multiplier`
// times as often; a correlated node event also takes down the next nodes. The arrival
// process does not look at state: a fault on a component already down extends its outage.
#pragma once

#include <cstdint>

#include "models/failures/failure_spec.hpp"
#include "models/failures/fault.hpp"

namespace goodput {

FaultList generate_faults(const FailureSpec& spec, const Topology& topology, Time horizon,
                          double restart_s, std::uint64_t seed, std::uint64_t run);

// Expected faults per hour of class `c` over the whole cluster (lemons included on average).
double class_rate_per_hour(const FailureSpec& spec, const FailureClassSpec& c, const Topology& topology);

// A stable 64-bit hash of a name (FNV-1a), used to number random streams.
std::uint64_t stream_id(const std::string& name);

}  // namespace goodput
