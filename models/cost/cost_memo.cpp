#include "models/cost/cost_memo.hpp"

#include <algorithm>
#include <bit>

namespace goodput {

double CostMemo::replica_throughput(std::span<const int> degrees, std::span<const double> powers) {
  // The key: the stage vector run-length encoded, two words per run of equal (degree, power):
  // (run length << 32 | degree) and the power's bits. Exact, and short for the usual replicas
  // (one or two runs however many stages).
  std::vector<std::uint64_t>& key = throughput_.key();
  for (std::size_t i = 0; i < degrees.size();) {
    std::size_t j = i + 1;
    while (j < degrees.size() && degrees[j] == degrees[i] &&
           std::bit_cast<std::uint64_t>(powers[j]) == std::bit_cast<std::uint64_t>(powers[i]))
      ++j;
    key.push_back(static_cast<std::uint64_t>(j - i) << 32 | static_cast<std::uint32_t>(degrees[i]));
    key.push_back(std::bit_cast<std::uint64_t>(powers[i]));
    i = j;
  }
  if (const double* r = throughput_.find()) return *r;
  const double r = model_->replica_throughput(degrees, powers);
  throughput_.insert(r);
  return r;
}

double CostMemo::boost_power(int degree, double max_power) {
  if (degree < 0) return model_->boost_power(degree, max_power);
  const auto i = static_cast<std::size_t>(degree);
  if (i >= boost_.size()) boost_.resize(i + 1);
  if (boost_[i].cap != max_power) boost_[i] = {max_power, model_->boost_power(degree, max_power)};
  return boost_[i].power;
}

}  // namespace goodput
