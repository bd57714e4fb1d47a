// The kinds of cluster component a failure can hit, and their names ("gpu", "node", "domain",
// "rack", "leaf", "row", "fleet"), spelled once for the topology, the scenario loader and the
// trace readers. A row is /cluster/racks_per_row racks sharing power distribution and cooling;
// the fleet is one component that every GPU depends on (a site power, cooling-plant, storage or
// network-core outage stops everything). Kinds are appended, never reordered: component ids of
// the earlier kinds keep their values.
#pragma once

#include <cstdint>

#include "sim/core/enum_names.hpp"

namespace goodput {

enum class ComponentKind : std::uint8_t { Gpu, Node, Domain, Rack, Leaf, Row, Fleet };
inline constexpr int kComponentKinds = 7;

// Indexed by value: kComponentKindNames[int(k)].value == k.
inline constexpr EnumName<ComponentKind> kComponentKindNames[kComponentKinds] = {
    {ComponentKind::Gpu, "gpu"},       {ComponentKind::Node, "node"},
    {ComponentKind::Domain, "domain"}, {ComponentKind::Rack, "rack"},
    {ComponentKind::Leaf, "leaf"},     {ComponentKind::Row, "row"},
    {ComponentKind::Fleet, "fleet"}};

inline const char* component_kind_name(ComponentKind k) {
  return enum_name(kComponentKindNames, k);
}

}  // namespace goodput
