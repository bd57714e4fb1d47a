// Which GPUs are up, as faults start and end. A GPU is down while at least one component it
// depends on is failed (a reference count, so overlapping faults compose). Keeps per-domain
// healthy counts. Strategy-independent: every strategy sees the same health history.
#pragma once

#include <cstdint>
#include <vector>

#include "models/topology/topology.hpp"

namespace goodput {

class ClusterHealth {
 public:
  explicit ClusterHealth(const Topology& topology);
  void reset();

  // Applies a fault start / end of `component`; appends GPUs whose state flipped.
  void fail(std::uint32_t component, std::vector<std::uint32_t>* newly_down);
  void repair(std::uint32_t component, std::vector<std::uint32_t>* newly_up);

  bool up(std::uint32_t gpu) const { return down_count_[gpu] == 0; }
  std::uint32_t healthy_in_domain(std::uint32_t domain) const { return domain_healthy_[domain]; }
  std::uint32_t down_gpus() const { return down_gpus_; }
  const Topology& topology() const { return *topology_; }

 private:
  const Topology* topology_;
  std::vector<std::uint16_t> down_count_;
  std::vector<std::uint32_t> domain_healthy_;
  std::uint32_t down_gpus_ = 0;
};

}  // namespace goodput
