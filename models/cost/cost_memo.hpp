// A single-threaded memo in front of a shared CostModel for the queries a strategy repeats on
// every event: replica_throughput of a stage vector and boost_power of a degree. The model's
// own caches are shared by all threads behind a mutex; with several threads that lock was the
// hot spot (bench-hgx-131k: a fifth of the CPU time, most of the system time). One CostMemo per
// simulation lane (or per call), so lookups take no lock and allocate nothing on a hit.
// Contract: every value equals the model's for the same arguments (it only remembers them).
#pragma once

#include <span>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "sim/core/word_memo.hpp"

namespace goodput {

class CostMemo {
 public:
  explicit CostMemo(const CostModel& model) : model_(&model) {}
  const CostModel& model() const { return *model_; }
  double replica_throughput(std::span<const int> degrees, std::span<const double> powers);
  double boost_power(int degree, double max_power);

 private:
  const CostModel* model_;
  // Keys: the stage vector run-length encoded (a few words: one pair per run of equal stages).
  WordMemo<double> throughput_;
  struct Boost {
    double cap = -1;  // the max_power `power` answers for (< 0: not asked yet)
    double power = 0;
  };
  std::vector<Boost> boost_;  // by degree
};

}  // namespace goodput
