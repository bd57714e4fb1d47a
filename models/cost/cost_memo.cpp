#include "models/cost/cost_memo.hpp"

#include <bit>

namespace goodput {

std::size_t CostMemo::KeyHash::operator()(const std::vector<std::uint64_t>& key) const noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the words, then a final mix
  for (std::uint64_t w : key) h = (h ^ w) * 0x100000001b3ull;
  h ^= h >> 33;
  return static_cast<std::size_t>(h * 0xff51afd7ed558ccdull);
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
  if (auto it = throughput_.find(key_); it != throughput_.end()) return it->second;
  const double r = model_->replica_throughput(degrees, powers);
  throughput_.emplace(key_, r);
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
