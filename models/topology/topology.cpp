#include "models/topology/topology.hpp"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/pending/queue.hpp>
#include <charconv>
#include <stdexcept>

namespace goodput {

namespace {

// Edge u -> v: "u depends on v" (a node on its domain fabric, rack and leaf; a rack on its
// row; a row on the fleet). GPUs hang off
// their node (a node's radius is its gpus_per_node GPUs), so the graph holds the components
// from nodes up, vertex = component id - GPUs: compressed sparse rows with 32-bit indexes,
// built from the edge list in one pass (a few small arrays even at 1M GPUs).
using Graph = boost::compressed_sparse_row_graph<boost::bidirectionalS, boost::no_property,
                                                 boost::no_property, boost::no_property,
                                                 std::uint32_t, std::uint32_t>;

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) {
  return (a + b - 1) / b;
}

// Records the node vertices (the first `node_count`) reached by a traversal of the reversed
// graph.
struct NodeCollector : boost::default_bfs_visitor {
  std::uint32_t node_count;
  std::vector<std::uint32_t>* nodes;
  std::vector<std::uint32_t>* touched;
  template <class Vertex, class G>
  void discover_vertex(Vertex v, const G&) const {
    touched->push_back(static_cast<std::uint32_t>(v));
    if (v < node_count) nodes->push_back(static_cast<std::uint32_t>(v));
  }
};

}  // namespace

Topology::Topology(const ClusterShape& shape) : shape_(shape) {
  if (shape.gpus_per_node < 1 || shape.nodes_per_domain < 1 || shape.nodes_per_rack < 1 ||
      shape.nodes_per_leaf < 1 || shape.domains < 1 || shape.racks_per_row < 1)
    throw std::invalid_argument("Topology: every count must be positive");
  const auto nodes = static_cast<std::uint32_t>(shape.domains) * shape.nodes_per_domain;
  counts_[0] = nodes * static_cast<std::uint32_t>(shape.gpus_per_node);
  counts_[1] = nodes;
  counts_[2] = static_cast<std::uint32_t>(shape.domains);
  counts_[3] = ceil_div(nodes, static_cast<std::uint32_t>(shape.nodes_per_rack));
  counts_[4] = ceil_div(nodes, static_cast<std::uint32_t>(shape.nodes_per_leaf));
  counts_[5] = ceil_div(counts_[3], static_cast<std::uint32_t>(shape.racks_per_row));
  counts_[6] = 1;
  std::uint32_t total = 0;
  for (int k = 0; k < kComponentKinds; ++k) {
    first_[k] = total;
    total += counts_[k];
  }

  const std::uint32_t gpus = counts_[0], vertices = total - gpus;
  auto vertex = [&](ComponentKind k, std::uint32_t index) { return id(k, index) - gpus; };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(3 * static_cast<std::size_t>(nodes) + counts_[3] + counts_[5]);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const auto node = vertex(ComponentKind::Node, n);
    edges.emplace_back(node, vertex(ComponentKind::Domain, n / shape.nodes_per_domain));
    edges.emplace_back(node, vertex(ComponentKind::Rack, n / shape.nodes_per_rack));
    edges.emplace_back(node, vertex(ComponentKind::Leaf, n / shape.nodes_per_leaf));
  }
  for (std::uint32_t r = 0; r < counts_[3]; ++r)
    edges.emplace_back(vertex(ComponentKind::Rack, r),
                       vertex(ComponentKind::Row, r / shape.racks_per_row));
  for (std::uint32_t r = 0; r < counts_[5]; ++r)
    edges.emplace_back(vertex(ComponentKind::Row, r), vertex(ComponentKind::Fleet, 0));
  const Graph g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), vertices);

  // Blast radius of every component: the GPUs of the nodes reachable in the reversed
  // (dependents) graph. The numbering makes each one a contiguous range; anything else is a
  // construction bug.
  const auto reversed = boost::make_reverse_graph(g);
  radius_.assign(vertices, {0, 0});
  std::vector<std::uint32_t> found, touched;
  std::vector<boost::default_color_type> colors(vertices);
  const auto gpn = static_cast<std::uint32_t>(shape.gpus_per_node);
  for (std::uint32_t c = 0; c < vertices; ++c) {
    found.clear();
    touched.clear();
    // breadth_first_visit (unlike breadth_first_search) does not reset every vertex's colour,
    // so each traversal costs only its own subtree; `touched` restores white afterwards.
    boost::queue<Graph::vertex_descriptor> queue;
    boost::breadth_first_visit(reversed, c, queue, NodeCollector{{}, nodes, &found, &touched},
                               boost::make_iterator_property_map(
                                   colors.begin(), boost::get(boost::vertex_index, reversed)));
    for (auto v : touched) colors[v] = boost::white_color;  // ready for the next traversal
    if (found.empty()) continue;
    const auto [lo, hi] = std::minmax_element(found.begin(), found.end());
    if (*hi - *lo + 1 != found.size())
      throw std::logic_error("Topology: the blast radius of " + name(c + gpus) +
                             " is not contiguous");
    radius_[c] = {*lo * gpn, (*hi + 1) * gpn};
  }
  // Each domain's GPUs, by the dependency edges, must be the range domain_gpus() computes.
  for (std::uint32_t d = 0; d < counts_[2]; ++d) {
    const GpuRange r = blast_radius(id(ComponentKind::Domain, d));
    if (r.size() != gpus_per_domain() || r.front() != d * gpus_per_domain())
      throw std::logic_error("Topology: " + name(id(ComponentKind::Domain, d)) +
                             " does not hold the GPUs its index implies");
  }
}

ComponentKind Topology::kind(std::uint32_t component) const {
  for (int k = kComponentKinds - 1; k >= 0; --k)
    if (component >= first_[k]) return static_cast<ComponentKind>(k);
  return ComponentKind::Gpu;
}

std::string Topology::name(std::uint32_t component) const {
  return std::string(component_kind_name(kind(component))) + "/" + std::to_string(index(component));
}

std::optional<std::uint32_t> Topology::resolve(const std::string& name) const {
  const auto slash = name.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string k = name.substr(0, slash);
  for (int i = 0; i < kComponentKinds; ++i) {
    if (k != kComponentKindNames[i].name) continue;
    std::uint32_t idx = 0;
    const char* begin = name.data() + slash + 1;
    const char* end = name.data() + name.size();
    auto [p, ec] = std::from_chars(begin, end, idx);
    if (ec != std::errc() || p != end || begin == end || idx >= counts_[i]) return std::nullopt;
    return first_[i] + idx;
  }
  return std::nullopt;
}

}  // namespace goodput
