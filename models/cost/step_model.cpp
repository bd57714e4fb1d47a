#include "models/cost/step_model.hpp"

#include <algorithm>

namespace goodput {

namespace {

constexpr double kCausal = 0.5;            // causal masking skips half of the score/context work
constexpr double kBf16 = 2.0;              // bytes per activation / gradient element
constexpr double kAdamBytesPerParam = 32;  // fp32 master, m, v read+write; grad read; bf16 write
constexpr double kDatasheetHbmEfficiency = 0.8;

double ring_s(double bytes, int ranks, double bandwidth) {
  return ranks <= 1 ? 0.0 : (ranks - 1.0) / ranks * bytes / bandwidth;
}

}  // namespace

StepSetup step_setup(const Scenario& s, const calib::ModelShape& shape,
                     const calib::Profile& profile) {
  StepSetup st;
  st.shape = shape;
  const Json& m = s.job.model;
  st.layers = m["layers"].get<double>();
  st.vocab = m.contains("vocab") ? m["vocab"].get<double>() : 0.0;
  st.tp = s.job.tp;
  st.pp = s.job.pp;
  st.dp = s.job.dp;
  st.microbatches = s.job.microbatches;
  st.virtual_stages = s.job.virtual_stages;
  st.recompute = s.job.recompute;
  st.sequence_parallel = s.job.sequence_parallel;
  st.nvlink_Bps = (s.cost.nvlink_gbps > 0 ? s.cost.nvlink_gbps : s.gpu.nvlink_gbps) * 1e9;
  st.scaleout_Bps = s.cost.scaleout_gbps * 1e9;
  st.hbm_Bps = calib::copy_ceiling_gbps(profile) * 1e9 *
               (profile.ceilings.kind == "datasheet" ? kDatasheetHbmEfficiency : 1.0);
  st.dp_overlap = s.cost.dp_overlap;
  st.peak_flops = calib::gemm_ceiling_tflops(profile) * 1e12;
  return st;
}

double LayerBreakdown::compute_fwd_s() const {
  double t = attention.fwd_s + elementwise.fwd_s;
  for (const Term& g : gemms) t += g.fwd_s;
  return t;
}

double LayerBreakdown::compute_bwd_s() const {
  double t = attention.bwd_s + elementwise.bwd_s + recompute_compute_s;
  for (const Term& g : gemms) t += g.bwd_s;
  return t;
}

LayerBreakdown layer_breakdown(const StepSetup& st, const calib::Profile& profile, int t) {
  const calib::ModelShape& sh = st.shape;
  LayerBreakdown b;
  for (const calib::GemmQuery& q : calib::layer_gemms(sh, t)) {
    const double time = calib::gemm_time_s(profile, q);
    Term* term = nullptr;
    if (q.name == "attention") {
      term = &b.attention;
    } else {
      auto it = std::find_if(b.gemms.begin(), b.gemms.end(),
                             [&](const Term& g) { return g.name == q.name; });
      if (it == b.gemms.end()) {
        b.gemms.push_back({q.name, 0, 0});
        it = b.gemms.end() - 1;
      }
      term = &*it;
    }
    const double scale = q.name == "attention" ? kCausal : 1.0;
    (q.pass == calib::Pass::fwd ? term->fwd_s : term->bwd_s) += scale * time;
  }
  b.attention.name = "attention (causal)";

  const double tokens = static_cast<double>(sh.tokens());
  const double h = sh.hidden;
  const double act = kBf16 * tokens * h;  // one activation tensor of the micro-batch
  const double act_local = st.sequence_parallel ? act / t : act;
  const double ffn_local = static_cast<double>(calib::ffn_local(sh, t));
  // norms: read + write; residual adds: 2 reads + 1 write; MLP activation on the local FFN slice.
  const double mlp_act = kBf16 * tokens * ffn_local * (sh.gated_mlp ? 3.0 : 2.0);
  const double elem_bytes = 2 * 2 * act_local + 2 * 3 * act_local + mlp_act;
  b.elementwise = {"element-wise (norms, residuals, activation)", elem_bytes / st.hbm_Bps,
                   2 * elem_bytes / st.hbm_Bps};

  // Two collectives of one activation per direction (all-reduce, or RS + AG: the same bytes).
  const double coll = 2 * ring_s(act, t, st.nvlink_Bps);
  b.tp_comm = {st.sequence_parallel ? "TP reduce-scatter + all-gather" : "TP all-reduce", 2 * coll,
               2 * coll};

  if (st.recompute == Recompute::Selective) {
    b.recompute_compute_s = b.attention.fwd_s;
  } else if (st.recompute == Recompute::Full) {
    b.recompute_compute_s = b.compute_fwd_s();
    b.recompute_comm_s = b.tp_comm.fwd_s;
  }

  // Model FLOPs per GPU (even split: what MFU divides by).
  const double d = sh.head_dim();
  const double params = h * (sh.heads * d + 2.0 * sh.kv_heads * d) + sh.heads * d * h +
                        h * sh.ffn * (sh.gated_mlp ? 2.0 : 1.0) + sh.ffn * h;
  const double attn =
      6.0 * sh.micro_batch * static_cast<double>(sh.seq_len) * sh.seq_len * h;  // causal
  b.model_flops = (6.0 * params * tokens + attn) / st.tp;
  return b;
}

StageBreakdown stage_breakdown(const StepSetup& st, const calib::Profile& profile, int t,
                               bool last_stage) {
  const calib::ModelShape& sh = st.shape;
  StageBreakdown s;
  s.degree = t;
  s.layers = st.layers / st.pp;
  s.layer = layer_breakdown(st, profile, t);
  const double tokens = static_cast<double>(sh.tokens());
  const double h = sh.hidden;
  if (last_stage && st.vocab > 0) {
    const auto v_local = calib::ceil_div(static_cast<std::int64_t>(st.vocab), t);
    const std::int64_t tk = sh.tokens();
    const double fwd =
        calib::gemm_time_s(profile, {"lm_head", calib::Pass::fwd, tk, v_local, sh.hidden, 1, "TN"});
    const double bwd =
        calib::gemm_time_s(profile,
                           {"lm_head", calib::Pass::bwd_data, tk, sh.hidden, v_local, 1, "NN"}) +
        calib::gemm_time_s(profile,
                           {"lm_head", calib::Pass::bwd_weight, v_local, sh.hidden, tk, 1, "NT"});
    // Softmax cross-entropy: read the logits, write their gradient.
    const double loss = 2 * kBf16 * tokens * static_cast<double>(v_local) / st.hbm_Bps;
    s.head = {"LM head + loss", fwd + loss / 2, bwd + loss / 2};
    s.head_flops = 6.0 * tokens * h * st.vocab / st.tp;
  }
  s.p2p_s = kBf16 * tokens * h / t / st.scaleout_Bps;
  const double d = sh.head_dim();
  const double layer_params = h * (sh.heads * d + 2.0 * sh.kv_heads * d) + sh.heads * d * h +
                              h * sh.ffn * (sh.gated_mlp ? 2.0 : 1.0) + sh.ffn * h;
  s.params_per_gpu = (s.layers * layer_params + (last_stage ? st.vocab * h : 0.0)) / t;
  const double grad_bytes = kBf16 * s.params_per_gpu;
  s.dp_sync_s = 2 * ring_s(grad_bytes, st.dp, st.scaleout_Bps);  // reduce-scatter + all-gather
  s.dp_exposed_s = (1 - st.dp_overlap) * s.dp_sync_s;
  s.optimizer_s = kAdamBytesPerParam * s.params_per_gpu / std::max(1, st.dp) / st.hbm_Bps;
  return s;
}

double step_model_flops_per_gpu(const StepSetup& st, const StageBreakdown& mid,
                                const StageBreakdown& last) {
  return st.microbatches * ((st.pp - 1) * mid.model_flops() + last.model_flops()) / st.pp;
}

StageTimes StageBreakdown::times(double speed) const {
  StageTimes t;
  t.fwd_s = compute_fwd_s() / speed + comm_fwd_s();
  t.bwd_s = compute_bwd_s() / speed + comm_bwd_s();
  t.p2p_fwd_s = p2p_s;
  t.p2p_bwd_s = p2p_s;
  t.tail_s = dp_exposed_s + optimizer_s;
  return t;
}

}  // namespace goodput
