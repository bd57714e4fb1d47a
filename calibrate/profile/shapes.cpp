#include "calibrate/profile/shapes.hpp"

#include <algorithm>
#include <stdexcept>

namespace goodput::calib {

std::string_view to_string(Pass pass) {
  return enum_name(kPassNames, pass);
}

Pass parse_pass(std::string_view text) {
  return enum_value(kPassNames, text);
}

void validate(const ModelShape& s) {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (s.hidden < 1) fail("hidden must be >= 1");
  if (s.heads < 1) fail("heads must be >= 1");
  if (s.kv_heads < 1 || s.kv_heads > s.heads) fail("kv_heads must be in [1, heads]");
  if (s.heads % s.kv_heads != 0) fail("heads must be a multiple of kv_heads");
  if (s.hidden % s.heads != 0) fail("hidden must be a multiple of heads");
  if (s.ffn < 1) fail("ffn must be >= 1");
  if (s.seq_len < 1) fail("seq_len must be >= 1");
  if (s.micro_batch < 1) fail("micro_batch must be >= 1");
}

std::int64_t heads_local(const ModelShape& shape, int tp) {
  return ceil_div(shape.heads, tp);
}

std::int64_t ffn_local(const ModelShape& shape, int tp) {
  const std::int64_t even = ceil_div(shape.ffn, tp);
  return std::min<std::int64_t>(ceil_div(even, kShardAlignColumns) * kShardAlignColumns, shape.ffn);
}

GemmQuery attention_query(std::int64_t heads_loc, std::int64_t seq_len, std::int64_t head_dim,
                          std::int64_t micro_batch, Pass pass) {
  return GemmQuery{"attention", pass, seq_len, seq_len, head_dim, heads_loc * micro_batch, "-"};
}

std::vector<GemmQuery> layer_gemms(const ModelShape& s, int tp) {
  if (tp < 1) throw std::invalid_argument("tp must be >= 1");
  const std::int64_t t = s.tokens();
  const std::int64_t d = s.head_dim();
  const std::int64_t h = s.hidden;
  const std::int64_t q_cols = heads_local(s, tp) * d;
  const std::int64_t qkv_cols = q_cols + 2 * ceil_div(s.kv_heads, tp) * d;
  const std::int64_t ffn_cols = ffn_local(s, tp);
  const std::int64_t up_cols = s.gated_mlp ? 2 * ffn_cols : ffn_cols;
  struct Linear {
    const char* name;
    std::int64_t in, out;
  };
  const Linear linears[] = {{"qkv", h, qkv_cols},
                            {"attn_out", q_cols, h},
                            {"mlp_up", h, up_cols},
                            {"mlp_down", ffn_cols, h}};
  std::vector<GemmQuery> out;
  for (const Linear& l : linears) {
    out.push_back({l.name, Pass::fwd, t, l.out, l.in, 1, "TN"});
    out.push_back({l.name, Pass::bwd_data, t, l.in, l.out, 1, "NN"});
    out.push_back({l.name, Pass::bwd_weight, l.out, l.in, t, 1, "NT"});
  }
  out.push_back(attention_query(heads_local(s, tp), s.seq_len, d, s.micro_batch, Pass::fwd));
  out.push_back(attention_query(heads_local(s, tp), s.seq_len, d, s.micro_batch, Pass::bwd_data));
  return out;
}

double gemm_flops(const std::string& name, Pass pass, std::int64_t m, std::int64_t n,
                  std::int64_t k, std::int64_t batch) {
  const double one = 2.0 * static_cast<double>(m) * static_cast<double>(n) *
                     static_cast<double>(k) * static_cast<double>(batch);
  if (name == "attention") return one * (pass == Pass::fwd ? 2.0 : 4.0);
  return one;
}

double gemm_flops(const GemmQuery& q) {
  return gemm_flops(q.name, q.pass, q.m, q.n, q.k, q.batch);
}

AttentionQuery attention_call(const ModelShape& s, int tp, Pass pass) {
  if (tp < 1) throw std::invalid_argument("tp must be >= 1");
  if (pass == Pass::bwd_weight)
    throw std::invalid_argument("attention has no weights: ask for fwd or bwd_data");
  return AttentionQuery{pass,      s.micro_batch, heads_local(s, tp), ceil_div(s.kv_heads, tp),
                        s.seq_len, s.head_dim()};
}

double attention_flops(const AttentionQuery& q) {
  const auto s = static_cast<double>(q.seq_len);
  const double fwd = 2.0 * s * s * static_cast<double>(q.head_dim) * static_cast<double>(q.heads) *
                     static_cast<double>(q.batch);
  return q.pass == Pass::fwd ? fwd : 2.0 * fwd;
}

double gemm_bytes(const GemmQuery& q) {
  const double calls = q.name == "attention" ? (q.pass == Pass::fwd ? 2.0 : 4.0) : 1.0;
  const auto m = static_cast<double>(q.m), n = static_cast<double>(q.n),
             k = static_cast<double>(q.k);
  return 2.0 * calls * static_cast<double>(q.batch) * (m * k + k * n + m * n);
}

std::int64_t layer_params(const ModelShape& s) {
  const std::int64_t h = s.hidden, d = s.head_dim(), ffn = s.ffn;
  const std::int64_t q = std::int64_t{s.heads} * d, kv = std::int64_t{s.kv_heads} * d;
  return h * (q + 2 * kv) + q * h + h * ffn * (s.gated_mlp ? 2 : 1) + ffn * h;
}

std::int64_t smallest_dim(std::int64_t m, std::int64_t n, std::int64_t k) {
  return std::min({m, n, k});
}

}  // namespace goodput::calib
