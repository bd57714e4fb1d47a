#include "calibrate/profile/plan.hpp"

#include <algorithm>
#include <tuple>

#include "calibrate/profile/reshard_map.hpp"

namespace goodput::calib {
namespace {

void add_gemm(CalibrationPlan& plan, const std::string& model, int tp, const GemmQuery& q) {
  for (GemmJob& job : plan.gemm) {
    const GemmQuery& o = job.query;
    if (job.model == model && o.name == q.name && o.pass == q.pass && o.m == q.m && o.n == q.n &&
        o.k == q.k && o.batch == q.batch) {
      job.tp.push_back(tp);
      return;
    }
  }
  plan.gemm.push_back({model, {tp}, q});
}

void add_attention(CalibrationPlan& plan, const std::string& model, int tp,
                   const AttentionQuery& q) {
  for (AttentionJob& job : plan.attention) {
    const AttentionQuery& o = job.query;
    if (job.model == model &&
        std::tie(o.pass, o.batch, o.heads, o.kv_heads, o.seq_len, o.head_dim) ==
            std::tie(q.pass, q.batch, q.heads, q.kv_heads, q.seq_len, q.head_dim)) {
      job.tp.push_back(tp);
      return;
    }
  }
  plan.attention.push_back({model, {tp}, q});
}

// The rank of `role` with the largest payload for a kernel.
template <class BlocksOf>
std::pair<int, std::int64_t> busiest(int first, int last, BlocksOf blocks_of) {
  int best = first;
  std::int64_t best_elems = -1;
  for (int r = first; r < last; ++r) {
    const std::int64_t e = payload_elems(blocks_of(r));
    if (e > best_elems) {
      best = r;
      best_elems = e;
    }
  }
  return {best, best_elems};
}

void add_reshard(CalibrationPlan& plan, int n1, int n2, std::int64_t cols, std::int64_t rows) {
  const ReshardPlan rp = make_reshard_plan(cols, n1, n2);
  auto job = [&](const char* kernel, const char* role, std::pair<int, std::int64_t> rank_elems) {
    ReshardJob j{
        n1, n2, cols, rows, kernel, role, rank_elems.first, rank_elems.second * kGradElemBytes};
    for (const ReshardJob& o : plan.reshard) {
      if (std::tie(o.n1, o.n2, o.cols, o.rows, o.kernel, o.role) ==
          std::tie(j.n1, j.n2, j.cols, j.rows, j.kernel, j.role)) {
        return;
      }
    }
    plan.reshard.push_back(j);
  };
  const auto extra = busiest(n2, n1, [&](int r) { return pack_at_extra(rp, r, rows); });
  const auto core = busiest(0, n2, [&](int r) { return unpack_at_core(rp, r, rows); });
  job("pack", "extra", extra);  // before the all-reduce: gather
  job("unpack", "core", core);
  job("pack", "core", core);  // after: scatter back
  job("unpack", "extra", extra);
  job("d2d", "any", extra);  // contiguous copy of the same payload, for reference
}

}  // namespace

std::vector<std::int64_t> reshard_matrix_cols(const ModelShape& s) {
  const std::int64_t d = s.head_dim();
  const std::int64_t qkv = (std::int64_t{s.heads} + 2 * std::int64_t{s.kv_heads}) * d;
  const std::int64_t up = std::int64_t{s.ffn} * (s.gated_mlp ? 2 : 1);
  return {qkv, up};
}

CalibrationPlan make_plan(const std::vector<ProfiledModel>& models, bool quick) {
  CalibrationPlan plan;
  for (const ProfiledModel& m : models) {
    std::vector<int> degrees;
    for (int t = m.tp_max; t >= m.tp_min; --t) {
      if (!quick || t == m.tp_max || t == m.tp_min) degrees.push_back(t);
    }
    for (int t : degrees) {
      for (const GemmQuery& q : layer_gemms(m.shape, t)) add_gemm(plan, m.shape.name, t, q);
      for (Pass pass : {Pass::fwd, Pass::bwd_data})
        add_attention(plan, m.shape.name, t, attention_call(m.shape, t, pass));
    }
    const std::vector<std::int64_t> cols = reshard_matrix_cols(m.shape);
    for (int n2 = m.tp_max - 1; n2 >= m.tp_min; --n2) {
      if (quick && n2 != m.tp_min) continue;
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (quick && i + 1 != cols.size()) continue;
        if (cols[i] >= m.tp_max) add_reshard(plan, m.tp_max, n2, cols[i], m.shape.hidden);
      }
    }
    for (MemoryKernelJob& j : memory_kernel_jobs(m)) plan.memory_kernels.push_back(std::move(j));
  }
  return plan;
}

GemmEntry entry_of(const GemmJob& job) {
  const GemmQuery& q = job.query;
  GemmEntry e;
  e.model = job.model;
  e.tp = job.tp;
  e.name = q.name;
  e.pass = q.pass;
  e.m = q.m;
  e.n = q.n;
  e.k = q.k;
  e.batch = q.batch;
  e.layout = q.layout;
  return e;
}

AttentionEntry entry_of(const AttentionJob& job) {
  const AttentionQuery& q = job.query;
  AttentionEntry e;
  e.model = job.model;
  e.tp = job.tp;
  e.pass = q.pass;
  e.batch = q.batch;
  e.heads = q.heads;
  e.kv_heads = q.kv_heads;
  e.seq_len = q.seq_len;
  e.head_dim = q.head_dim;
  return e;
}

ReshardEntry entry_of(const ReshardJob& job) {
  ReshardEntry e;
  e.n1 = job.n1;
  e.n2 = job.n2;
  e.cols = job.cols;
  e.rows = job.rows;
  e.bytes = job.bytes;
  e.kernel = job.kernel;
  e.role = job.role;
  return e;
}

}  // namespace goodput::calib
