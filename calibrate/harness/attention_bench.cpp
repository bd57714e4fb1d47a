#include "calibrate/harness/attention_bench.hpp"

#include <iostream>
#include <vector>

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

// op(A) m x k times op(B) k x n, per head; sd = s x d matrices, ss = s x s.
GemmCall make(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const void* a,
              std::int64_t lda, std::int64_t sa, const void* b, std::int64_t ldb, std::int64_t sb,
              void* c, std::int64_t ldc, std::int64_t sc, std::int64_t batch) {
  GemmCall g;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = lda;
  g.stride_a = sa;
  g.b = b;
  g.ldb = ldb;
  g.stride_b = sb;
  g.c = c;
  g.ldc = ldc;
  g.stride_c = sc;
  g.batch = batch;
  return g;
}

}  // namespace

AttentionResult bench_attention(BenchContext& ctx, const GemmQuery& q) {
  const std::int64_t s = q.m, d = q.k, batch = q.batch;
  const std::int64_t sd = s * d, ss = s * s;
  DeviceBuffer Q(2 * sd * batch), K(2 * sd * batch), V(2 * sd * batch), dO(2 * sd * batch);
  DeviceBuffer out(2 * sd * batch), S(2 * ss * batch), dP(2 * ss * batch);
  for (DeviceBuffer* buf : {&Q, &K, &V, &dO}) {
    fill_random_bf16(buf->get(), sd * batch, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  }
  fill_random_bf16(S.get(), ss * batch, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  std::vector<GemmCall> calls;
  if (q.pass == Pass::fwd) {
    calls.push_back(make(true, false, s, s, d, K.get(), d, sd, Q.get(), d, sd, S.get(), s, ss, batch));
    calls.push_back(make(false, false, d, s, s, V.get(), d, sd, S.get(), s, ss, out.get(), d, sd, batch));
  } else {
    calls.push_back(make(false, true, d, s, s, dO.get(), d, sd, S.get(), s, ss, out.get(), d, sd, batch));
    calls.push_back(make(true, false, s, s, d, V.get(), d, sd, dO.get(), d, sd, dP.get(), s, ss, batch));
    calls.push_back(make(false, false, d, s, s, K.get(), d, sd, dP.get(), s, ss, out.get(), d, sd, batch));
    calls.push_back(make(false, true, d, s, s, Q.get(), d, sd, dP.get(), s, ss, out.get(), d, sd, batch));
  }
  AttentionResult r;
  r.verification = Verification::passed;
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
