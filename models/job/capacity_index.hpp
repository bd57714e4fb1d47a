// Full TP groups each domain can hold (healthy / tp), as a Fenwick tree kept up to date from
// ClusterHealth's change log: the total and "the first domain at which the running sum from
// domain 0 reaches k" in O(log domains) (fenwick.hpp), after O(1) per logged change. Lets a
// strategy find the prefix of domains that covers the job without scanning every domain per fault.
#pragma once

#include <cstdint>
#include <vector>

#include "models/job/cluster_health.hpp"
#include "models/job/fenwick.hpp"

namespace goodput {

class CapacityIndex {
 public:
  CapacityIndex(const ClusterHealth& health, int tp)
      : health_(&health), tp_(static_cast<std::uint32_t>(tp)) {
    rebuild();
  }

  // Applies the health changes logged since the last call (rebuilds if the health was reset).
  void sync() {
    const bool current = cursor_.catch_up(*health_, [this](std::uint32_t d) {
      const std::uint32_t c = health_->healthy_in_domain(d) / tp_;
      if (c != cap_[d])
        tree_.add(d, static_cast<std::int64_t>(c) - static_cast<std::int64_t>(cap_[d]));
      cap_[d] = c;
    });
    if (!current) rebuild();
  }

  std::uint32_t cap(std::uint32_t d) const { return cap_[d]; }  // as of the last sync
  std::int64_t total() const { return tree_.total(); }
  // Full groups of domains 0..n-1.
  std::int64_t prefix(std::uint32_t n) const { return tree_.prefix(n); }
  // For 1 <= k <= total(): the smallest domain c whose running sum (domains 0..c) reaches k;
  // *before = the sum over domains 0..c-1 (< k).
  std::uint32_t cutoff(std::int64_t k, std::int64_t* before) const { return tree_.find(k, before); }

 private:
  void rebuild() {
    const std::uint32_t n = health_->topology().domains();
    cap_.assign(n, 0);
    tree_.reset(n);
    for (std::uint32_t d = 0; d < n; ++d) {
      cap_[d] = health_->healthy_in_domain(d) / tp_;
      tree_.add(d, cap_[d]);
    }
    cursor_.skip_to_end(*health_);
  }

  const ClusterHealth* health_;
  std::uint32_t tp_;
  std::vector<std::uint32_t> cap_;
  Fenwick<std::int64_t> tree_;  // over cap_
  HealthLogCursor cursor_;
};

}  // namespace goodput
