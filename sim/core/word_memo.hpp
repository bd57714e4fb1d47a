// A memo from short keys of 64-bit words to values, for one thread. Open addressing (linear
// probing, power-of-two slots of one word each, at most half full) over a flat array of entries
// (value, key place, hash) and one flat arena of key words: a lookup allocates nothing and chases
// no nodes, and the key is reused between lookups. Use: fill key(), then find(); on a miss
// compute the value and insert() it (same key, nothing between).
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
    const auto tag = static_cast<std::uint32_t>(hash_ >> 32);
    for (std::size_t i = hash_ & mask;; i = (i + 1) & mask) {
      const std::uint64_t s = slots_[i];
      if (s == 0) return nullptr;
      if (static_cast<std::uint32_t>(s >> 32) != tag) continue;
      const Entry& e = entries_[static_cast<std::uint32_t>(s) - 1];
      if (e.length == key_.size() && std::equal(key_.begin(), key_.end(), keys_.begin() + e.offset))
        return &e.value;
    }
  }
  // Remembers `value` under key() (right after a find() that returned nullptr).
  void insert(const V& value) {
    if (entries_.size() >= max_) forget();
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash_ & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    entries_.push_back({value, static_cast<std::uint32_t>(keys_.size()),
                        static_cast<std::uint32_t>(key_.size()), hash_});
    slots_[i] = slot_word(hash_, entries_.size() - 1);
    keys_.insert(keys_.end(), key_.begin(), key_.end());
  }
  std::size_t size() const { return entries_.size(); }

 private:
  // A slot is one word, so that the table probed first stays small: the hash's high half (a
  // tag that rules out most other keys without reading them) and 1 + the entry's index (0: an
  // empty slot).
  static std::uint64_t slot_word(std::uint64_t hash, std::size_t entry) {
    return (hash >> 32 << 32) | static_cast<std::uint32_t>(entry + 1);
  }
  struct Entry {
    V value;
    std::uint32_t offset = 0, length = 0;  // the key's words in keys_
    std::uint64_t hash = 0;
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
    std::fill(slots_.begin(), slots_.end(), 0);
    keys_.clear();
    entries_.clear();
  }
  void grow() {
    slots_.assign(std::max<std::size_t>(64, 2 * slots_.size()), 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      std::size_t i = entries_[k].hash & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = slot_word(entries_[k].hash, k);
    }
  }

  std::size_t max_;                   // entries kept at most
  std::vector<std::uint64_t> key_;    // reused: a hit allocates nothing
  std::uint64_t hash_ = 0;            // key_'s, as of the last find()
  std::vector<std::uint64_t> keys_;   // every remembered key's words, back to back
  std::vector<std::uint64_t> slots_;  // see slot_word()
  std::vector<Entry> entries_;        // in insertion order
};

}  // namespace goodput
