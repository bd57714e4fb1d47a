// Attention core per GPU as training runs it, causal: cuBLAS strided-batched GEMMs over the
// unmasked tiles only (causal_tiles.hpp; cudnn-frontend's fused SDPA is not available to this
// build): fwd = S = Q K^T and O = P V; bwd_data = dV = P^T dO, dP = dO V^T, dQ = dS K,
// dK = dS^T Q. Contract: softmax, masking and dropout are not included (attention_scope()
// says so, and goes into the profile with attention_impl()); batch = micro_batch * local
// heads; every call is verified once before timing; executed_fraction is the share of the
// dense FLOPs (gemm_flops) that ran.
#pragma once

#include <string>

#include "calibrate/harness/bench_context.hpp"

namespace goodput::calib {

struct AttentionResult {
  TimeStats time;
  Verification verification = Verification::failed;
  double executed_fraction = 1.0;
};

std::string attention_impl();
std::string attention_scope();

AttentionResult bench_attention(BenchContext& ctx, const GemmQuery& query);

}  // namespace goodput::calib
