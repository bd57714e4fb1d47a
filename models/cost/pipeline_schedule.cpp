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
void pass_order(int m, int pp, int v, bool fwd, std::vector<std::pair<int, int>>& out) {
  out.clear();
  out.reserve(static_cast<std::size_t>(m) * v);
  int first = 0;
  for (int size : group_sizes(m, pp)) {
    for (int c = 0; c < v; ++c)
      for (int mb = first; mb < first + size; ++mb) out.push_back({fwd ? c : v - 1 - c, mb});
    first += size;
  }
}

// One evaluation's buffers, kept per thread so that repeated evaluations (a cost model's
// bisections) allocate nothing once warm.
struct Scratch {
  std::vector<std::pair<int, int>> f, b;  // forward / backward order (the same on every device)
  std::vector<Op> ops;                    // every device's ops, device after device
  std::vector<std::size_t> begin;         // device s: ops[begin[s], begin[s + 1])
  std::vector<double> fend, bend, free_at;
  std::vector<std::size_t> next;
};

// Device s: warm-up forwards, then one forward and one backward in turn, then the remaining
// backwards. Warm-up: pp - s - 1 (1F1B); 2 (pp - s - 1) + (v - 1) x the first group's size
// (interleaved).
void device_ops(int s, int m, int pp, int v, int warmup_extra, int first_group, Scratch& k) {
  const auto& f = k.f;
  const auto& b = k.b;
  const int total = m * v;
  const int base = v == 1 ? pp - s - 1 : 2 * (pp - s - 1) + (v - 1) * first_group;
  const int warmup = std::min(total, base + warmup_extra);
  int nf = 0, nb = 0;
  for (; nf < warmup; ++nf) k.ops.push_back({true, f[nf].first, f[nf].second});
  while (nf < total) {
    k.ops.push_back({true, f[nf].first, f[nf].second});
    ++nf;
    k.ops.push_back({false, b[nb].first, b[nb].second});
    ++nb;
  }
  for (; nb < total; ++nb) k.ops.push_back({false, b[nb].first, b[nb].second});
}

// One pass of the dependency computation; < 0 when the fixed orders deadlock.
double simulate(const PipelineSpec& spec, int warmup_extra, Scratch& k) {
  const int pp = static_cast<int>(spec.stages.size());
  const int v = spec.virtual_stages, m = spec.microbatches;
  const int vs_count = pp * v;
  const int first_group = group_sizes(m, pp)[0];
  k.ops.clear();
  k.ops.reserve(2 * static_cast<std::size_t>(m) * v * pp);
  k.begin.assign(static_cast<std::size_t>(pp) + 1, 0);
  for (int s = 0; s < pp; ++s) {
    device_ops(s, m, pp, v, warmup_extra, first_group, k);
    k.begin[static_cast<std::size_t>(s) + 1] = k.ops.size();
  }
  auto idx = [&](int vs, int mb) { return static_cast<std::size_t>(vs) * m + mb; };
  k.fend.assign(static_cast<std::size_t>(vs_count) * m, -1);
  k.bend.assign(k.fend.size(), -1);
  k.next.assign(k.begin.begin(), k.begin.end() - 1);
  k.free_at.assign(static_cast<std::size_t>(pp), 0);
  auto& fend = k.fend;
  auto& bend = k.bend;
  auto& next = k.next;
  auto& free_at = k.free_at;
  std::size_t left = k.ops.size();
  for (int pass = 0; left > 0; ++pass) {
    bool progress = false;
    for (int i = 0; i < pp; ++i) {
      // Forward sweeps follow the forward passes down the pipeline, backward ones the backward
      // passes up it, so a wave crosses it in one sweep (pp in the hundreds: many fewer
      // sweeps). Each op's end depends only on its inputs: the order changes no result.
      const int s = pass % 2 == 0 ? i : pp - 1 - i;
      const StageTimes& st = spec.stages[s];
      const std::size_t end = k.begin[static_cast<std::size_t>(s) + 1];
      while (next[s] < end) {
        const Op& op = k.ops[next[s]];
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
        const double end_t = start + scale * (op.fwd ? st.fwd_s : st.bwd_s) / v;
        (op.fwd ? fend : bend)[idx(vs, op.mb)] = end_t;
        free_at[s] = end_t;
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
  if (schedule_ops(spec.stages.size(), spec.microbatches, spec.virtual_stages) > kMaxScheduleOps)
    throw std::invalid_argument("pipeline: more than kMaxScheduleOps ops");
  thread_local Scratch scratch;
  pass_order(spec.microbatches, static_cast<int>(spec.stages.size()), spec.virtual_stages, true,
             scratch.f);
  pass_order(spec.microbatches, static_cast<int>(spec.stages.size()), spec.virtual_stages, false,
             scratch.b);
  const int total = spec.microbatches * spec.virtual_stages;
  for (int extra = 0; extra <= total; ++extra) {
    const double t = simulate(spec, extra, scratch);
    if (t >= 0) return t;
  }
  throw std::logic_error("pipeline: schedule deadlocked");  // all-forwards-first never does
}

}  // namespace goodput
