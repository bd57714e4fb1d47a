// The cluster presets (/cluster/preset), each shape spelled once: the scenario's declaration
// takes its choices and doc from this table, the loader the shape.
#pragma once

#include <string>

#include "models/topology/topology.hpp"

namespace goodput {

struct ClusterPreset {
  const char* name;
  const char* gpu;
  int gpus_per_node, nodes_per_domain, nodes_per_rack, nodes_per_leaf;
  const char* doc;
};

inline constexpr ClusterPreset kClusterPresets[] = {
    {"hgx-8", "H100", 8, 1, 4, 16, "8-GPU nodes, NVLink inside the node"},
    {"nvl32", "B200", 4, 8, 8, 16, "8 trays x 4 GPUs"},
    {"gb200-nvl72", "GB200", 4, 18, 18, 18, "18 trays x 4 GPUs per rack-scale domain"},
};
inline constexpr const char* kCustomClusterPreset = "custom";  // every count given

// The preset's shape (one domain); null for a name the table lacks (custom).
inline const ClusterPreset* find_cluster_preset(const std::string& name) {
  for (const auto& p : kClusterPresets)
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace goodput
