// A set of domain indices [0, n) with ordered search: the next member at or after i, the
// previous member at or before i. A hierarchy of 64-bit words (bit k of a word one level up
// says "word k below is not empty"), so insert, erase, next and prev cost O(log64 n): three
// levels hold 262,144 domains. Used by JobLayout to find free capacity without scanning.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace goodput {

class DomainSet {
 public:
  static constexpr std::uint32_t npos = 0xFFFFFFFFu;

  // Empties the set and sizes it for indices [0, n).
  void reset(std::uint32_t n) {
    size_ = n;
    levels_.clear();
    std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
    do {
      words = words == 0 ? 1 : words;
      levels_.emplace_back(words, 0);
      words = (words + 63) / 64;
    } while (levels_.back().size() > 1);
  }

  // Makes the members exactly [lo, hi) (lo <= hi <= size()), a word at a time, the levels above
  // rebuilt from the words below (as inserting each member of an empty set would leave them).
  void assign_range(std::uint32_t lo, std::uint32_t hi) {
    auto bits = [](std::uint64_t from, std::uint64_t to) {  // bits [from, to) of a word
      if (from >= to) return std::uint64_t{0};
      const std::uint64_t below_to = to >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << to) - 1;
      return below_to & ~((std::uint64_t{1} << from) - 1);
    };
    auto& bottom = levels_[0];
    for (std::size_t w = 0; w < bottom.size(); ++w) {
      const std::uint64_t a = std::uint64_t{w} * 64;
      bottom[w] = bits(std::clamp<std::uint64_t>(lo, a, a + 64) - a,
                       std::clamp<std::uint64_t>(hi, a, a + 64) - a);
    }
    for (std::size_t level = 1; level < levels_.size(); ++level) {
      const auto& below = levels_[level - 1];
      auto& words = levels_[level];
      std::fill(words.begin(), words.end(), 0);
      for (std::size_t j = 0; j < below.size(); ++j)
        if (below[j] != 0) words[j >> 6] |= std::uint64_t{1} << (j & 63);
    }
  }
  void fill() { assign_range(0, size_); }  // every index of [0, size()) a member

  std::uint32_t size() const { return size_; }
  bool contains(std::uint32_t i) const { return (levels_[0][i >> 6] >> (i & 63)) & 1u; }

  // Nothing to do when i's membership does not change (erasing a non-member of an empty word
  // would otherwise walk every level).
  void set(std::uint32_t i, bool member) {
    if (contains(i) == member) return;
    member ? insert(i) : erase(i);
  }

  void insert(std::uint32_t i) {
    for (auto& words : levels_) {
      std::uint64_t& w = words[i >> 6];
      const bool was_empty = w == 0;
      w |= std::uint64_t{1} << (i & 63);
      if (!was_empty) return;
      i >>= 6;
    }
  }

  void erase(std::uint32_t i) {
    for (auto& words : levels_) {
      std::uint64_t& w = words[i >> 6];
      w &= ~(std::uint64_t{1} << (i & 63));
      if (w != 0) return;
      i >>= 6;
    }
  }

  // Smallest member >= i, or npos.
  std::uint32_t next(std::uint32_t i) const { return i >= size_ ? npos : next_at(0, i); }
  // Largest member <= i (i may be >= size()), or npos.
  std::uint32_t prev(std::uint32_t i) const {
    if (size_ == 0) return npos;
    return prev_at(0, i >= size_ ? size_ - 1 : i);
  }

 private:
  std::uint32_t next_at(std::size_t level, std::uint32_t i) const {
    const auto& words = levels_[level];
    const std::uint32_t w = i >> 6;
    if (w >= words.size()) return npos;
    const std::uint64_t m = words[w] & (~std::uint64_t{0} << (i & 63));
    if (m) return (w << 6) | static_cast<std::uint32_t>(std::countr_zero(m));
    if (level + 1 == levels_.size()) return npos;
    const std::uint32_t u = next_at(level + 1, w + 1);
    if (u == npos) return npos;
    return (u << 6) | static_cast<std::uint32_t>(std::countr_zero(words[u]));
  }

  std::uint32_t prev_at(std::size_t level, std::uint32_t i) const {
    const auto& words = levels_[level];
    const std::uint32_t w = i >> 6, b = i & 63;
    const std::uint64_t mask = b == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (b + 1)) - 1;
    const std::uint64_t m = words[w] & mask;
    if (m) return (w << 6) | static_cast<std::uint32_t>(63 - std::countl_zero(m));
    if (w == 0 || level + 1 == levels_.size()) return npos;
    const std::uint32_t u = prev_at(level + 1, w - 1);
    if (u == npos) return npos;
    return (u << 6) | static_cast<std::uint32_t>(63 - std::countl_zero(words[u]));
  }

  std::uint32_t size_ = 0;
  std::vector<std::vector<std::uint64_t>> levels_;  // [0]: one bit per domain
};

}  // namespace goodput
