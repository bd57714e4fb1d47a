// A Fenwick (binary indexed) tree of counts over indices [0, n): add to one index, the sum of a
// prefix, and "the first index at which the running sum reaches k", each O(log n). Counts must
// stay >= 0 for find(). The whole sum, and the sum of the prefix asked for last (kept up to date
// by add()), cost O(1): callers tend to ask for the same prefix again (prefix() updates that
// memo, so a tree is for one thread at a time). Used by CapacityIndex (full TP groups per domain)
// and NtpPartialIndex (domains offering a partial group, per degree).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace goodput {

template <class Count>
class Fenwick {
 public:
  // All counts zero, indices [0, n).
  void reset(std::uint32_t n) {
    tree_.assign(static_cast<std::size_t>(n) + 1, 0);
    total_ = 0;
    kept_n_ = 0;
    kept_ = 0;
    top_ = 1;
    while (top_ * 2 <= n) top_ *= 2;
  }
  void add(std::uint32_t i, Count delta) {
    total_ += delta;
    if (i < kept_n_) kept_ += delta;
    for (std::size_t k = static_cast<std::size_t>(i) + 1; k < tree_.size(); k += k & (~k + 1))
      tree_[k] += delta;
  }
  Count total() const { return total_; }
  // Sum over indices [0, n) (n may exceed the size).
  Count prefix(std::uint32_t n) const {
    if (n >= tree_.size() - 1) return total_;
    if (n == kept_n_) return kept_;
    Count sum = 0;
    for (std::size_t k = n; k > 0; k -= k & (~k + 1)) sum += tree_[k];
    kept_n_ = n;
    kept_ = sum;
    return sum;
  }
  // For 1 <= k <= total(): the smallest index c whose running sum (indices 0..c) reaches k;
  // *before = the sum over indices 0..c-1 (< k).
  std::uint32_t find(Count k, Count* before) const {
    std::size_t pos = 0;
    Count sum = 0;
    for (std::size_t step = top_; step > 0; step >>= 1)
      if (pos + step < tree_.size() && sum + tree_[pos + step] < k) {
        pos += step;
        sum += tree_[pos];
      }
    *before = sum;
    return static_cast<std::uint32_t>(pos);  // 1-based pos + 1, minus 1
  }

 private:
  std::vector<Count> tree_{0};  // 1-based
  Count total_ = 0;
  mutable std::uint32_t kept_n_ = 0;  // the prefix asked for last (0: none), and its sum
  mutable Count kept_ = 0;
  std::size_t top_ = 1;  // highest power of two <= n
};

}  // namespace goodput
