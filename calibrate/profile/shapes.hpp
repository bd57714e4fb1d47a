// The GEMM shapes one transformer layer runs on the busiest GPU of a TP group of degree t.
// Contract: layer_gemms() lists, for qkv, attn_out, mlp_up, mlp_down and attention, the
// forward and backward GEMMs as logical row-major products C[m x n] = A[m x k] B[k x n]
// (batch > 1 only for attention), with uneven shards as ceil(heads/t) heads and
// ffn_local(shape, t) FFN columns (ceil(ffn/t) rounded up to 8: see kShardAlignColumns).
// gemm_flops() is the single definition of the FLOP count used for TFLOP/s everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/enum_names.hpp"

namespace goodput::calib {

enum class Pass { fwd, bwd_data, bwd_weight };
// The names of Pass in profiles and messages, spelled once (enum_names.hpp).
inline constexpr EnumName<Pass> kPassNames[] = {
    {Pass::fwd, "fwd"}, {Pass::bwd_data, "bwd_data"}, {Pass::bwd_weight, "bwd_weight"}};
std::string_view to_string(Pass pass);
Pass parse_pass(std::string_view text);  // throws std::invalid_argument listing valid names

struct ModelShape {
  std::string name;
  int hidden = 0, heads = 0, kv_heads = 0, ffn = 0;
  bool gated_mlp = false;  // the MLP up projection has 2 * ffn columns
  int seq_len = 0, micro_batch = 1;

  int head_dim() const { return hidden / heads; }
  std::int64_t tokens() const { return std::int64_t{micro_batch} * seq_len; }
  bool operator==(const ModelShape&) const = default;
};

// Throws std::invalid_argument naming the first inconsistent field.
void validate(const ModelShape& shape);

struct GemmQuery {
  std::string name;  // qkv | attn_out | mlp_up | mlp_down | attention
  Pass pass = Pass::fwd;
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch = 1;
  std::string layout;  // cuBLAS column-major ops for the harness; ignored by lookups
};

// Linear layers: fwd (tokens, out, in) "TN"; bwd_data (tokens, in, out) "NN";
// bwd_weight (out, in, tokens) "NT". Attention: fwd = QK^T and PV, bwd_data = the four
// backward GEMMs, as (m, n, k) = (seq, seq, head_dim), batch = micro_batch * ceil(heads/t).
std::vector<GemmQuery> layer_gemms(const ModelShape& shape, int tp);

// Attention local sizes for TP degree t.
std::int64_t heads_local(const ModelShape& shape, int tp);

// FFN columns are not tied to heads: any column of the up projection may go to any rank (with
// its row of the down projection), so a degraded group deals them out in multiples of 8
// (16 bytes of bf16, the stride alignment Hopper's TMA GEMM kernels need). Measured on an H200
// (calibrate/profiles/README.md): 16384 x 2643 x 20480 ran at 103 TFLOP/s, x 2644 at 276, x 2648
// at 816: an implementation that dealt ceil(ffn/t) columns would pay 3-7x, one that pads to 8
// pays nothing measurable. The busiest rank's FFN columns: ceil(ffn/t) rounded up to a multiple
// of kShardAlignColumns, never more than ffn.
inline constexpr std::int64_t kShardAlignColumns = 8;
std::int64_t ffn_local(const ModelShape& shape, int tp);
GemmQuery attention_query(std::int64_t heads_local, std::int64_t seq_len, std::int64_t head_dim,
                          std::int64_t micro_batch, Pass pass);

// One fused causal attention call on the busiest GPU (cuDNN SDPA, a flash kernel): micro_batch
// sequences of seq_len tokens, ceil(heads / t) query and ceil(kv_heads / t) K/V heads of
// head_dim. pass: fwd, or bwd_data for the backward (dQ, dK, dV), as the attention GEMM entries.
struct AttentionQuery {
  Pass pass = Pass::fwd;
  std::int64_t batch = 1, heads = 1, kv_heads = 1, seq_len = 1, head_dim = 1;
};
AttentionQuery attention_call(const ModelShape& shape, int tp, Pass pass);

// Causal attention FLOPs as goodput counts them (the step model, MFU's 6 s^2 h per layer):
// forward QK^T and PV over the unmasked half, 2 (2 s^2 d) / 2 = 2 s^2 d per head and sequence;
// backward twice the forward (FlashAttention's benchmarks count 2.5x, with the recomputed
// QK^T). Half of gemm_flops() of the matching attention query.
double attention_flops(const AttentionQuery& q);

// 2 m n k batch for linear layers; attention fwd = 2 GEMMs, bwd_data = 4 GEMMs of 2 m n k.
double gemm_flops(const GemmQuery& q);
double gemm_flops(const std::string& name, Pass pass, std::int64_t m, std::int64_t n,
                  std::int64_t k, std::int64_t batch);

// bf16 bytes of A, B and C over all the GEMM calls of the query (memory-traffic floor).
double gemm_bytes(const GemmQuery& q);

// Weights of one transformer layer, unsharded: QKV, attention output, MLP up (2 ffn columns
// when gated) and down projections (norm weights and biases are left out: < 0.01 %).
std::int64_t layer_params(const ModelShape& shape);

// Key used by the fit: the smallest of m, n, k.
std::int64_t smallest_dim(std::int64_t m, std::int64_t n, std::int64_t k);

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace goodput::calib
