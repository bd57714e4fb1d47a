#include "models/failures/failure_generator.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/engine/random.hpp"

namespace goodput {

namespace {

bool lemon_applies(ComponentKind scope) {
  return scope == ComponentKind::Gpu || scope == ComponentKind::Node;
}

double draw_repair_hours(const RepairSpec& r, double restart_s, RandomStream& rng) {
  switch (r.kind) {
    case RepairSpec::Kind::Restart:
      return restart_s / 3600.0;
    case RepairSpec::Kind::Fixed:
      return r.modes.front().median_hours;
    case RepairSpec::Kind::Lognormal: {
      const auto& m = r.modes.front();
      return m.sigma > 0 ? rng.lognormal(m.median_hours, m.sigma) : m.median_hours;
    }
    case RepairSpec::Kind::Mixture: {
      double total = 0;
      for (const auto& m : r.modes) total += m.weight;
      double u = rng.uniform() * total;
      for (const auto& m : r.modes) {
        if (u < m.weight || &m == &r.modes.back())
          return m.sigma > 0 ? rng.lognormal(m.median_hours, m.sigma) : m.median_hours;
        u -= m.weight;
      }
    }
  }
  return 0;
}

double mode_mean_hours(const RepairMode& m) {
  return m.median_hours * std::exp(m.sigma * m.sigma / 2);  // a lognormal's mean
}

}  // namespace

double expected_repair_hours(const FailureSpec& spec, const RepairSpec& r, double restart_s) {
  double once = 0;
  switch (r.kind) {
    case RepairSpec::Kind::Restart:
      once = restart_s / 3600.0;
      break;
    case RepairSpec::Kind::Fixed:
      once = r.modes.empty() ? 0 : r.modes.front().median_hours;
      break;
    case RepairSpec::Kind::Lognormal:
      once = r.modes.empty() ? 0 : mode_mean_hours(r.modes.front());
      break;
    case RepairSpec::Kind::Mixture: {
      double total = 0, sum = 0;
      for (const auto& m : r.modes) {
        total += m.weight;
        sum += m.weight * mode_mean_hours(m);
      }
      once = total > 0 ? sum / total : 0;
      break;
    }
  }
  // A failed repair is redone with probability p each time: 1 / (1 - p) repairs on average.
  const double p = std::clamp(spec.repair_failure_probability, 0.0, 0.999999);
  return once / (1 - p);
}

namespace {

// The lemon node a fault lands on, if any (GPU and node faults; other scopes are not lemons).
std::optional<std::uint32_t> lemon_node(const Topology& topology,
                                        const std::vector<std::uint8_t>& is_lemon, const Fault& f) {
  const ComponentKind k = topology.kind(f.component);
  if (k != ComponentKind::Gpu && k != ComponentKind::Node) return std::nullopt;
  const std::uint32_t i = topology.index(f.component);
  const std::uint32_t node =
      k == ComponentKind::Gpu ? i / static_cast<std::uint32_t>(topology.shape().gpus_per_node) : i;
  if (!is_lemon[node]) return std::nullopt;
  return node;
}

// In time order: a fault on a cured lemon is kept at the normal rate (1 / multiplier); a kept
// fault on an uncured lemon cures it at its end with lemon_heal_probability.
void heal_lemons(const FailureSpec& spec, const Topology& topology,
                 const std::vector<std::uint8_t>& is_lemon, std::uint64_t seed, std::uint64_t run,
                 FaultList& out) {
  RandomStream heal(seed, run, stream_id("lemon-heal"));
  std::vector<Time> cured_at(is_lemon.size(), kTimeInfinity);
  std::vector<Fault> kept;
  kept.reserve(out.faults.size());
  for (const Fault& f : out.faults) {
    const auto node = lemon_node(topology, is_lemon, f);
    if (!node) {
      kept.push_back(f);
      continue;
    }
    if (cured_at[*node] <= f.start) {
      if (heal.uniform() * spec.lemon_rate_multiplier < 1) kept.push_back(f);
      continue;
    }
    kept.push_back(f);
    if (heal.uniform() < spec.lemon_heal_probability)
      cured_at[*node] = std::min(cured_at[*node], f.end);
  }
  out.faults = std::move(kept);
}

}  // namespace

std::uint64_t stream_id(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

double class_rate_per_hour(const FailureSpec& spec, const FailureClassSpec& c,
                           const Topology& topology) {
  if (c.mtbf_hours <= 0 || spec.rate_scale <= 0) return 0;
  const double n = topology.count(c.scope);
  const double lemon =
      lemon_applies(c.scope) ? 1 + spec.lemon_fraction * (spec.lemon_rate_multiplier - 1) : 1;
  return spec.rate_scale * n * lemon / c.mtbf_hours;
}

FaultList generate_faults(const FailureSpec& spec, const Topology& topology, Time horizon,
                          double restart_s, std::uint64_t seed, std::uint64_t run,
                          std::span<const std::uint8_t> idle) {
  FaultList out;
  const std::uint32_t nodes = topology.count(ComponentKind::Node);
  const std::uint32_t gpn = static_cast<std::uint32_t>(topology.shape().gpus_per_node);

  // Lemon nodes: a per-seed choice, independent of the classes.
  std::vector<std::uint8_t> is_lemon(nodes, 0);
  std::vector<std::uint32_t> lemons;
  if (spec.lemon_fraction > 0) {
    RandomStream pick(seed, run, stream_id("lemon-nodes"));
    const auto want = static_cast<std::uint32_t>(std::llround(spec.lemon_fraction * nodes));
    while (lemons.size() < std::min(want, nodes)) {
      const auto n = static_cast<std::uint32_t>(pick.below(nodes));
      if (!is_lemon[n]) {
        is_lemon[n] = 1;
        lemons.push_back(n);
      }
    }
    std::sort(lemons.begin(), lemons.end());
  }

  for (std::size_t ci = 0; ci < spec.classes.size(); ++ci) {
    const FailureClassSpec& c = spec.classes[ci];
    const bool slow = c.kind == FailureClassSpec::Kind::Slow;
    out.classes.push_back({c.name, c.repair.kind == RepairSpec::Kind::Restart, slow,
                           slow ? from_seconds(c.detection_s) : Time{0}});
    const double total_rate = class_rate_per_hour(spec, c, topology);
    if (total_rate <= 0) continue;
    const std::uint64_t sid = stream_id("class:" + c.name);
    RandomStream arrivals(seed, run, sid), choose(seed, run, sid + 1), repair(seed, run, sid + 2),
        correlate(seed, run, sid + 3), thin(seed, run, sid + 4), redo(seed, run, sid + 5),
        slowness(seed, run, sid + 6);
    // A slow fault's factor: fixed, or uniform in [slowdown, slowdown_max] to 0.01 (so the cost
    // model's caches see a bounded set of factors).
    auto slowdown = [&]() -> float {
      if (!slow) return 0.0f;
      if (c.slowdown_max <= c.slowdown) return static_cast<float>(c.slowdown);
      const double x = c.slowdown + slowness.uniform() * (c.slowdown_max - c.slowdown);
      return static_cast<float>(std::round(x * 100) / 100);
    };
    const bool thinning = spec.idle_rate_scale < 1 && !idle.empty();
    auto keep = [&](std::uint32_t component) {  // idle hardware fails at idle_rate_scale x the rate
      return !thinning || !idle[component] || thin.uniform() < spec.idle_rate_scale;
    };
    const std::uint32_t n = topology.count(c.scope);
    const bool lemon_scope = lemon_applies(c.scope) && !lemons.empty();
    const double per_node_units = c.scope == ComponentKind::Gpu ? gpn : 1;
    const double lemon_units =
        lemon_scope ? static_cast<double>(lemons.size()) * per_node_units : 0;
    const double lemon_share =
        lemon_scope ? lemon_units * spec.lemon_rate_multiplier /
                          (lemon_units * spec.lemon_rate_multiplier + (n - lemon_units))
                    : 0;
    const double mean_gap_h = 1.0 / total_rate;
    const double weibull_scale =
        spec.weibull ? mean_gap_h / std::tgamma(1.0 + 1.0 / spec.weibull_shape) : 0;
    double t_h = 0;
    while (true) {
      t_h += spec.weibull ? arrivals.weibull(spec.weibull_shape, weibull_scale)
                          : arrivals.exponential(mean_gap_h);
      const Time start = from_hours(t_h);
      if (start >= horizon) break;
      std::uint32_t index;
      if (lemon_scope && choose.uniform() < lemon_share) {
        const std::uint32_t node = lemons[choose.below(lemons.size())];
        index = c.scope == ComponentKind::Gpu
                    ? node * gpn + static_cast<std::uint32_t>(choose.below(gpn))
                    : node;
      } else {
        do {
          index = static_cast<std::uint32_t>(choose.below(n));
        } while (lemon_scope && is_lemon[c.scope == ComponentKind::Gpu ? index / gpn : index]);
      }
      double hours = draw_repair_hours(c.repair, restart_s, repair);
      if (spec.repair_failure_probability > 0)
        while (redo.uniform() < spec.repair_failure_probability)
          hours += draw_repair_hours(c.repair, restart_s, redo);
      if (c.repair.kind != RepairSpec::Kind::Restart) hours *= spec.repair_scale;
      const Time end = add_saturating(start, std::max<Time>(1, from_hours(hours)));
      const auto cls = static_cast<std::uint32_t>(ci);
      const float factor = slowdown();
      if (keep(topology.id(c.scope, index)))
        out.faults.push_back({start, end, topology.id(c.scope, index), cls, factor});
      if (c.scope == ComponentKind::Node && spec.correlated_fraction > 0 &&
          correlate.uniform() < spec.correlated_fraction) {
        for (int k = 1; k < spec.correlated_nodes; ++k) {
          const std::uint32_t other = (index + static_cast<std::uint32_t>(k)) % n;
          if (keep(topology.id(c.scope, other)))
            out.faults.push_back({start, end, topology.id(c.scope, other), cls, factor});
        }
      }
    }
  }
  std::sort(out.faults.begin(), out.faults.end(), [](const Fault& a, const Fault& b) {
    return a.start != b.start ? a.start < b.start : a.component < b.component;
  });
  if (spec.lemon_heal_probability > 0 && !lemons.empty())
    heal_lemons(spec, topology, is_lemon, seed, run, out);
  return out;
}

}  // namespace goodput
