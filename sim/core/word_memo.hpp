// A memo from short keys of 64-bit words to values, for one thread. Open addressing (linear
// probing, power-of-two slots, at most half full) over one flat arena of key words: a lookup
// allocates nothing and chases no nodes, and the key is reused between lookups. Use: fill
// key(), then find(); on a miss compute the value and insert() it (same key, nothing between).
// Bounded: an insert into a full memo (max_entries) first forgets everything, so a long run
// whose keys rarely repeat keeps a fixed footprint (a memo kept across runs would otherwise
// grow without end). Contract: find() answers exactly what was inserted under an equal key and
// not forgotten since (the hash only narrows the search; the words are compared).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace goodput {

template <class V>
class WordMemo {
 public:
  explicit WordMemo(std::size_t max_entries = std::size_t{1} << 16) : max_(max_entries) {}

  // The key of the next find()/insert(), emptied: push its words.
  std::vector<std::uint64_t>& key() {
    key_.clear();
    return key_;
  }
  // The value remembered under key(), or nullptr.
  const V* find() {
    hash_ = hash_words();
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash_ & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.length == 0) return nullptr;
      if (s.hash == hash_ && s.length == key_.size() &&
          std::equal(key_.begin(), key_.end(), keys_.begin() + s.offset))
        return &values_[s.value];
    }
  }
  // Remembers `value` under key() (right after a find() that returned nullptr).
  void insert(const V& value) {
    if (values_.size() >= max_) forget();
    if (2 * (values_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash_ & mask;
    while (slots_[i].length != 0) i = (i + 1) & mask;
    slots_[i] = {hash_, static_cast<std::uint32_t>(keys_.size()),
                 static_cast<std::uint32_t>(key_.size()),
                 static_cast<std::uint32_t>(values_.size())};
    keys_.insert(keys_.end(), key_.begin(), key_.end());
    values_.push_back(value);
  }
  std::size_t size() const { return values_.size(); }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t offset = 0, length = 0;  // the key's words in keys_; length 0: empty
    std::uint32_t value = 0;               // index into values_
  };
  std::uint64_t hash_words() const {
    // FNV-1a over the words, then MurmurHash3's 64-bit finaliser, so that every bit of every
    // word reaches the low bits that pick the slot (keys often differ in high bits only).
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::uint64_t w : key_) h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
  }
  void forget() {  // keeps the allocations
    std::fill(slots_.begin(), slots_.end(), Slot{});
    keys_.clear();
    values_.clear();
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<std::size_t>(64, 2 * old.size()), Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.length == 0) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].length != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::size_t max_;                  // entries kept at most
  std::vector<std::uint64_t> key_;   // reused: a hit allocates nothing
  std::uint64_t hash_ = 0;           // key_'s, as of the last find()
  std::vector<std::uint64_t> keys_;  // every remembered key's words, back to back
  std::vector<Slot> slots_;
  std::vector<V> values_;
};

}  // namespace goodput
