// Full TP groups each domain can hold (healthy / tp), as a Fenwick tree kept up to date from
// ClusterHealth's change log: the total and "the first domain at which the running sum from
// domain 0 reaches k" in O(log domains), after O(1) per logged change. Lets a strategy find
// the prefix of domains that covers the job without scanning every domain per fault.
#pragma once

#include <cstdint>
#include <vector>

#include "models/job/cluster_health.hpp"

namespace goodput {

class CapacityIndex {
 public:
  CapacityIndex(const ClusterHealth& health, int tp)
      : health_(&health), tp_(static_cast<std::uint32_t>(tp)) {
    rebuild();
  }

  // Applies the health changes logged since the last call (rebuilds if the health was reset).
  void sync() {
    const auto& log = health_->changed_domains();
    if (cursor_ > log.size()) {
      rebuild();
      return;
    }
    for (; cursor_ < log.size(); ++cursor_) {
      const std::uint32_t d = log[cursor_];
      const std::uint32_t c = health_->healthy_in_domain(d) / tp_;
      if (c != cap_[d]) add(d, static_cast<std::int64_t>(c) - static_cast<std::int64_t>(cap_[d]));
      cap_[d] = c;
    }
  }

  std::uint32_t cap(std::uint32_t d) const { return cap_[d]; }  // as of the last sync
  std::int64_t total() const { return total_; }
  // Full groups of domains 0..n-1.
  std::int64_t prefix(std::uint32_t n) const {
    std::int64_t sum = 0;
    for (std::size_t i = std::min<std::size_t>(n, tree_.size() - 1); i > 0; i -= i & (~i + 1))
      sum += tree_[i];
    return sum;
  }

  // For 1 <= k <= total(): the smallest domain c whose running sum (domains 0..c) reaches k;
  // *before = the sum over domains 0..c-1 (< k).
  std::uint32_t cutoff(std::int64_t k, std::int64_t* before) const {
    std::size_t pos = 0;
    std::int64_t sum = 0;
    for (std::size_t step = top_; step > 0; step >>= 1)
      if (pos + step < tree_.size() && sum + tree_[pos + step] < k) {
        pos += step;
        sum += tree_[pos];
      }
    *before = sum;
    return static_cast<std::uint32_t>(pos);  // 1-based pos + 1, minus 1
  }

 private:
  void rebuild() {
    const std::uint32_t n = health_->topology().domains();
    cap_.assign(n, 0);
    tree_.assign(static_cast<std::size_t>(n) + 1, 0);
    total_ = 0;
    top_ = 1;
    while (top_ * 2 <= n) top_ *= 2;
    for (std::uint32_t d = 0; d < n; ++d) {
      cap_[d] = health_->healthy_in_domain(d) / tp_;
      add(d, cap_[d]);
    }
    cursor_ = health_->changed_domains().size();
  }

  void add(std::uint32_t d, std::int64_t delta) {
    total_ += delta;
    for (std::size_t i = static_cast<std::size_t>(d) + 1; i < tree_.size(); i += i & (~i + 1))
      tree_[i] += delta;
  }

  const ClusterHealth* health_;
  std::uint32_t tp_;
  std::vector<std::uint32_t> cap_;
  std::vector<std::int64_t> tree_;  // 1-based Fenwick tree over cap_
  std::int64_t total_ = 0;
  std::size_t top_ = 1;  // highest power of two <= domains
  std::size_t cursor_ = 0;
};

}  // namespace goodput
