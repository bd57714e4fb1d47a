// The cluster as a dependency graph (Boost.Graph): GPU -> node -> {domain fabric, rack, leaf
// switch}, rack -> row (racks_per_row racks sharing power distribution and cooling) -> fleet
// (one component every GPU depends on). A component's blast radius is the set of GPUs that depend
// on it, found by a reverse traversal of the graph once at construction. GPUs are numbered node by
// node and nodes domain by domain, so every blast radius is a contiguous range of GPU ids; the
// constructor checks that and keeps one (first, end) pair per non-GPU component (a GPU's
// radius is itself, a domain's GPUs are [d * gpus_per_domain, (d + 1) * gpus_per_domain)), so
// a failure costs O(blast radius) and touches no per-GPU table. Component ids: GPUs first
// [0, gpus), then nodes, domains, racks, leaves, rows, the fleet. Names are "<kind>/<index>"
// (gpu/12, node/3, domain/0, rack/1, leaf/2, row/0, fleet/0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/topology/component_kind.hpp"

namespace goodput {

struct ClusterShape {
  std::string preset;    // for reports
  std::string gpu_type;  // "H100", "B200", ...
  int gpus_per_node = 8;
  int nodes_per_domain = 1;  // scale-up (NVLink) domain size in nodes
  int nodes_per_rack = 4;
  int nodes_per_leaf = 16;  // scale-out leaf switch fan-out
  int domains = 1;
  int racks_per_row = 8;  // racks sharing a row's power distribution and cooling loop
  int gpus_per_domain() const { return gpus_per_node * nodes_per_domain; }
};

// A contiguous, ascending range of GPU ids [first, end): size(), [i], front(), back(), and
// iteration. (A plain struct, not std::ranges::iota_view: clang 14 cannot instantiate
// libstdc++ 12's view_interface for it.)
class GpuRange {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::uint32_t*;
    using reference = std::uint32_t;
    iterator() = default;
    explicit iterator(std::uint32_t gpu) : gpu_(gpu) {}
    std::uint32_t operator*() const { return gpu_; }
    iterator& operator++() {
      ++gpu_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++gpu_;
      return old;
    }
    friend bool operator==(iterator a, iterator b) { return a.gpu_ == b.gpu_; }

   private:
    std::uint32_t gpu_ = 0;
  };

  GpuRange(std::uint32_t first, std::uint32_t end) : first_(first), end_(end) {}
  std::uint32_t size() const { return end_ - first_; }
  bool empty() const { return end_ == first_; }
  std::uint32_t front() const { return first_; }
  std::uint32_t back() const { return end_ - 1; }
  std::uint32_t operator[](std::uint32_t i) const { return first_ + i; }
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(end_); }

 private:
  std::uint32_t first_;
  std::uint32_t end_;
};

class Topology {
 public:
  explicit Topology(const ClusterShape& shape);

  const ClusterShape& shape() const { return shape_; }
  std::uint32_t count(ComponentKind k) const { return counts_[static_cast<int>(k)]; }
  std::uint32_t gpus() const { return count(ComponentKind::Gpu); }
  std::uint32_t domains() const { return count(ComponentKind::Domain); }
  std::uint32_t components() const {
    return first_[kComponentKinds - 1] + counts_[kComponentKinds - 1];
  }
  std::uint32_t gpus_per_domain() const {
    return static_cast<std::uint32_t>(shape_.gpus_per_domain());
  }

  std::uint32_t id(ComponentKind k, std::uint32_t index) const {
    return first_[static_cast<int>(k)] + index;
  }
  ComponentKind kind(std::uint32_t component) const;
  std::uint32_t index(std::uint32_t component) const {
    return component - first_[static_cast<int>(kind(component))];
  }

  // GPUs taken down when `component` fails (sorted ascending).
  GpuRange blast_radius(std::uint32_t component) const {
    if (component < counts_[0]) return {component, component + 1};
    const auto& r = radius_[component - counts_[0]];
    return {r.first, r.end};
  }
  std::uint32_t domain_of_gpu(std::uint32_t gpu) const { return gpu / gpus_per_domain(); }
  GpuRange domain_gpus(std::uint32_t domain) const {
    return {domain * gpus_per_domain(), (domain + 1) * gpus_per_domain()};
  }

  std::string name(std::uint32_t component) const;
  std::optional<std::uint32_t> resolve(const std::string& name) const;

 private:
  ClusterShape shape_;
  std::uint32_t counts_[kComponentKinds] = {};
  std::uint32_t first_[kComponentKinds] = {};
  struct Range {
    std::uint32_t first, end;
  };
  std::vector<Range> radius_;  // per non-GPU component (id - gpus)
};

}  // namespace goodput
