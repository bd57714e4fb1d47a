// The kinds of cluster component a failure can hit, and their names ("gpu", "node", "domain",
// "rack", "leaf"), spelled once for the topology, the scenario loader and the trace readers.
#pragma once

#include <cstdint>

#include "sim/core/enum_names.hpp"

namespace goodput {

enum class ComponentKind : std::uint8_t { Gpu, Node, Domain, Rack, Leaf };
inline constexpr int kComponentKinds = 5;

// Indexed by value: kComponentKindNames[int(k)].value == k.
inline constexpr EnumName<ComponentKind> kComponentKindNames[kComponentKinds] = {
    {ComponentKind::Gpu, "gpu"},
    {ComponentKind::Node, "node"},
    {ComponentKind::Domain, "domain"},
    {ComponentKind::Rack, "rack"},
    {ComponentKind::Leaf, "leaf"}};

inline const char* component_kind_name(ComponentKind k) {
  return enum_name(kComponentKindNames, k);
}

}  // namespace goodput
