// Attention core per GPU through cuBLAS strided-batched GEMMs (no fused kernel at hand):
// fwd = S = Q K^T and O = P V; bwd_data = dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q.
// Contract: softmax, masking and dropout are not included (the profile's attention_scope
// says so); batch = micro_batch * local heads; every call is verified once before timing.
#pragma once

#include "calibrate/harness/bench_context.hpp"

namespace goodput::calib {

struct AttentionResult {
  TimeStats time;
  Verification verification = Verification::failed;
};

AttentionResult bench_attention(BenchContext& ctx, const GemmQuery& query);

}  // namespace goodput::calib
