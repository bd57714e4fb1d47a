// The causal attention lookup (profile.hpp, attention_time): measured fused entries, then the
// measured attention GEMM tiles, then the analytical flash-attention efficiency, then the
// analytical GEMM curve.
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "calibrate/profile/profile.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"

namespace goodput::calib {
namespace {

bool same_shape(const AttentionEntry& e, const AttentionQuery& q) {
  return e.pass == q.pass && e.batch == q.batch && e.heads == q.heads && e.kv_heads == q.kv_heads &&
         e.seq_len == q.seq_len && e.head_dim == q.head_dim;
}

AttentionQuery query_of(const AttentionEntry& e) {
  return {e.pass, e.batch, e.heads, e.kv_heads, e.seq_len, e.head_dim};
}

// A measured profile's fused entries: the exact one, else the nearest (in FLOPs) of the pass.
std::optional<AttentionTime> fused(const Profile& p, const AttentionQuery& q, double flops) {
  const AttentionEntry* nearest = nullptr;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p.attention.size(); ++i) {
    const AttentionEntry& e = p.attention[i];
    if (same_shape(e, q)) {
      if (e.verification == Verification::failed)
        throw InputError(p.path, pointer_append(pointer_append("/attention", i), "verification"),
                         "the fused attention entry for this shape failed verification when the "
                         "profile was measured; refusing to use it (re-run goodput-calibrate)");
      return AttentionTime{e.time_s.median, flops / e.time_s.median / 1e12,
                           AttentionSource::measured_fused};
    }
    if (e.pass != q.pass || e.verification == Verification::failed) continue;
    const double distance = std::abs(std::log(attention_flops(query_of(e)) / flops));
    if (distance < best) {
      best = distance;
      nearest = &e;
    }
  }
  if (!nearest) return std::nullopt;
  const double rate = attention_flops(query_of(*nearest)) / nearest->time_s.median;
  return AttentionTime{flops / rate, rate / 1e12, AttentionSource::measured_fused};
}

}  // namespace

std::string_view to_string(AttentionSource source) {
  switch (source) {
    case AttentionSource::measured_fused:
      return "profile measurement (fused attention)";
    case AttentionSource::measured_gemm_tiles:
      return "profile measurement (attention GEMM tiles)";
    case AttentionSource::flash_efficiency:
      return "datasheet x flash-attention efficiency";
    case AttentionSource::gemm_curve:
      return "datasheet GEMM curve";
  }
  return "?";
}

AttentionTime attention_time(const Profile& p, const AttentionQuery& q) {
  if (q.pass == Pass::bwd_weight)
    throw std::invalid_argument("attention has no weights: ask for fwd or bwd_data");
  const double flops = attention_flops(q);
  if (p.source == Source::measured) {
    if (const auto t = fused(p, q, flops)) return *t;
    // The GEMM entries time the causal tiles; an older profile's dense GEMMs are halved.
    const double causal = p.settings.attention_impl == "cublas_strided_batched" ? 0.5 : 1.0;
    const double t =
        causal * gemm_time_s(p, attention_query(q.heads, q.seq_len, q.head_dim, q.batch, q.pass));
    return {t, flops / t / 1e12, AttentionSource::measured_gemm_tiles};
  }
  const AnalyticalSettings* a =
      p.settings.analytical_model ? &*p.settings.analytical_model : nullptr;
  if (a && a->flash_attention) {
    const double eff = q.pass == Pass::fwd ? a->flash_attention->fwd_efficiency
                                           : a->flash_attention->bwd_efficiency;
    const double t = flops / (gemm_ceiling_tflops(p) * 1e12 * eff);
    return {t, flops / t / 1e12, AttentionSource::flash_efficiency};
  }
  const double t =
      0.5 * gemm_time_s(p, attention_query(q.heads, q.seq_len, q.head_dim, q.batch, q.pass));
  return {t, flops / t / 1e12, AttentionSource::gemm_curve};
}

double attention_time_s(const Profile& p, std::int64_t heads_loc, std::int64_t seq_len,
                        std::int64_t head_dim, std::int64_t micro_batch, Pass pass) {
  return attention_time(p, {pass, micro_batch, heads_loc, heads_loc, seq_len, head_dim}).time_s;
}

}  // namespace goodput::calib
