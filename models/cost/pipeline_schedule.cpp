#include "models/cost/pipeline_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace goodput {

namespace {

struct Op {
  bool fwd;
  int chunk, mb;
};

// Micro-batch groups: floor(m / pp) groups as even as possible (larger first), so every group
// holds at least pp micro-batches and no chunk waits for its own group to come round the
// pipeline; one group of m when m < pp. Megatron's groups of exactly pp when pp divides m.
std::vector<int> group_sizes(int m, int pp) {
  const int groups = std::max(1, m / pp);
  std::vector<int> g(groups, m / groups);
  for (int i = 0; i < m % groups; ++i) ++g[i];
  return g;
}

// Forward order of (chunk, micro-batch) on every device: each group through chunk 0, 1, ...,
// v-1 (Megatron's interleaved order; plain 1F1B when v = 1). Backward: chunks reversed.
std::vector<std::pair<int, int>> pass_order(int m, int pp, int v, bool fwd) {
  std::vector<std::pair<int, int>> out;
  out.reserve(static_cast<std::size_t>(m) * v);
  int first = 0;
  for (int size : group_sizes(m, pp)) {
    for (int c = 0; c < v; ++c)
      for (int mb = first; mb < first + size; ++mb) out.push_back({fwd ? c : v - 1 - c, mb});
    first += size;
  }
  return out;
}

// Device s: warm-up forwards, then one forward and one backward in turn, then the remaining
// backwards. Warm-up: pp - s - 1 (1F1B); 2 (pp - s - 1) + (v - 1) x the first group's size
// (interleaved).
std::vector<Op> device_ops(int s, int m, int pp, int v, int warmup_extra) {
  const auto f = pass_order(m, pp, v, true), b = pass_order(m, pp, v, false);
  const int total = m * v;
  const int base = v == 1 ? pp - s - 1 : 2 * (pp - s - 1) + (v - 1) * group_sizes(m, pp)[0];
  const int warmup = std::min(total, base + warmup_extra);
  std::vector<Op> ops;
  ops.reserve(2 * static_cast<std::size_t>(total));
  int nf = 0, nb = 0;
  for (; nf < warmup; ++nf) ops.push_back({true, f[nf].first, f[nf].second});
  while (nf < total) {
    ops.push_back({true, f[nf].first, f[nf].second});
    ++nf;
    ops.push_back({false, b[nb].first, b[nb].second});
    ++nb;
  }
  for (; nb < total; ++nb) ops.push_back({false, b[nb].first, b[nb].second});
  return ops;
}

// One pass of the dependency computation; < 0 when the fixed orders deadlock.
double simulate(const PipelineSpec& spec, int warmup_extra) {
  const int pp = static_cast<int>(spec.stages.size());
  const int v = spec.virtual_stages, m = spec.microbatches;
  const int vs_count = pp * v;
  std::vector<std::vector<Op>> ops(pp);
  for (int s = 0; s < pp; ++s) ops[s] = device_ops(s, m, pp, v, warmup_extra);
  auto idx = [&](int vs, int mb) { return static_cast<std::size_t>(vs) * m + mb; };
  std::vector<double> fend(static_cast<std::size_t>(vs_count) * m, -1), bend(fend.size(), -1);
  std::vector<std::size_t> next(pp, 0);
  std::vector<double> free_at(pp, 0);
  std::size_t left = 0;
  for (const auto& o : ops) left += o.size();
  while (left > 0) {
    bool progress = false;
    for (int s = 0; s < pp; ++s) {
      const StageTimes& st = spec.stages[s];
      while (next[s] < ops[s].size()) {
        const Op& op = ops[s][next[s]];
        const int vs = op.chunk * pp + s;
        const double scale = (op.mb == m - 1 ? spec.last_fraction : 1.0);
        double ready = 0;
        if (op.fwd) {
          if (vs > 0) {
            const double e = fend[idx(vs - 1, op.mb)];
            if (e < 0) break;
            ready = e + scale * spec.stages[(vs - 1) % pp].p2p_fwd_s;
          }
        } else if (vs < vs_count - 1) {
          const double e = bend[idx(vs + 1, op.mb)];
          if (e < 0) break;
          ready = e + scale * spec.stages[(vs + 1) % pp].p2p_bwd_s;
        }
        const double start = std::max(free_at[s], ready);
        const double end = start + scale * (op.fwd ? st.fwd_s : st.bwd_s) / v;
        (op.fwd ? fend : bend)[idx(vs, op.mb)] = end;
        free_at[s] = end;
        ++next[s];
        --left;
        progress = true;
      }
    }
    if (!progress) return -1;
  }
  double step = 0;
  for (int s = 0; s < pp; ++s) step = std::max(step, free_at[s] + spec.stages[s].tail_s);
  return step;
}

}  // namespace

double pipeline_step_s(const PipelineSpec& spec) {
  if (spec.stages.empty()) throw std::invalid_argument("pipeline: no stages");
  if (spec.microbatches < 1) throw std::invalid_argument("pipeline: microbatches must be >= 1");
  if (spec.virtual_stages < 1) throw std::invalid_argument("pipeline: virtual_stages must be >= 1");
  if (!(spec.last_fraction > 0 && spec.last_fraction <= 1))
    throw std::invalid_argument("pipeline: last_fraction must be in (0, 1]");
  // The schedule's warm-up never deadlocks when m is a multiple of pp; with a partial last
  // group a device may need more warm-up forwards (one more at a time until it runs).
  const int total = spec.microbatches * spec.virtual_stages;
  for (int extra = 0; extra <= total; ++extra) {
    const double t = simulate(spec, extra);
    if (t >= 0) return t;
  }
  throw std::logic_error("pipeline: schedule deadlocked");  // all-forwards-first never does
}

}  // namespace goodput
