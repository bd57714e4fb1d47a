// Fused causal attention in the harness: cuDNN's SDPA (flash) kernel, forward and backward,
// BF16, at the plan's AttentionJobs (plan.hpp), recorded in the profile's /attention.
// Contract: fused_attention_support() says whether this build can time the fused kernel, and
// if not, why (the reason goes into the profile's attention_scope); bench_fused_attention()
// returns a complete, verified entry, or nothing where unsupported (the profile then has no
// fused entry for that call, and the simulator falls back to the attention GEMM tiles).
//
// Status: the build finds cuDNN (CMake, optional: GOODPUT_HAVE_CUDNN) and links it, but the
// kernel is not timed yet. cuDNN 9.19's native SDPA operations
// (CUDNN_BACKEND_OPERATION_SDPA_FWD/BWD_DESCRIPTOR, 9.13+) take no causal mask (block masks
// from 9.14, the score-modifier subgraph from 9.21); causal flash attention on Hopper goes
// through the runtime-fusion operation graph that cudnn-frontend builds (matmul, scale, the
// causal index compare and select, the softmax reductions with its statistics, matmul; about
// three times as many operations backward), and cudnn-frontend is not available to this build.
// That graph, written against the backend descriptor API, is what remains: it needs a GPU to
// be checked against a reference, which the session that wrote this did not have.
#pragma once

#include <optional>
#include <string>

#include "calibrate/harness/bench_context.hpp"
#include "calibrate/profile/plan.hpp"

namespace goodput::calib {

struct FusedAttentionSupport {
  bool available = false;
  std::string library;  // "cuDNN 9.19.0" (the runtime's version), or "" without cuDNN
  std::string why_not;  // empty when available
};
FusedAttentionSupport fused_attention_support();

std::optional<AttentionEntry> bench_fused_attention(BenchContext& ctx, const AttentionJob& job);

}  // namespace goodput::calib
