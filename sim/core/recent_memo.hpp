// RecentMemo: the last few values built for a key, shared by the whole process (thread-safe).
// The plans of a run's verdict analysis, a sweep's points and a seek's steps differ in a price
// or a rate, not in the cluster or the model: their topology and cost model are the same
// objects, built once. A value is only kept once built (a build that throws keeps nothing, so
// the next call throws the same error); two threads missing at once may both build it, and
// the first kept wins. Values are immutable (shared_ptr<const V>).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace goodput {

template <typename Key, typename Value, std::size_t kKept = 4>
class RecentMemo {
 public:
  // The value kept for `key`, else build() (a shared_ptr<const Value>), kept.
  template <typename Build>
  std::shared_ptr<const Value> get(const Key& key, Build&& build) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (std::size_t i = 0; i < kept_.size(); ++i)
        if (kept_[i].first == key) {
          std::rotate(kept_.begin() + static_cast<std::ptrdiff_t>(i),
                      kept_.begin() + static_cast<std::ptrdiff_t>(i) + 1, kept_.end());
          return kept_.back().second;
        }
    }
    std::shared_ptr<const Value> value = build();
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [k, v] : kept_)
      if (k == key) return v;
    kept_.emplace_back(key, value);
    if (kept_.size() > kKept) kept_.erase(kept_.begin());
    return value;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<Key, std::shared_ptr<const Value>>> kept_;  // most recent last
};

}  // namespace goodput
