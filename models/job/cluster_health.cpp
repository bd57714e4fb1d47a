#include "models/job/cluster_health.hpp"

#include <stdexcept>

namespace goodput {

ClusterHealth::ClusterHealth(const Topology& topology) : topology_(&topology) {
  reset();
}

void ClusterHealth::reset() {
  down_count_.assign(topology_->gpus(), 0);
  domain_healthy_.assign(topology_->domains(), topology_->gpus_per_domain());
  down_gpus_ = 0;
  changed_.clear();
  call_start_ = 0;
}

void ClusterHealth::fail(std::uint32_t component, std::vector<std::uint32_t>* newly_down) {
  call_start_ = changed_.size();
  for (std::uint32_t gpu : topology_->blast_radius(component)) {
    if (down_count_[gpu]++ == 0) {
      const std::uint32_t d = topology_->domain_of_gpu(gpu);
      --domain_healthy_[d];
      note_change(d);
      ++down_gpus_;
      if (newly_down) newly_down->push_back(gpu);
    }
  }
}

void ClusterHealth::repair(std::uint32_t component, std::vector<std::uint32_t>* newly_up) {
  call_start_ = changed_.size();
  for (std::uint32_t gpu : topology_->blast_radius(component)) {
    if (down_count_[gpu] == 0) throw std::logic_error("ClusterHealth: repair without a fault");
    if (--down_count_[gpu] == 0) {
      const std::uint32_t d = topology_->domain_of_gpu(gpu);
      ++domain_healthy_[d];
      note_change(d);
      --down_gpus_;
      if (newly_up) newly_up->push_back(gpu);
    }
  }
}

}  // namespace goodput
