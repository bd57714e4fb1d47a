#include "models/cost/step_model.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "models/scenario/stage_layers.hpp"

namespace goodput {

namespace {

constexpr double kBf16 = 2.0;  // bytes per activation / gradient element
constexpr double kAdamBytesPerParam = calib::kAdamBytesPerParam;  // memory_kernels.hpp: 28
constexpr double kClipBytesPerParam = 12;  // norm: read the fp32 gradient; scale: read + write

double ring_s(double bytes, int ranks, double bandwidth) {
  return ranks <= 1 ? 0.0 : (ranks - 1.0) / ranks * bytes / bandwidth;
}

// A memory-bound kernel the profile may have measured: forward `bytes`, backward
// `bwd_factor` x as many, each priced by the profile's lookup (measured entries, the analytical
// profile's datasheet entries, else the copy ceiling), with that source.
Term measured_kernel(const calib::Profile& p, std::string name, calib::MemoryKernel kernel,
                     double bytes, double bwd_factor) {
  const calib::MemoryKernelTime f = calib::memory_kernel_time(p, kernel, bytes);
  const calib::MemoryKernelTime b =
      bwd_factor == 1.0 ? f : calib::memory_kernel_time(p, kernel, bwd_factor * bytes);
  const std::string k(calib::to_string(kernel));
  char buf[220];
  if (f.source == calib::MemoryKernelSource::measured)
    std::snprintf(buf, sizeof buf, "profile measurement of %s (%.0f GB/s at this size)", k.c_str(),
                  f.gbps);
  else if (f.source == calib::MemoryKernelSource::datasheet)
    std::snprintf(buf, sizeof buf,
                  "analytical profile's %s entries: datasheet HBM x 0.8 + launch (%.0f GB/s at "
                  "this size)",
                  k.c_str(), f.gbps);
  else
    std::snprintf(buf, sizeof buf, "no %s entry in the profile: its copy ceiling (%.0f GB/s)",
                  k.c_str(), f.gbps);
  return {std::move(name), f.time_s, b.time_s, buf};
}

// Where the attention term's number came from (calib::attention_time's source), with the
// FLOP/s it ran at (goodput's causal FLOP count: forward 2 s^2 d per head, backward 2x).
std::string attention_source(const calib::Profile& p, const calib::AttentionTime& f,
                             const calib::AttentionTime& b) {
  char rates[96];
  std::snprintf(rates, sizeof rates, "%.0f / %.0f TFLOP/s fwd / bwd", f.tflops, b.tflops);
  const std::string device = calib::device_name(p);
  switch (f.source) {
    case calib::AttentionSource::measured_fused:
      return "profile measurement of fused causal attention (cuDNN SDPA, " + device + "): " + rates;
    case calib::AttentionSource::measured_gemm_tiles:
      return "profile measurement of causal attention as cuBLAS GEMMs over the unmasked tiles "
             "(no fused-attention entry; " +
             device + "): " + rates;
    case calib::AttentionSource::flash_efficiency: {
      const calib::FlashAttentionModel& m = *p.settings.analytical_model->flash_attention;
      char eff[96];
      std::snprintf(eff, sizeof eff, "x %.3g fwd / %.3g bwd", m.fwd_efficiency, m.bwd_efficiency);
      return "datasheet BF16 peak of " + device + " " + eff +
             " (flash-attention efficiency, causal FLOPs): " + rates + "; " + m.source;
    }
    case calib::AttentionSource::gemm_curve:
      break;
  }
  return "datasheet roofline of " + device +
         " (analytical profile without a flash-attention efficiency): half of the QK^T/PV GEMMs "
         "(causal): " +
         rates;
}

std::string gbps(double Bps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f GB/s", Bps / 1e9);
  return buf;
}

}  // namespace

double StepSetup::layers() const {
  return std::accumulate(stage_layers.begin(), stage_layers.end(), 0.0);
}

StepSetup step_setup(const Scenario& s, const calib::ModelShape& shape,
                     const calib::Profile& profile) {
  StepSetup st;
  st.shape = shape;
  const Json& m = s.job.model;
  st.vocab = m.contains("vocab") ? m["vocab"].get<double>() : 0.0;
  st.stage_layers = stage_layers(s);
  st.rotary = !m.contains("rotary") || m["rotary"].get<bool>();
  st.dropout = m.contains("dropout") && m["dropout"].get<bool>();
  st.tp = s.job.tp;
  st.pp = s.job.pp;
  st.dp = s.job.dp;
  st.cp = s.job.cp;
  st.microbatches = s.job.microbatches;
  st.virtual_stages = s.job.virtual_stages;
  st.recompute = s.job.recompute;
  st.sequence_parallel = s.job.sequence_parallel;
  st.nvlink_Bps = (s.cost.nvlink_gbps > 0 ? s.cost.nvlink_gbps : s.gpu.nvlink_gbps) * 1e9;
  st.nvlink_source =
      "domain fabric " + gbps(st.nvlink_Bps) + " per GPU each way (" +
      (s.cost.nvlink_gbps > 0 ? std::string("/cost/nvlink_gbps") : s.gpu.nvlink_source) + "), ring";
  st.scaleout_Bps = s.cost.scaleout_gbps * 1e9;
  st.scaleout_source = "scale-out " + gbps(st.scaleout_Bps) + " per GPU (/cost/scaleout_gbps)";
  // A CP ring inside the domain runs over its fabric, one that spans domains over scale-out.
  const bool cp_in_domain = s.job.tp * s.job.cp <= s.cluster.gpus_per_domain();
  st.cp_Bps = cp_in_domain ? st.nvlink_Bps : st.scaleout_Bps;
  st.cp_source = (cp_in_domain ? st.nvlink_source : st.scaleout_source) +
                 "; ring attention, K and V chunks over cp - 1 hops, overlapped with attention";
  const double efficiency = calib::copy_efficiency(profile);
  st.hbm_Bps = calib::copy_ceiling_gbps(profile) * 1e9 * efficiency;
  char share[16];
  std::snprintf(share, sizeof share, "%g", efficiency);
  st.hbm_source =
      profile.ceilings.kind == "datasheet"
          ? "datasheet HBM bandwidth x " + std::string(share) + " achievable (assumption), " +
                gbps(st.hbm_Bps) + ", bytes read + written"
          : "measured copy bandwidth " + gbps(st.hbm_Bps) + " (profile), bytes read + written";
  st.gemm_source =
      profile.source == calib::Source::measured
          ? "measured GEMM time (profile: " + calib::device_name(profile) + ")"
          : "datasheet roofline of " + calib::device_name(profile) + " (analytical profile)";
  st.dp_overlap = s.cost.dp_overlap;
  st.peak_flops = calib::gemm_ceiling_tflops(profile) * 1e12;
  return st;
}

double LayerBreakdown::comm_fwd_s() const {
  return tp_comm.fwd_s + cp_comm.fwd_s;
}
double LayerBreakdown::comm_bwd_s() const {
  return tp_comm.bwd_s + cp_comm.bwd_s + recompute_comm_s;
}

double LayerBreakdown::compute_fwd_s() const {
  double t = attention.fwd_s;
  for (const Term& g : gemms) t += g.fwd_s;
  for (const Term& k : memory) t += k.fwd_s;
  return t;
}

double LayerBreakdown::compute_bwd_s() const {
  double t = attention.bwd_s + recompute_compute_s;
  for (const Term& g : gemms) t += g.bwd_s;
  for (const Term& k : memory) t += k.bwd_s;
  return t;
}

LayerBreakdown layer_breakdown(const StepSetup& st, const calib::Profile& profile, int t) {
  const calib::ModelShape& sh = st.shape;
  LayerBreakdown b;
  for (const calib::GemmQuery& q : calib::layer_gemms(sh, t)) {
    if (q.name == "attention") continue;  // below: a fused kernel, not GEMMs
    auto it = std::find_if(b.gemms.begin(), b.gemms.end(),
                           [&](const Term& g) { return g.name == q.name; });
    if (it == b.gemms.end()) {
      b.gemms.push_back({q.name, 0, 0, st.gemm_source});
      it = b.gemms.end() - 1;
    }
    (q.pass == calib::Pass::fwd ? it->fwd_s : it->bwd_s) += calib::gemm_time_s(profile, q);
  }
  // Causal attention, one fused kernel per pass (softmax inside it). With context parallelism
  // the rank's seq/cp queries meet all seq keys: cp times the (seq/cp)^2 causal attention the
  // shape describes.
  const calib::AttentionTime af =
      calib::attention_time(profile, calib::attention_call(sh, t, calib::Pass::fwd));
  const calib::AttentionTime ab =
      calib::attention_time(profile, calib::attention_call(sh, t, calib::Pass::bwd_data));
  b.attention = {"attention (causal, fused softmax)", st.cp * af.time_s, st.cp * ab.time_s,
                 attention_source(profile, af, ab)};
  if (ab.source != af.source)
    b.attention.source += "; backward: " + std::string(calib::to_string(ab.source));
  if (st.cp > 1) b.attention.source += "; 1/cp of the sequence's attention per CP rank";

  const double tokens = static_cast<double>(sh.tokens());
  const double h = sh.hidden;
  const double act = kBf16 * tokens * h;  // one activation tensor of the micro-batch
  const double act_local = st.sequence_parallel ? act / t : act;
  const double ffn_local = static_cast<double>(calib::ffn_local(sh, t));
  const double d = sh.head_dim();
  auto memory = [&](const char* name, double bytes) {
    b.memory.push_back({name, bytes / st.hbm_Bps, 2 * bytes / st.hbm_Bps, st.hbm_source});
  };
  const calib::MemoryKernel norm =
      sh.gated_mlp ? calib::MemoryKernel::rmsnorm : calib::MemoryKernel::layernorm;
  Term norms = measured_kernel(
      profile, sh.gated_mlp ? "RMSNorm (2, read + write)" : "LayerNorm (2, read + write)", norm,
      2 * act_local, 2.0);
  norms.fwd_s *= 2, norms.bwd_s *= 2;
  b.memory.push_back(norms);
  memory("residual adds (2, 2 reads + 1 write)", 2 * 3 * act_local);
  if (st.rotary) {
    const double qk_cols = static_cast<double>(calib::heads_local(sh, t)) * d +
                           static_cast<double>(calib::ceil_div(sh.kv_heads, t)) * d;
    memory("rotary embedding of q, k (read + write)", 2 * kBf16 * tokens * qk_cols);
  }
  b.memory.push_back(measured_kernel(
      profile,
      sh.gated_mlp ? "SwiGLU activation (2 reads + 1 write)" : "GeLU activation (read + write)",
      sh.gated_mlp ? calib::MemoryKernel::swiglu : calib::MemoryKernel::gelu,
      kBf16 * tokens * ffn_local * (sh.gated_mlp ? 3.0 : 2.0), 2.0));
  if (st.dropout)
    memory("dropout (2, read + write + 1-byte mask)", 2 * (2 * act_local + act_local / kBf16));

  // Two collectives of one activation per direction (all-reduce, or RS + AG: the same bytes).
  const double coll = 2 * ring_s(act, t, st.nvlink_Bps);
  b.tp_comm = {st.sequence_parallel ? "TP reduce-scatter + all-gather" : "TP all-reduce", 2 * coll,
               2 * coll, st.nvlink_source, true};

  if (st.cp > 1) {
    // Ring attention: each CP rank passes its K and V chunk around the ring (cp - 1 hops)
    // forward; backward the K, V chunks again and their gradients. Each hop overlaps the
    // attention of the chunk it follows: only what the attention does not hide is exposed.
    const double kv = 2 * kBf16 * tokens * static_cast<double>(calib::ceil_div(sh.kv_heads, t)) * d;
    const double fwd = (st.cp - 1) * kv / st.cp_Bps, bwd = 2 * fwd;
    b.cp_comm = {"CP ring exchange of K, V (exposed beyond attention)",
                 std::max(0.0, fwd - b.attention.fwd_s), std::max(0.0, bwd - b.attention.bwd_s),
                 st.cp_source, true};
  }
  if (st.recompute == Recompute::Selective) {
    b.recompute_compute_s = b.attention.fwd_s;
  } else if (st.recompute == Recompute::Full) {
    b.recompute_compute_s = b.compute_fwd_s();
    b.recompute_comm_s = b.tp_comm.fwd_s + b.cp_comm.fwd_s;
  }

  // Model FLOPs per GPU (even split: what MFU divides by).
  const double attn = 6.0 * sh.micro_batch * static_cast<double>(sh.seq_len) * sh.seq_len * h *
                      st.cp;  // causal; per CP rank 1/cp of the whole sequence's
  b.model_flops = (6.0 * static_cast<double>(calib::layer_params(sh)) * tokens + attn) / st.tp;
  return b;
}

double StageBreakdown::ends_s(bool comm, bool backward) const {
  double t = 0;
  for (const Term& e : ends)
    if (e.comm == comm) t += backward ? e.bwd_s : e.fwd_s;
  return t;
}

StageBreakdown stage_breakdown(const StepSetup& st, const calib::Profile& profile, int t, int index,
                               const LayerBreakdown* layer) {
  const calib::ModelShape& sh = st.shape;
  StageBreakdown s;
  s.degree = t;
  s.index = index;
  s.layers = st.stage_layers.at(static_cast<std::size_t>(index));
  s.layer = layer ? *layer : layer_breakdown(st, profile, t);
  const double tokens = static_cast<double>(sh.tokens());
  const double h = sh.hidden;
  const double act = kBf16 * tokens * h;
  const bool first = index == 0, last = index + 1 == st.pp;
  const double v_local =
      st.vocab > 0 ? static_cast<double>(calib::ceil_div(static_cast<std::int64_t>(st.vocab), t))
                   : 0.0;
  const std::string collective =
      st.sequence_parallel ? "TP reduce-scatter / all-gather" : "TP all-reduce";
  if (first && st.vocab > 0) {
    // Vocabulary-parallel lookup: gather the rows of the local slice (read + write), one TP
    // collective of the activations; backward scatter-adds the gradient into the table.
    s.ends.push_back(
        {"embedding lookup", 2 * act / st.hbm_Bps, 3 * act / st.hbm_Bps, st.hbm_source});
    s.ends.push_back({"embedding " + collective, ring_s(act, t, st.nvlink_Bps),
                      st.sequence_parallel ? ring_s(act, t, st.nvlink_Bps) : 0.0, st.nvlink_source,
                      true});
  }
  if (last && st.vocab > 0) {
    const auto vl = static_cast<std::int64_t>(v_local);
    const std::int64_t tk = sh.tokens();
    const double fwd =
        calib::gemm_time_s(profile, {"lm_head", calib::Pass::fwd, tk, vl, sh.hidden, 1, "TN"});
    const double bwd =
        calib::gemm_time_s(profile,
                           {"lm_head", calib::Pass::bwd_data, tk, sh.hidden, vl, 1, "NN"}) +
        calib::gemm_time_s(profile,
                           {"lm_head", calib::Pass::bwd_weight, vl, sh.hidden, tk, 1, "NT"});
    s.ends.push_back({"GEMM lm_head", fwd, bwd, st.gemm_source});
    if (st.sequence_parallel)
      s.ends.push_back({"LM head input all-gather / gradient reduce-scatter",
                        ring_s(act, t, st.nvlink_Bps), ring_s(act, t, st.nvlink_Bps),
                        st.nvlink_source, true});
    // Softmax cross-entropy: read the logits, write their gradient.
    s.ends.push_back(measured_kernel(profile, "softmax cross-entropy (read + write the logits)",
                                     calib::MemoryKernel::softmax, 2 * kBf16 * tokens * v_local,
                                     1.0));
    s.head_flops = 6.0 * tokens * h * st.vocab / st.tp;
  }
  s.p2p_s = act / t / st.scaleout_Bps;
  s.p2p_source = st.scaleout_source + ", 1/t of the activations per rank";
  s.params_per_gpu = (s.layers * static_cast<double>(calib::layer_params(sh)) +
                      ((first ? 1 : 0) + (last ? 1 : 0)) * st.vocab * h) /
                     t;
  const double grad_bytes = kBf16 * s.params_per_gpu;
  // Reduce-scatter + all-gather over the dp x cp ranks that hold the same weights.
  s.dp_sync_s = 2 * ring_s(grad_bytes, st.dp * st.cp, st.scaleout_Bps);
  s.dp_exposed_s = (1 - st.dp_overlap) * s.dp_sync_s;
  s.dp_source = st.scaleout_source +
                ", ring over the dp x cp ranks holding the same weights; /cost/dp_overlap hidden "
                "(assumption)";
  const double shard = s.params_per_gpu / std::max(1, st.dp * st.cp);
  s.grad_clip_s = kClipBytesPerParam * shard / st.hbm_Bps;
  s.grad_clip_source =
      "12 bytes per parameter of the DP shard (fp32 norm read, scale read + "
      "write) at " +
      st.hbm_source;
  const Term adam =
      measured_kernel(profile, "Adam", calib::MemoryKernel::adam, kAdamBytesPerParam * shard, 1.0);
  s.optimizer_s = adam.fwd_s;
  s.optimizer_source = "Adam over the DP shard, 28 bytes per parameter: " + adam.source;
  return s;
}

double step_model_flops_per_gpu(const StepSetup& st, const std::vector<StageBreakdown>& stages) {
  double f = 0;
  for (const StageBreakdown& s : stages) f += s.model_flops();
  return st.microbatches * f / st.pp;
}

StageTimes StageBreakdown::times(double speed) const {
  StageTimes t;
  t.fwd_s = compute_fwd_s() / speed + comm_fwd_s();
  t.bwd_s = compute_bwd_s() / speed + comm_bwd_s();
  t.p2p_fwd_s = p2p_s;
  t.p2p_bwd_s = p2p_s;
  t.tail_s = tail_s();
  return t;
}

}  // namespace goodput
