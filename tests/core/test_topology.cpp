#include <doctest/doctest.h>

#include <vector>

#include "models/job/job_layout.hpp"
#include "models/topology/topology.hpp"

using namespace goodput;

TEST_CASE("blast radii come from the dependency graph") {
  const Topology t(ClusterShape{"gb200-nvl72", "GB200", 4, 18, 18, 9, 3});
  CHECK(t.gpus() == 3 * 72);
  CHECK(t.count(ComponentKind::Node) == 54);
  CHECK(t.count(ComponentKind::Leaf) == 6);
  CHECK(t.blast_radius(t.id(ComponentKind::Gpu, 5)).size() == 1);
  const auto node = t.blast_radius(*t.resolve("node/19"));
  REQUIRE(node.size() == 4);
  CHECK(node[0] == 76);
  CHECK(node[3] == 79);
  const auto domain = t.blast_radius(*t.resolve("domain/1"));
  REQUIRE(domain.size() == 72);
  CHECK(domain.front() == 72);
  CHECK(domain.back() == 143);
  CHECK(t.blast_radius(*t.resolve("rack/2")).size() == 72);
  const auto leaf = t.blast_radius(*t.resolve("leaf/1"));  // nodes 9..17
  REQUIRE(leaf.size() == 36);
  CHECK(leaf.front() == 36);
  CHECK(t.domain_of_gpu(143) == 1);
  CHECK(t.name(*t.resolve("leaf/5")) == "leaf/5");
  CHECK_FALSE(t.resolve("leaf/6"));
  CHECK_FALSE(t.resolve("switch/0"));
  CHECK_FALSE(t.resolve("node/1x"));
}

TEST_CASE("a rack fault takes its rack's GPUs, a row fault its racks', the fleet every GPU") {
  // GB200 NVL72 shape: 18 trays of 4 GPUs per rack; 10 racks, 4 per row (rows 0, 1 full, 2 half).
  ClusterShape shape{"gb200-nvl72", "GB200", 4, 18, 18, 18, 10};
  shape.racks_per_row = 4;
  const Topology t(shape);
  REQUIRE(t.count(ComponentKind::Rack) == 10);
  REQUIRE(t.count(ComponentKind::Row) == 3);
  REQUIRE(t.count(ComponentKind::Fleet) == 1);
  const GpuRange rack = t.blast_radius(*t.resolve("rack/7"));
  CHECK(rack.size() == 72);
  CHECK(rack.front() == 7 * 72);
  CHECK(rack.back() == 8 * 72 - 1);
  const GpuRange row = t.blast_radius(*t.resolve("row/1"));  // racks 4..7
  CHECK(row.size() == 4 * 72);
  CHECK(row.front() == t.blast_radius(*t.resolve("rack/4")).front());
  CHECK(row.back() == rack.back());
  CHECK(t.blast_radius(*t.resolve("row/2")).size() == 2 * 72);  // the last row holds 2 racks
  const GpuRange fleet = t.blast_radius(*t.resolve("fleet/0"));
  CHECK(fleet.size() == t.gpus());
  CHECK(fleet.front() == 0);
  CHECK(t.name(t.id(ComponentKind::Fleet, 0)) == "fleet/0");
  CHECK_FALSE(t.resolve("fleet/1"));
  CHECK_FALSE(t.resolve("row/3"));
  // The earlier kinds keep their ids: the fleet is the last component.
  CHECK(t.id(ComponentKind::Fleet, 0) == t.components() - 1);
  CHECK(t.id(ComponentKind::Rack, 0) == t.gpus() + t.count(ComponentKind::Node) + t.domains());
}

TEST_CASE("every blast radius is the contiguous range the hierarchy implies") {
  // Brute force from the definition: GPU g sits in node g / gpn; node n in domain n / npd,
  // rack n / npr, leaf n / npl. Shapes where racks and leaves straddle domains included.
  for (const ClusterShape& shape :
       {ClusterShape{"a", "X", 4, 18, 18, 9, 3}, ClusterShape{"b", "X", 8, 1, 4, 16, 13},
        ClusterShape{"c", "X", 4, 8, 3, 5, 7}, ClusterShape{"d", "X", 1, 1, 1, 1, 2},
        ClusterShape{"e", "X", 4, 2, 3, 5, 11, 2}, ClusterShape{"f", "X", 2, 1, 1, 1, 5, 1}}) {
    const Topology t(shape);
    const auto gpn = static_cast<std::uint32_t>(shape.gpus_per_node);
    // Nodes per component of each kind (a row: racks_per_row racks of nodes_per_rack nodes).
    const int nodes_per[] = {0,
                             1,
                             shape.nodes_per_domain,
                             shape.nodes_per_rack,
                             shape.nodes_per_leaf,
                             shape.nodes_per_rack * shape.racks_per_row,
                             0};
    for (std::uint32_t c = 0; c < t.components(); ++c) {
      const ComponentKind k = t.kind(c);
      std::vector<std::uint32_t> expected;
      for (std::uint32_t g = 0; g < t.gpus(); ++g) {
        const std::uint32_t node = g / gpn;
        const bool member =
            k == ComponentKind::Gpu ? g == t.index(c)
            : k == ComponentKind::Fleet
                ? true
                : node / static_cast<std::uint32_t>(nodes_per[static_cast<int>(k)]) == t.index(c);
        if (member) expected.push_back(g);
      }
      const GpuRange r = t.blast_radius(c);
      CHECK(std::vector<std::uint32_t>(r.begin(), r.end()) == expected);
    }
    for (std::uint32_t d = 0; d < t.domains(); ++d) {
      const GpuRange r = t.domain_gpus(d);
      CHECK(r.size() == t.gpus_per_domain());
      for (std::uint32_t g : r) CHECK(t.domain_of_gpu(g) == d);
    }
  }
}

TEST_CASE("the layout fills domains with TP groups and uses in-domain spares") {
  const Topology t(ClusterShape{"gb200-nvl72", "GB200", 4, 18, 18, 18, 4});
  ClusterHealth health(t);
  JobLayout layout(health, 64);
  CHECK(layout.retarget(3, {}) == 3);
  CHECK(layout.in_use_gpus() == 3 * 64);
  CHECK(layout.assigned(3) == 0);
  // A tray fails inside domain 0: its group loses 4 GPUs and refills from the 8 idle ones.
  std::vector<std::uint32_t> down;
  std::vector<GroupHit> hits;
  health.fail(*t.resolve("node/0"), &down);
  layout.release_down(down, &hits);
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].domain == 0);
  std::vector<std::uint32_t> d0{0};
  layout.refill_in_place(d0);
  CHECK(layout.assigned(0) == 1);
  CHECK(layout.in_use_gpus() == 3 * 64);
  // Two more trays: 60 healthy GPUs cannot hold TP64 any more; the group moves to domain 3.
  down.clear();
  health.fail(*t.resolve("node/1"), &down);
  health.fail(*t.resolve("node/2"), &down);
  layout.release_down(down, &hits);
  CHECK(layout.capacity(0) == 0);
  CHECK(layout.retarget(3, d0) == 3);
  CHECK(layout.assigned(0) == 0);
  CHECK(layout.assigned(3) == 1);
  for (std::uint32_t g : down) CHECK_FALSE(layout.in_use(g));
}
