#include "models/cost/cost_memo.hpp"

#include <algorithm>
#include <bit>

namespace goodput {

namespace {

std::uint64_t hash_words(std::span<const std::uint64_t> key) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the words, then a final mix
  for (std::uint64_t w : key) h = (h ^ w) * 0x100000001b3ull;
  h ^= h >> 33;
  return h * 0xff51afd7ed558ccdull;
}

}  // namespace

const CostMemo::Slot* CostMemo::find(std::uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.length == 0) return nullptr;
    if (s.hash == hash && s.length == key_.size() &&
        std::equal(key_.begin(), key_.end(), keys_.begin() + s.offset))
      return &s;
  }
}

void CostMemo::insert(std::uint64_t hash, double value) {
  if (2 * (used_ + 1) > slots_.size()) {  // grow: keep at most half the slots in use
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
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash & mask;
  while (slots_[i].length != 0) i = (i + 1) & mask;
  slots_[i] = {hash, static_cast<std::uint32_t>(keys_.size()),
               static_cast<std::uint32_t>(key_.size()), value};
  keys_.insert(keys_.end(), key_.begin(), key_.end());
  ++used_;
}

double CostMemo::replica_throughput(std::span<const int> degrees, std::span<const double> powers) {
  // The key: the stage vector run-length encoded, two words per run of equal (degree, power):
  // (run length << 32 | degree) and the power's bits. Exact, and short for the usual replicas
  // (one or two runs however many stages).
  key_.clear();
  for (std::size_t i = 0; i < degrees.size();) {
    std::size_t j = i + 1;
    while (j < degrees.size() && degrees[j] == degrees[i] &&
           std::bit_cast<std::uint64_t>(powers[j]) == std::bit_cast<std::uint64_t>(powers[i]))
      ++j;
    key_.push_back(static_cast<std::uint64_t>(j - i) << 32 |
                   static_cast<std::uint32_t>(degrees[i]));
    key_.push_back(std::bit_cast<std::uint64_t>(powers[i]));
    i = j;
  }
  const std::uint64_t hash = hash_words(key_);
  if (const Slot* s = find(hash)) return s->value;
  const double r = model_->replica_throughput(degrees, powers);
  insert(hash, r);
  return r;
}

double CostMemo::boost_power(int degree, double max_power) {
  if (degree < 0) return model_->boost_power(degree, max_power);
  if (max_power != boost_cap_) {
    boost_cap_ = max_power;
    boost_.clear();
  }
  const auto i = static_cast<std::size_t>(degree);
  if (i >= boost_.size()) boost_.resize(i + 1, -1.0);
  if (boost_[i] < 0) boost_[i] = model_->boost_power(degree, max_power);
  return boost_[i];
}

}  // namespace goodput
