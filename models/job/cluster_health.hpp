// Which GPUs are up, as faults start and end. A GPU is down while at least one component it
// depends on is failed (a reference count, so overlapping faults compose). Keeps per-domain
// healthy counts. Strategy-independent: every strategy sees the same health history.
// Every change of a domain's healthy count is also appended to a log (domain indices, in
// order; cleared by reset) so that layouts can keep per-domain indexes up to date by reading
// only the entries after their own cursor, instead of rescanning all domains.
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
  // Per GPU, the faults holding it down (0: up): the array up() reads, for scans of many GPUs.
  const std::uint16_t* down_counts() const { return down_count_.data(); }
  std::uint32_t healthy_in_domain(std::uint32_t domain) const { return domain_healthy_[domain]; }
  std::uint32_t down_gpus() const { return down_gpus_; }
  const Topology& topology() const { return *topology_; }
  // Domains whose healthy count changed, oldest first (a domain may repeat).
  const std::vector<std::uint32_t>& changed_domains() const { return changed_; }

 private:
  const Topology* topology_;
  std::vector<std::uint16_t> down_count_;
  std::vector<std::uint32_t> domain_healthy_;
  std::uint32_t down_gpus_ = 0;
  std::vector<std::uint32_t> changed_;
  std::size_t call_start_ = 0;              // log size when the current fail/repair began
  void note_change(std::uint32_t domain) {  // once per domain and call (its GPUs are contiguous)
    if (changed_.size() == call_start_ || changed_.back() != domain) changed_.push_back(domain);
  }
};

// One reader's position in ClusterHealth's change log. catch_up(health, f) calls f(domain) for
// each entry logged since the last call and returns true; when the health was reset since
// (the log is shorter than the position) it calls nothing and returns false, so the reader
// rebuilds. Either way the position ends at the end of the log; skip_to_end after a rebuild.
class HealthLogCursor {
 public:
  void skip_to_end(const ClusterHealth& health) { at_ = health.changed_domains().size(); }
  template <class F>
  bool catch_up(const ClusterHealth& health, F&& f) {
    const auto& log = health.changed_domains();
    if (at_ > log.size()) {
      at_ = log.size();
      return false;
    }
    for (; at_ < log.size(); ++at_) f(log[at_]);
    return true;
  }

 private:
  std::size_t at_ = 0;
};

}  // namespace goodput
