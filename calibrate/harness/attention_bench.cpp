#include "calibrate/harness/attention_bench.hpp"

#include <iostream>
#include <string>
#include <vector>

#include "calibrate/harness/causal_tiles.hpp"
#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/gemm_verify.hpp"

namespace goodput::calib {
namespace {

void run_batched(cublasHandle_t h, const GemmCall& c) {
  const float alpha = 1.0F, beta = 0.0F;
  GOODPUT_CUBLAS(cublasGemmStridedBatchedEx(
      h, c.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, c.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
      static_cast<int>(c.m), static_cast<int>(c.n), static_cast<int>(c.k), &alpha, c.a, CUDA_R_16BF,
      static_cast<int>(c.lda), c.stride_a, c.b, CUDA_R_16BF, static_cast<int>(c.ldb), c.stride_b,
      &beta, c.c, CUDA_R_16BF, static_cast<int>(c.ldc), c.stride_c, static_cast<int>(c.batch),
      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace

std::string attention_impl() {
  return "cublas_causal_blocked";
}

std::string attention_scope() {
  return "causal attention core as blocked cuBLAS GEMMs that skip the masked upper tiles (tiles of "
         "seq/16..seq/2 tokens, >= 256): fwd = QK^T and PV, bwd_data = dV, dP, dQ, dK; (tiles+1)/"
         "(2 tiles) of the dense FLOPs executed, tflops counts executed FLOPs; softmax, mask, "
         "dropout and fused-kernel effects not timed";
}

AttentionResult bench_attention(BenchContext& ctx, const GemmQuery& q) {
  const std::int64_t s = q.m, d = q.k, batch = q.batch;
  const causal::Tiling tiling = causal::tiling(s);
  const std::vector<causal::TileGemm> tiles =
      q.pass == Pass::fwd ? causal::forward(s, d, tiling) : causal::backward(s, d, tiling);
  std::vector<DeviceBuffer> bufs;
  for (int b = 0; b < causal::kBufCount; ++b) {
    const std::int64_t elems = causal::buffer_elems(b, s, d) * batch;
    bufs.emplace_back(2 * elems);
    // Random non-zero everywhere: outputs are overwritten, unwritten (masked) tiles never read.
    fill_random_bf16(bufs.back().get(), elems, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  }
  auto operand = [&](const causal::Operand& o) {
    return static_cast<char*>(bufs[static_cast<std::size_t>(o.buf)].get()) + 2 * o.offset;
  };
  std::vector<GemmCall> calls;
  for (const causal::TileGemm& t : tiles) {
    GemmCall g;
    g.trans_a = t.trans_a;
    g.trans_b = t.trans_b;
    g.m = t.m;
    g.n = t.n;
    g.k = t.k;
    g.a = operand(t.a);
    g.lda = t.a.ld;
    g.stride_a = causal::buffer_elems(t.a.buf, s, d);
    g.b = operand(t.b);
    g.ldb = t.b.ld;
    g.stride_b = causal::buffer_elems(t.b.buf, s, d);
    g.c = operand(t.c);
    g.ldc = t.c.ld;
    g.stride_c = causal::buffer_elems(t.c.buf, s, d);
    g.batch = batch;
    calls.push_back(g);
  }
  AttentionResult r;
  r.verification = Verification::passed;
  r.executed_fraction = causal::causal_fraction(tiling);
  for (const GemmCall& c : calls) {  // each call checked right after it ran, inputs intact
    run_batched(ctx.blas(), c);
    const GemmCheck check = verify_gemm(c, ctx.next_seed(), ctx.stream());
    if (check.verification != Verification::passed) {
      r.verification = Verification::failed;
      std::cerr << "goodput-calibrate: attention GEMM verification " << check.describe() << "\n";
    }
  }
  r.time = ctx.timer().measure(
      [&](cudaStream_t) {
        for (const GemmCall& c : calls) run_batched(ctx.blas(), c);
      },
      ctx.stop());
  return r;
}

}  // namespace goodput::calib
